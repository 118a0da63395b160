// The local Lambda runtime: a pool of worker threads that run the built handler modules as Lambda
// runs functions (scripts/local/runtime-worker.ts), for the local gateway (HTTP routes), the queue
// pollers and the schedules of scripts/local/api.ts. What it keeps of Lambda:
// - a function's timeout: past it the caller gets Lambda's timeout error, and a worker that no
//   longer answers (a function stuck on the CPU) is replaced, as Lambda discards the environment;
// - the 6 MB limit of a buffered (synchronous) invocation's response: a larger result is Lambda's
//   error, not an answer (docs/configuration.md, "Limits the local stack enforces"); a streamed
//   response is cut at 200 MB;
// - memory: every worker's heap is capped at the largest memory size any function declares; a
//   worker out of memory fails the invocations it runs and is replaced.
// Workers run several invocations at once and share the modules they have loaded (one build of
// every handler, chunks shared): the isolation of one environment per function is not kept. What is
// kept is Lambda's separation of an API's functions from its queue workers: requests (routes, the
// authorizer) and events (queue workers, schedules) run on workers of their own, so a backlog of
// CPU-bound jobs (imagery, kriging) never holds a request's event loop, and a worker replaced after a
// job's timeout fails no request.
import { Worker } from 'node:worker_threads';

/** Lambda's payload limit of a synchronous invocation's response (6 MB). */
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** Lambda's payload limit of a streamed response (200 MB; docs/deploy.md, "Large answers"). */
export const MAX_STREAMED_BYTES = 200 * 1024 * 1024;

export interface LocalFunction {
  name: string;
  /** The built module (absolute path) and its export. */
  module: string;
  exportName: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** The handler writes its answer to a response stream (Lambda response streaming). */
  stream?: boolean;
  /** Which workers run it: `requests` (routes, the authorizer; the default) or `events` (queue workers, schedules). */
  pool?: Pool;
}

export type Pool = 'requests' | 'events';

export type ToRuntime =
  | {
      kind: 'invoke';
      id: number;
      fn: string;
      module: string;
      exportName: string;
      event: unknown;
      deadline: number;
      memoryMb: number;
      stream: boolean;
      requestId: string;
    }
  | { kind: 'cancel'; id: number }
  | { kind: 'ping'; id: number };

export type FromRuntime =
  | { kind: 'ready' }
  | { kind: 'pong'; id: number }
  | { kind: 'result'; id: number; result: unknown }
  | { kind: 'error'; id: number; error: LambdaError }
  | { kind: 'head'; id: number; statusCode: number; headers: Record<string, string> }
  | { kind: 'chunk'; id: number; data: Uint8Array }
  | { kind: 'end'; id: number };

export interface LambdaError {
  errorType: string;
  errorMessage: string;
  stack?: string;
}

/** An invocation that did not return a result: what Lambda reports as the function's error. */
export class InvocationError extends Error {
  constructor(
    readonly errorType: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where a streamed invocation writes. */
export interface StreamSink {
  head(statusCode: number, headers: Record<string, string>): void;
  chunk(data: Uint8Array): void;
}

interface Pending {
  worker: Slot;
  fn: LocalFunction;
  settle(error?: InvocationError, result?: unknown): void;
  sink?: StreamSink;
  bytes: number;
  timer: NodeJS.Timeout;
}

interface Slot {
  pool: Pool;
  worker: Worker;
  ready: Promise<void>;
  inFlight: number;
  retired: boolean;
}

export interface RuntimeOptions {
  /** The built worker thread module (scripts/local/runtime-worker.ts, built by scripts/local/build.ts). */
  workerScript: string;
  functions: readonly LocalFunction[];
  env: Record<string, string>;
  /** Worker threads of each pool, requests and events (default 2 each). */
  workers?: number;
  say?: (message: string) => void;
  /** The cut of a streamed response (default MAX_STREAMED_BYTES, Lambda's). */
  maxStreamedBytes?: number;
  /** Called when an invocation ends, as Lambda's REPORT line: its function, request id, duration and error type. */
  report?: (report: { fn: string; requestId: string; durationMs: number; errorType?: string }) => void;
}

let nextId = 1;

export class LambdaRuntime {
  private readonly functions = new Map<string, LocalFunction>();
  private slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly heapMb: number;
  private stopped = false;

  constructor(private readonly options: RuntimeOptions) {
    for (const fn of options.functions) this.functions.set(fn.name, fn);
    this.heapMb = Math.max(...options.functions.map((fn) => fn.memoryMb));
    for (const pool of ['requests', 'events'] as const) {
      for (let i = 0; i < (options.workers ?? 2); i++) this.slots.push(this.spawn(pool));
    }
  }

  /** Resolves once every worker is up. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.ready));
  }

  has(name: string): boolean {
    return this.functions.has(name);
  }

  /** A buffered invocation: the handler's result, or an InvocationError as Lambda reports one. */
  invoke(name: string, event: unknown, requestId: string): Promise<unknown> {
    return this.start(name, event, requestId);
  }

  /** A streamed invocation: metadata and chunks go to `sink`; resolves when the handler ends. */
  invokeStream(
    name: string,
    event: unknown,
    requestId: string,
    sink: StreamSink,
  ): { done: Promise<void>; cancel(): void } {
    let id = 0;
    const done = this.start(name, event, requestId, sink, (assigned) => {
      id = assigned;
    }).then(() => undefined);
    return {
      done,
      cancel: () => {
        const pending = this.pending.get(id);
        pending?.worker.worker.postMessage({ kind: 'cancel', id } satisfies ToRuntime);
      },
    };
  }

  /** Replaces every worker (after a rebuild): new invocations go to new workers, running ones finish. */
  restart(): void {
    const old = this.slots;
    this.slots = old.map((slot) => this.spawn(slot.pool));
    for (const slot of old) this.retire(slot);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.settle(new InvocationError('Runtime.Stopped', 'the local runtime stopped'));
    }
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private start(
    name: string,
    event: unknown,
    requestId: string,
    sink?: StreamSink,
    onId?: (id: number) => void,
  ): Promise<unknown> {
    const fn = this.functions.get(name);
    if (!fn) return Promise.reject(new InvocationError('ResourceNotFoundException', `no function ${name}`));
    if (this.stopped) return Promise.reject(new InvocationError('Runtime.Stopped', 'the local runtime stopped'));
    const slot = this.pick(fn.pool ?? 'requests');
    const id = nextId++;
    onId?.(id);
    return new Promise((resolve, reject) => {
      const timeoutMs = fn.timeoutSeconds * 1000;
      const started = performance.now();
      const settle = (error?: InvocationError, result?: unknown) => {
        const entry = this.pending.get(id);
        if (!entry) return;
        this.options.report?.({
          fn: name,
          requestId,
          durationMs: performance.now() - started,
          errorType: error?.errorType,
        });
        clearTimeout(entry.timer);
        this.pending.delete(id);
        slot.inFlight -= 1;
        if (slot.retired && slot.inFlight === 0) void slot.worker.terminate();
        if (error) reject(error);
        else resolve(result);
      };
      const timer = setTimeout(() => {
        settle(new InvocationError('Sandbox.Timedout', `Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`));
        this.checkAlive(slot);
      }, timeoutMs);
      this.pending.set(id, { worker: slot, fn, settle, sink, bytes: 0, timer });
      slot.inFlight += 1;
      void slot.ready.then(() =>
        slot.worker.postMessage({
          kind: 'invoke',
          id,
          fn: fn.name,
          module: fn.module,
          exportName: fn.exportName,
          event,
          deadline: Date.now() + timeoutMs,
          memoryMb: fn.memoryMb,
          stream: Boolean(fn.stream),
          requestId,
        } satisfies ToRuntime),
      );
    });
  }

  /** The pool's live worker with the fewest invocations in flight. */
  private pick(pool: Pool): Slot {
    let best: Slot | undefined;
    for (const slot of this.slots) if (slot.pool === pool && (!best || slot.inFlight < best.inFlight)) best = slot;
    return best!;
  }

  private spawn(pool: Pool): Slot {
    const worker = new Worker(this.options.workerScript, {
      env: { ...process.env, ...this.options.env },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
    });
    let markReady: () => void = () => undefined;
    const slot: Slot = {
      pool,
      worker,
      ready: new Promise((resolve) => (markReady = resolve)),
      inFlight: 0,
      retired: false,
    };
    worker.on('message', (message: FromRuntime) => {
      if (message.kind === 'ready') return markReady();
      if (message.kind === 'pong') return;
      this.receive(message);
    });
    worker.on('error', (error) => {
      this.options.say?.(`local runtime: a worker failed (${error.message}); replacing it`);
      this.fail(slot, new InvocationError('Runtime.ExitError', `the function's environment failed: ${error.message}`));
    });
    worker.on('exit', () => {
      markReady();
      this.fail(slot, new InvocationError('Runtime.ExitError', 'the function exited before answering'));
      if (!this.stopped && !slot.retired) this.replace(slot);
    });
    return slot;
  }

  private receive(message: Exclude<FromRuntime, { kind: 'ready' | 'pong' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return; // timed out, or cancelled: what it says now is dropped
    switch (message.kind) {
      case 'result': {
        const size = Buffer.byteLength(JSON.stringify(message.result));
        if (size > MAX_RESPONSE_BYTES && !pending.sink) {
          pending.settle(
            new InvocationError(
              'Function.ResponseSizeTooLarge',
              `Response payload size (${size} bytes) exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`,
            ),
          );
        } else pending.settle(undefined, message.result);
        return;
      }
      case 'error':
        pending.settle(new InvocationError(message.error.errorType, message.error.errorMessage));
        return;
      case 'head':
        pending.sink?.head(message.statusCode, message.headers);
        return;
      case 'chunk':
        pending.bytes += message.data.byteLength;
        if (pending.bytes > (this.options.maxStreamedBytes ?? MAX_STREAMED_BYTES)) {
          // as Lambda ends a stream past its limit: the client gets what was sent, then the end
          pending.worker.worker.postMessage({ kind: 'cancel', id: message.id } satisfies ToRuntime);
          pending.settle(
            new InvocationError(
              'Function.ResponseSizeTooLarge',
              `Response payload size exceeded maximum allowed payload size (${this.options.maxStreamedBytes ?? MAX_STREAMED_BYTES} bytes).`,
            ),
          );
          return;
        }
        pending.sink?.chunk(message.data);
        return;
      case 'end':
        pending.settle();
        return;
    }
  }

  /** Fails every invocation a worker holds. */
  private fail(slot: Slot, error: InvocationError): void {
    for (const pending of [...this.pending.values()]) if (pending.worker === slot) pending.settle(error);
  }

  private retire(slot: Slot): void {
    slot.retired = true;
    if (slot.inFlight === 0) void slot.worker.terminate();
  }

  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots[index] = this.spawn(slot.pool);
  }

  /** After a timeout: a worker that does not answer a ping within a second is stuck; it is replaced. */
  private checkAlive(slot: Slot): void {
    if (slot.retired) return;
    const id = nextId++;
    let answered = false;
    const listener = (message: FromRuntime) => {
      if (message.kind === 'pong' && message.id === id) answered = true;
    };
    slot.worker.on('message', listener);
    slot.worker.postMessage({ kind: 'ping', id } satisfies ToRuntime);
    setTimeout(() => {
      slot.worker.off('message', listener);
      if (answered || slot.retired || this.stopped) return;
      this.options.say?.('local runtime: a worker stuck past a timeout was replaced');
      slot.retired = true;
      this.fail(slot, new InvocationError('Sandbox.Timedout', 'the function was stopped at its timeout'));
      void slot.worker.terminate();
      this.replace(slot);
    }, 1000).unref();
  }
}
