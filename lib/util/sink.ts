// A text stream to a client that may leave at any time (the notification stream writes to one).
import type { Writable } from 'node:stream';

/** A text stream to a client that may leave at any time. */
export interface SseSink {
  write(text: string): void;
  readonly closed: boolean;
  /** Resolves after `ms`, or as soon as the client goes away. */
  pause(ms: number): Promise<void>;
}

/** The response as a sink: writes stop, and a pause ends, once the client has gone. */
export function sinkOf(out: Writable): SseSink {
  let closed = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    closed = true;
    wake?.();
  };
  out.once('close', stop);
  out.once('error', stop);
  return {
    write: (text) => {
      if (!closed && !out.destroyed) out.write(text);
    },
    get closed() {
      return closed || out.destroyed || out.writableEnded;
    },
    pause: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
  };
}
