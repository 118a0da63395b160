// One way to redo a read-modify-write that lost a race. Writes are conditional on what was read
// (a version, a count, an absent key); when the condition fails because another request wrote
// first, the operation throws LostRace and the whole read-modify-write runs again, after a
// jittered, growing pause, at most RETRY_ATTEMPTS times and for at most RETRY_DEADLINE_MS. A LostRace
// that outlives them reaches the client as a 409 in the area's dialect ("changed meanwhile; try
// again"), well before the function's timeout (10 s by default): a hot record under many
// concurrent writers answers 409 rather than a gateway timeout (docs/benchmarks.md, Hot keys).
import { Conflict, type ErrorOptions } from '../errors';

/** A conditional write found the record changed since it was read. */
export class LostRace extends Conflict {
  constructor(message = 'the record changed meanwhile; try again', options?: ErrorOptions) {
    super(message, options);
  }
}

/** Attempts of one operation, the first included. */
export const RETRY_ATTEMPTS = 10;

/** Time one operation may spend losing races before it answers 409 (attempts included). */
export const RETRY_DEADLINE_MS = 4_000;

/** Pause before attempt `attempt + 1`: "full jitter", uniform in [0, min(1 s, 10 ms * 2^attempt)). */
export const backoffMs = (attempt: number): number => Math.random() * Math.min(1000, 10 * 2 ** attempt);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `operation` (which reads, then writes conditionally) until it does not lose a race. */
export async function retryLostRace<T>(
  operation: (attempt: number) => Promise<T>,
  deadlineMs = RETRY_DEADLINE_MS,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      const pause = backoffMs(attempt);
      if (!(error instanceof LostRace) || attempt >= RETRY_ATTEMPTS || Date.now() - started + pause > deadlineMs)
        throw error;
      await sleep(pause);
    }
  }
}
