// npm run bench -- big-account [--fields 2000] [--vertices 1000] [--runs 3]: GET /api/getfields of an
// account whose whole structure is tens of MB (docs/deploy.md, "Large answers"). The fields are made
// through the stack's API (POST /api/agregarlote, 20 farms, boundaries of `vertices` points, the
// queue workers off); then:
// - through the local gateway and runtime, as a client meets it: status, bytes, time to the first
//   byte and to the last, plain and with Accept-Encoding: gzip;
// - the function alone in a fresh process (its handler from functions/, Lambda's response streaming
//   counted, not kept) with V8's old space capped at --heap-limit MB (64): first byte, total time,
//   its heap while it answers (sampled every 5 ms, above what the process held before the call;
//   garbage not yet collected included) and the process's peak RSS.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { walkedRing } from '../tests/helpers/shapes';
import { type BenchStack, benchStack, benchUser, functionEnv, gatewayEvent, median, root, round } from './lib';

const { values: options } = parseArgs({
  options: {
    fields: { type: 'string', default: '2000' },
    vertices: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    // the function's process with V8's old space capped (MB): it answers within it, or fails
    'heap-limit': { type: 'string', default: '64' },
  },
  strict: false,
});
const FIELDS = Number(options.fields);
const VERTICES = Number(options.vertices);
const RUNS = Number(options.runs);
const HEAP_LIMIT_MB = Number(options['heap-limit']);

async function seed(stack: BenchStack, headers: Record<string, string>): Promise<void> {
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    for (let i = next++; i < FIELDS; i = next++) {
      const response = await fetch(`${stack.baseUrl}/api/agregarlote`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          nombre: `walked ${i}`,
          shape: walkedRing(-62 + (i % 50) * 0.02, -35 + Math.floor(i / 50) * 0.02, 0.006, VERTICES),
          nombrecampo: `Estancia ${i % 20}`,
        }),
      });
      if (!response.ok) throw new Error(`field ${i}: ${response.status} ${await response.text()}`);
      if ((i + 1) % 250 === 0) console.error(`  ${i + 1} fields in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** One GET through the local gateway: status, bytes as sent, first byte and total, in ms. */
const throughGateway = (stack: BenchStack, headers: Record<string, string>, gzip: boolean) =>
  new Promise<{ status: number; bytes: number; firstByteMs: number; totalMs: number }>((resolve, reject) => {
    const started = performance.now();
    const url = new URL('/api/getfields', stack.baseUrl);
    const req = request(url, { headers: { ...headers, ...(gzip ? { 'accept-encoding': 'gzip' } : {}) } }, (res) => {
      let bytes = 0;
      let firstByteMs = 0;
      res.on('data', (chunk: Buffer) => {
        if (!bytes) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes, firstByteMs, totalMs: performance.now() - started }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

// The function in a process of its own: Lambda's response streaming with a stream that counts what
// it is given and keeps nothing, the heap sampled while the handler writes.
const ALONE = `
const started = { at: 0 };
let bytes = 0, firstByteMs = 0, peak = 0;
globalThis.awslambda = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: { from(stream) { return stream; } },
};
const { Writable } = await import('node:stream');
const event = JSON.parse(process.env.BENCH_EVENT);
const handler = (await import(process.env.BENCH_MODULE)).get;
globalThis.gc?.();
const base = process.memoryUsage().heapUsed;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().heapUsed - base); }, 5);
const stream = new Writable({
  write(chunk, _encoding, done) {
    if (!bytes) firstByteMs = performance.now() - started.at;
    bytes += chunk.length;
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    done();
  },
});
stream.setContentType = () => {};
started.at = performance.now();
await handler(event, stream, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 });
if (!stream.writableFinished) await new Promise((resolve) => stream.once('finish', resolve));
const totalMs = performance.now() - started.at;
clearInterval(sampler);
process.stdout.write(JSON.stringify({ bytes, firstByteMs, totalMs, heapPeakMb: peak / 2 ** 20, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
`;

const alone = (stack: BenchStack, headers: Record<string, string>) =>
  new Promise<{ bytes: number; firstByteMs: number; totalMs: number; heapPeakMb: number; maxRssMb: number }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', '--input-type=module', '-e', ALONE], {
        cwd: root,
        env: {
          ...process.env,
          ...functionEnv(stack),
          BENCH_MODULE: join(root, 'functions', 'fields', 'getfields.ts'),
          BENCH_EVENT: JSON.stringify(gatewayEvent('GET', '/api/getfields', headers)),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}: ${out}`))));
    },
  );

export async function run(): Promise<void> {
  // what is measured is the answer, not fair use: the seeding's callers are unmetered, as in the tests
  process.env.SURCO_DEFAULT_TIER = 'unmetered';
  const stack = await benchStack({ workers: () => false });
  try {
    const { headers } = await benchUser(stack, 'big-account');
    const seeding = Date.now();
    await seed(stack, headers);
    const seedS = (Date.now() - seeding) / 1000;
    const plain = [];
    const gzip = [];
    const fn = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push(await throughGateway(stack, headers, false));
      gzip.push(await throughGateway(stack, headers, true));
      fn.push(await alone(stack, headers));
    }
    const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
    const summary = {
      account: `${FIELDS} fields of ${VERTICES} vertices in 20 farms (made in ${round(seedS, 0)} s)`,
      gateway: {
        status: [...new Set([...plain, ...gzip].map((r) => r.status))],
        mb: mb(plain[0]!.bytes),
        gzipMb: mb(gzip[0]!.bytes),
        firstByteMs: round(median(plain.map((r) => r.firstByteMs)), 0),
        totalMs: round(median(plain.map((r) => r.totalMs)), 0),
        gzipFirstByteMs: round(median(gzip.map((r) => r.firstByteMs)), 0),
        gzipTotalMs: round(median(gzip.map((r) => r.totalMs)), 0),
      },
      function: {
        heapLimitMb: HEAP_LIMIT_MB,
        mb: mb(fn[0]!.bytes),
        firstByteMs: round(median(fn.map((r) => r.firstByteMs)), 0),
        totalMs: round(median(fn.map((r) => r.totalMs)), 0),
        heapPeakMb: round(Math.max(...fn.map((r) => r.heapPeakMb)), 1),
        maxRssMb: round(Math.max(...fn.map((r) => r.maxRssMb)), 0),
      },
      runs: RUNS,
    };
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await stack.stop();
  }
}
