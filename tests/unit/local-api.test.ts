// The local API Gateway and Lambda runtime (scripts/local/gateway.ts, runtime.ts) fail where AWS
// fails (docs/configuration.md, "Limits the local stack enforces"): a buffered result over 6 MB, a
// function's error, malformed result, timeout or lack of memory answer 502 with the deployed API's
// DEFAULT_5XX body; a function still running at the integration timeout answers 504; a declared
// path's undeclared method answers the MISSING_AUTHENTICATION_TOKEN gateway response. And it
// passes on what works: events as the REST API builds them, results decoded, streams as written.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generalDialect } from '../../lib/http/dialects';
import { defineRoute, type RouteDef } from '../../lib/http/route';
import { createGateway } from '../../scripts/local/gateway';
import { LambdaRuntime, type LocalFunction, MAX_RESPONSE_BYTES } from '../../scripts/local/runtime';
import { buildRuntimeWorker } from '../helpers/runtime-worker';

const root = join(import.meta.dirname, '..', '..');
const DEFAULT_5XX = { res: 'error', code: -1, info: 'The requested action failed to execute' };

// Handlers as built modules export them: each a Lambda handler of the proxy integration.
const HANDLERS = `
export const echo = async (event) => ({
  statusCode: 201,
  headers: { 'content-type': 'application/json', 'x-one': '1' },
  multiValueHeaders: { 'x-many': ['a', 'b'] },
  body: JSON.stringify({
    path: event.path, resource: event.resource, params: event.pathParameters, query: event.multiValueQueryStringParameters,
    body: event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString() : event.body, method: event.httpMethod,
  }),
});
export const binary = async () => ({ statusCode: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from([0, 1, 2, 255]).toString('base64'), isBase64Encoded: true });
export const big = async () => ({ statusCode: 200, body: 'x'.repeat(${MAX_RESPONSE_BYTES} + 1) });
export const justUnder = async () => ({ statusCode: 200, body: 'x'.repeat(${MAX_RESPONSE_BYTES} - 100) });
export const throws = async () => { throw new Error('secret detail'); };
export const malformed = async () => 'not a proxy response';
export const slow = async () => { await new Promise((r) => setTimeout(r, 3000)); return { statusCode: 200, body: 'late' }; };
export const spin = async () => { const end = Date.now() + 4000; while (Date.now() < end); return { statusCode: 200, body: 'late' }; };
export const hang = async () => { await new Promise((r) => setTimeout(r, 5000)); return { statusCode: 200, body: 'late' }; };
export const grind = async () => { const end = Date.now() + 1500; while (Date.now() < end); return 'ground'; };
export const hog = async () => { const kept = []; for (;;) kept.push(new Array(2e6).fill(0.5)); };
export const streamed = awslambda.streamifyResponse(async (event, stream) => {
  stream = awslambda.HttpResponseStream.from(stream, { statusCode: 200, headers: { 'content-type': 'text/plain' } });
  for (let i = 0; i < 3; i++) { stream.write('part' + i + ';'); await new Promise((r) => setTimeout(r, 20)); }
  stream.end();
});
// 16 chunks of 16 KiB: past the test runtime's stream cut (64 KiB), as 200 MB are past Lambda's
export const flood = awslambda.streamifyResponse(async (event, stream) => {
  stream = awslambda.HttpResponseStream.from(stream, { statusCode: 200, headers: { 'content-type': 'text/plain' } });
  for (let i = 0; i < 16; i++) { stream.write('x'.repeat(16 * 1024)); await new Promise((r) => setTimeout(r, 5)); }
  stream.end();
});
`;

const route = (operationId: string, path: string, method: RouteDef['method'] = 'get', stream = false) =>
  defineRoute({
    operationId,
    method,
    paths: [path],
    summary: operationId,
    tags: ['test'],
    auth: 'none',
    dialect: generalDialect,
    handler: `functions/test/handlers.${operationId}`,
    responses: {},
    stream,
  });

const ROUTES: RouteDef[] = [
  route('echo', '/echo/{id}'),
  route('echoPost', '/echo/{id}', 'post'),
  route('binary', '/binary'),
  route('big', '/big'),
  route('justUnder', '/just-under'),
  route('throws', '/throws'),
  route('malformed', '/malformed'),
  route('slow', '/slow'),
  route('spin', '/spin'),
  route('hang', '/hang'),
  route('hog', '/hog'),
  route('streamed', '/streamed', 'get', true),
  route('flood', '/flood', 'get', true),
  route('catchAll', '/{proxy+}', 'any'),
];
const TIMEOUTS: Record<string, number> = { slow: 1, spin: 1, hang: 60 };

let dir: string;
let runtime: LambdaRuntime;
const reports: Array<{ fn: string; requestId: string; durationMs: number; errorType?: string }> = [];
let server: Server;
let base: string;
/** The same functions behind a gateway whose integration timeout is 1 s (instead of 29). */
let impatient: Server;
let impatientBase: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'surco-local-api-'));
  writeFileSync(join(dir, 'handlers.mjs'), HANDLERS);
  const workerScript = await buildRuntimeWorker(dir);
  const functions: LocalFunction[] = ROUTES.map((r) => ({
    name: r.operationId,
    module: join(dir, 'handlers.mjs'),
    exportName: r.operationId === 'echoPost' || r.operationId === 'catchAll' ? 'echo' : r.operationId,
    timeoutSeconds: TIMEOUTS[r.operationId] ?? 10,
    memoryMb: 128,
    stream: r.stream,
  }));
  // a queue worker's job that holds its thread's CPU (an imagery scene, a kriging)
  functions.push({
    name: 'grind',
    module: join(dir, 'handlers.mjs'),
    exportName: 'grind',
    timeoutSeconds: 10,
    memoryMb: 128,
    pool: 'events',
  });
  runtime = new LambdaRuntime({
    workerScript,
    functions,
    env: {},
    workers: 2,
    maxStreamedBytes: 64 * 1024,
    report: (report) => reports.push(report),
  });
  await runtime.ready();
  const listen = async (gateway: Server) => {
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  };
  server = createGateway({ root, routes: ROUTES, runtime, stage: 'local' });
  base = await listen(server);
  impatient = createGateway({ root, routes: ROUTES, runtime, stage: 'local', integrationTimeoutMs: 1000 });
  impatientBase = await listen(impatient);
}, 60_000);

afterAll(async () => {
  for (const gateway of [server, impatient]) {
    gateway.closeAllConnections();
    gateway.close();
  }
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (path: string, init?: RequestInit, at = base) => {
  const response = await fetch(`${at}${path}`, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, json: () => JSON.parse(bytes.toString()) };
};

describe('the local API Gateway passes a request and its answer through as API Gateway does', () => {
  it('builds the proxy event: resource, path parameters, multi-value query, the body base64-encoded', async () => {
    const answer = await get('/echo/a%20b?x=1&x=2', { method: 'POST', body: 'héllo' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-one')).toBe('1');
    expect(answer.headers.get('x-many')).toBe('a, b');
    expect(answer.json()).toEqual({
      path: '/echo/a%20b',
      resource: '/echo/{id}',
      params: { id: 'a b' },
      query: { x: ['1', '2'] },
      body: 'héllo',
      method: 'POST',
    });
  });

  it('decodes a base64 result', async () => {
    const answer = await get('/binary');
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect([...answer.bytes]).toEqual([0, 1, 2, 255]);
  });

  it('writes a streamed answer as the function writes it', async () => {
    const answer = await get('/streamed');
    expect(answer.status).toBe(200);
    expect(answer.bytes.toString()).toBe('part0;part1;part2;');
  });

  it('cuts a streamed answer past the stream limit (200 MB in Lambda): the client gets what came before, then the end', async () => {
    const response = await fetch(`${base}/flood`);
    expect(response.status).toBe(200);
    let received = 0;
    const reader = response.body!.getReader();
    await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += value.byteLength;
      }
    })().catch(() => undefined); // the connection ends without a proper end of the body
    expect(received).toBeLessThanOrEqual(64 * 1024);
    expect(received).toBeGreaterThan(0);
    expect(reports.some((r) => r.fn === 'flood' && r.errorType === 'Function.ResponseSizeTooLarge')).toBe(true);
    // and serves on
    expect((await get('/streamed')).bytes.toString()).toBe('part0;part1;part2;');
  });

  it('answers a result just under 6 MB', async () => {
    const answer = await get('/just-under');
    expect(answer.status).toBe(200);
    expect(answer.bytes.length).toBe(MAX_RESPONSE_BYTES - 100);
  });

  it("gives an undeclared path to the catch-all, and a declared path's undeclared method the gateway's 404", async () => {
    expect((await get('/nowhere/at/all')).json().resource).toBe('/{proxy+}');
    const wrongMethod = await get('/binary', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.json()).toEqual({ res: 'error', code: -1, info: 'route not found' });
  });
});

describe('the local runtime keeps requests apart from queue jobs, as Lambda runs them in environments of their own', () => {
  it('answers a request at once while every events worker is held by a CPU-bound job', async () => {
    const jobs = [0, 1, 2, 3].map(() => runtime.invoke('grind', {}, crypto.randomUUID()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const answer = await get('/echo/during');
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(201);
    expect(elapsed).toBeLessThan(1000);
    expect(await Promise.all(jobs)).toEqual(['ground', 'ground', 'ground', 'ground']);
  });
});

describe('the local stack fails where AWS fails', () => {
  it('answers a buffered result over 6 MB with 502 and the DEFAULT_5XX body, as Lambda refuses it', async () => {
    const answer = await get('/big');
    expect(answer.status).toBe(502);
    expect(answer.json()).toEqual(DEFAULT_5XX);
  });

  it("answers a function's error and a malformed result with 502, never the error's text", async () => {
    for (const path of ['/throws', '/malformed']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(502);
      expect(answer.json(), path).toEqual(DEFAULT_5XX);
    }
  });

  it("reports each invocation's function, request id, duration and error, as Lambda's REPORT line", async () => {
    const from = reports.length;
    expect((await get('/binary')).status).toBe(200);
    expect((await get('/throws')).status).toBe(502);
    const [ok, failed] = reports.slice(from);
    const binary = ROUTES.find((r) => r.paths[0] === '/binary')!.operationId;
    const throws = ROUTES.find((r) => r.paths[0] === '/throws')!.operationId;
    expect(ok).toMatchObject({ fn: binary, requestId: expect.any(String), errorType: undefined });
    expect(failed).toMatchObject({ fn: throws, errorType: expect.any(String) });
    for (const report of [ok!, failed!]) expect(report.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("answers 502 at a function's own timeout, waiting or stuck on the CPU, and keeps serving", async () => {
    const started = performance.now();
    const [slow, spin] = await Promise.all([get('/slow'), get('/spin')]);
    expect([slow.status, spin.status]).toEqual([502, 502]);
    expect(slow.json()).toEqual(DEFAULT_5XX);
    expect(performance.now() - started).toBeLessThan(2900);
    // the worker stuck on the CPU was replaced: requests are served at once
    const after = performance.now();
    expect((await get('/binary')).status).toBe(200);
    expect((await get('/binary')).status).toBe(200);
    expect(performance.now() - after).toBeLessThan(2000);
  });

  it('answers 504 with the DEFAULT_5XX body when a function outlives the integration timeout', async () => {
    const answer = await get('/hang', undefined, impatientBase);
    expect(answer.status).toBe(504);
    expect(answer.json()).toEqual(DEFAULT_5XX);
  });

  it('answers 502 when a function runs out of memory, and replaces its worker', async () => {
    const answer = await get('/hog');
    expect(answer.status).toBe(502);
    expect(answer.json()).toEqual(DEFAULT_5XX);
    expect((await get('/binary')).status).toBe(200);
  }, 30_000);
});
