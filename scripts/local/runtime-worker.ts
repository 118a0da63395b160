// One worker thread of the local Lambda runtime (scripts/local/runtime.ts): what Lambda's Node.js
// runtime is to a function. It imports the built handler modules it is asked to run (each once),
// provides the `awslambda` global of response streaming, and runs invocations: a buffered one
// answers its result, a streamed one posts its metadata and chunks as the handler writes them.
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import type { Context } from 'aws-lambda';
import type { FromRuntime, ToRuntime } from './runtime';

if (!parentPort) throw new Error('runtime-worker runs in a worker thread');

// SURCO_API_CPU_PROF=<dir> (scripts/local/stack.ts): this thread's CPU profile too, written every
// 20 s as a file of its own (a worker is ended without a last word, so the profile is not kept for
// its exit); sum them to see where the functions' time goes.
if (process.env.SURCO_API_CPU_PROF) void profileThread(process.env.SURCO_API_CPU_PROF);

async function profileThread(dir: string): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const { threadId } = await import('node:worker_threads');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  let part = 0;
  const timer = setInterval(async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${dir}/worker-${process.pid}-${threadId}-${++part}.cpuprofile`, JSON.stringify(profile));
    await session.post('Profiler.start');
  }, 20_000);
  timer.unref();
}
const port = parentPort;
const post = (message: FromRuntime, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer ?? []);

type Handler = (...args: unknown[]) => Promise<unknown>;

/** The stream a streaming handler writes to: its metadata first, then its chunks, to the runtime. */
class ResponseStream extends Writable {
  private contentType = 'application/octet-stream';
  private started = false;

  constructor(private readonly id: number) {
    super();
  }

  setContentType(type: string): void {
    this.contentType = type;
  }

  start(metadata: { statusCode?: number; headers?: Record<string, string> } = {}): void {
    if (this.started) return;
    this.started = true;
    post({
      kind: 'head',
      id: this.id,
      statusCode: metadata.statusCode ?? 200,
      headers: { 'content-type': this.contentType, ...metadata.headers },
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.start();
    const copy = new Uint8Array(chunk.byteLength);
    copy.set(chunk);
    post({ kind: 'chunk', id: this.id, data: copy }, [copy.buffer]);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.start();
    callback();
  }
}

(globalThis as Record<string, unknown>).awslambda = {
  streamifyResponse: (handler: Handler) => handler,
  HttpResponseStream: {
    from(stream: ResponseStream, metadata: { statusCode?: number; headers?: Record<string, string> }) {
      stream.start(metadata);
      return stream;
    },
  },
};

const modules = new Map<string, Promise<Record<string, unknown>>>();
const streams = new Map<number, ResponseStream>();

async function handlerOf(module: string, name: string): Promise<Handler> {
  let loading = modules.get(module);
  if (!loading) {
    loading = import(pathToFileURL(module).href) as Promise<Record<string, unknown>>;
    modules.set(module, loading);
  }
  const handler = (await loading)[name];
  if (typeof handler !== 'function') throw new Error(`${module} has no export ${name}`);
  return handler as Handler;
}

function context(fn: string, requestId: string, deadline: number, memoryMb: number): Context {
  return {
    awsRequestId: requestId,
    functionName: fn,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${fn}`,
    memoryLimitInMB: String(memoryMb),
    logGroupName: `/aws/lambda/${fn}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const errorOf = (error: unknown) => ({
  errorType: (error as Error | undefined)?.name ?? 'Error',
  errorMessage: (error as Error | undefined)?.message ?? String(error),
  stack: (error as Error | undefined)?.stack,
});

port.on('message', (message: ToRuntime) => {
  if (message.kind === 'ping') return post({ kind: 'pong', id: message.id });
  if (message.kind === 'cancel') {
    streams.get(message.id)?.destroy();
    return;
  }
  const { id, fn, module, exportName, event, deadline, memoryMb, stream, requestId } = message;
  const ctx = context(fn, requestId, deadline, memoryMb);
  void (async () => {
    try {
      const handler = await handlerOf(module, exportName);
      if (stream) {
        const out = new ResponseStream(id);
        streams.set(id, out);
        try {
          await handler(event, out, ctx);
          if (!out.writableEnded && !out.destroyed) out.end();
          post({ kind: 'end', id });
        } finally {
          streams.delete(id);
        }
        return;
      }
      const result = await handler(event, ctx);
      post({ kind: 'result', id, result: result === undefined ? null : result });
    } catch (error) {
      post({ kind: 'error', id, error: errorOf(error) });
    }
  })();
});

post({ kind: 'ready' });
