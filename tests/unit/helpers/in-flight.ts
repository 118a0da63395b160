// Sends that stay in flight for a while, counted: whether a service sends its messages at once
// (one round trip) or one after the other. `send` wraps what a send records; `now` is how many are
// in flight at this moment, `most` the most that were in flight together; `emitter` records each
// event emitted and whether a send was in flight then (sent at the same time).
export function inFlight(ms = 20) {
  const state = { now: 0, most: 0 };
  return {
    get now() {
      return state.now;
    },
    get most() {
      return state.most;
    },
    /** A sender that runs `record` (with the send's arguments) and stays in flight for `ms`. */
    send<A extends unknown[]>(record: (...args: A) => void = () => undefined) {
      return async (...args: A): Promise<void> => {
        record(...args);
        state.most = Math.max(state.most, ++state.now);
        await new Promise((resolve) => setTimeout(resolve, ms));
        state.now--;
      };
    },
    /** An event emitter (a service's `emit`) and what it was called with: [event name, a send in flight]. */
    emitter() {
      const emitted: Array<[string, boolean]> = [];
      return { emitted, emit: async (name: string) => void emitted.push([name, state.now > 0]) };
    },
  };
}
