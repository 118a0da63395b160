// Small helpers shared by the benchmarks: a local stack on free ports, timing and statistics.
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { freeStackPorts, type PrivateStack, type StackOptions, startPrivateStack } from '../scripts/local/stack';

export const root = resolve(import.meta.dirname, '..');

export interface BenchStack extends PrivateStack {
  signingSeed: string;
}

/** The same local stack as npm start, on free ports, in memory (on disk with `inMemory: false`, so DynamoDB can restart). */
export async function benchStack(
  options: { inMemory?: boolean; workers?: StackOptions['workers'] } = {},
): Promise<BenchStack> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const signingSeed = randomBytes(32).toString('base64url');
  const stack = await startPrivateStack('bench', {
    root,
    ports: await freeStackPorts(),
    internalKey: randomBytes(18).toString('base64url'),
    signingSeed,
    inMemory: options.inMemory ?? true,
    logDir: join(root, '.surco', 'bench-logs'),
    functionsLogLevel: 'warn',
    workers: options.workers,
    reports: true,
  });
  return { ...stack, signingSeed };
}

export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return [Number(process.hrtime.bigint() - start) / 1e6, value];
}

export function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    max: round(sorted[sorted.length - 1]!),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** The middle value (the upper one of an even count), as the cold-start and cold-call ratios take it. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** An API Gateway (REST) event of a request, as a function's handler receives it. */
export const gatewayEvent = (
  method: string,
  path: string,
  headers: Record<string, string>,
  query?: Record<string, string | number>,
) => ({
  httpMethod: method,
  path,
  resource: path,
  headers,
  queryStringParameters:
    query && Object.keys(query).length
      ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]))
      : null,
  pathParameters: null,
  body: null,
  isBase64Encoded: false,
  requestContext: { requestId: 'bench' },
});

export async function json(response: Response): Promise<any> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return JSON.parse(text);
}

/** POST to the internal API of a bench stack (x-internal-key); the parsed body. */
export const internalApi = (stack: { baseUrl: string; internalKey: string }) => (path: string, body: unknown) =>
  fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-key': stack.internalKey },
    body: JSON.stringify(body),
  }).then(json);

/** A square WKT polygon (the tests' own, tests/helpers/shapes.ts). */
export { square } from '../tests/helpers/shapes';

/** A user of a bench stack with a token holding every claim: the headers that call the API as them. */
export async function benchUser(
  stack: BenchStack,
  name = 'bench',
): Promise<{ userId: number; uid: string; headers: { authorization: string } }> {
  const internal = internalApi(stack);
  const user = (await internal('/internal/users', { user_name: name })).data;
  const token = (await internal('/internal/tokens', { user_id: user.id, extension_id: 'bench', claims: ['*'] })).data
    .access_token as string;
  return { userId: user.id, uid: user.uid, headers: { authorization: `Bearer ${token}` } };
}

/** A field created through POST /api/agregarlote (its farm created with it): its id. */
export async function createBenchField(
  stack: BenchStack,
  headers: Record<string, string>,
  name: string,
  shape: string,
): Promise<number> {
  const created = await fetch(`${stack.baseUrl}/api/agregarlote`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ nombre: name, shape, nombrecampo: `${name} farm` }),
  }).then(json);
  return Number(created.id_lote);
}

/** The environment a function runs with against a bench stack (as the stack gives its functions). */
export const functionEnv = (stack: BenchStack): Record<string, string> => ({
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_REGION: stack.region,
  SURCO_TABLE: stack.table,
  SURCO_BUCKET: stack.bucket,
  SURCO_EVENTS_QUEUE_URL: stack.queues.EventsQueue!,
  SURCO_DYNAMODB_ENDPOINT: stack.endpoints.dynamodb,
  SURCO_S3_ENDPOINT: stack.endpoints.s3,
  SURCO_SQS_ENDPOINT: stack.endpoints.sqs,
  SURCO_INTERNAL_KEY: stack.internalKey,
  SURCO_SIGNING_SEED: stack.signingSeed,
  SURCO_LOG_LEVEL: 'silent',
});

/**
 * Lambda's response streaming for handlers called in a benchmark's process (or a fresh one: the
 * source is evaluated as it is): a streamed handler is then called as a buffered one is,
 * `handler(event, context)`, and resolves to `{statusCode, headers, body}` once its stream ends.
 * Install it before the handler's module is imported (lib/http/endpoint.ts looks for it then).
 */
export const STREAMING_RUNTIME = `
globalThis.awslambda = {
  streamifyResponse: (handler) => async (event, context) => {
    const { Writable } = await import('node:stream');
    const chunks = [];
    const stream = new Writable({ write(chunk, _encoding, done) { chunks.push(Buffer.from(chunk)); done(); } });
    stream.setContentType = () => {};
    stream.head = { statusCode: 200, headers: {} };
    await handler(event, stream, context);
    if (!stream.writableFinished) await new Promise((resolve) => stream.once('finish', resolve));
    return { statusCode: stream.head.statusCode, headers: stream.head.headers, body: Buffer.concat(chunks).toString() };
  },
  HttpResponseStream: { from(stream, metadata) { stream.head = { statusCode: 200, headers: {}, ...metadata }; return stream; } },
};
`;

export const installStreamingRuntime = (): void => {
  new Function(STREAMING_RUNTIME)();
};
