// A route declared with `stream: true` whose handler returns a plain JSON body (the lists that grow
// with the account and that the contract does not page: docs/deploy.md, "Large answers") is written
// to a response stream by the handler factory (lib/http/endpoint.ts), so an answer past Lambda's
// 6 MB buffered limit reaches the client whole, gzip-compressed for a client that accepts it; the
// same body from a buffered route is the 502 API Gateway gives. The handlers are built by the
// functions' own build and run by the local runtime behind the local gateway, as `npm start` runs them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generalDialect } from '../../lib/http/dialects';
import { defineRoute, type RouteDef } from '../../lib/http/route';
import { deployBuildOptions } from '../../scripts/esbuild-options';
import { createGateway } from '../../scripts/local/gateway';
import { LambdaRuntime, MAX_RESPONSE_BYTES } from '../../scripts/local/runtime';

const root = join(import.meta.dirname, '..', '..');

const route = (operationId: string, stream: boolean) =>
  defineRoute({
    operationId,
    method: 'get',
    paths: [`/${operationId}`],
    summary: operationId,
    tags: ['test'],
    auth: 'none',
    dialect: generalDialect,
    handler: `functions/test/lists.${operationId}`,
    responses: {},
    stream,
  });
const ROUTES: RouteDef[] = [route('streamedList', true), route('bufferedList', false)];

// 7,000 records of about 1 KB: past the 6 MB a buffered answer may hold
const HANDLERS = (endpoint: string, routeModule: string, dialects: string) => `
import { endpoint } from ${JSON.stringify(endpoint)};
import { defineRoute } from ${JSON.stringify(routeModule)};
import { generalDialect } from ${JSON.stringify(dialects)};
const list = () => ({ data: Array.from({ length: 7000 }, (_, i) => ({ id: i, name: 'ñandú ' + String(i).padStart(5, '0') + ' ' + 'x'.repeat(1000) })) });
const route = (operationId, stream) => defineRoute({ operationId, method: 'get', paths: ['/' + operationId], summary: operationId,
  tags: ['test'], auth: 'none', dialect: generalDialect, handler: 'functions/test/lists.' + operationId, responses: {}, stream });
export const streamedList = endpoint(route('streamedList', true), { handler: async () => list() });
export const bufferedList = endpoint(route('bufferedList', false), { handler: async () => list() });
`;

let dir: string;
let runtime: LambdaRuntime;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'surco-streamed-lists-'));
  writeFileSync(
    join(dir, 'lists.ts'),
    HANDLERS(join(root, 'lib/http/endpoint.ts'), join(root, 'lib/http/route.ts'), join(root, 'lib/http/dialects.ts')),
  );
  await build({ ...deployBuildOptions(), entryPoints: [join(dir, 'lists.ts')], outdir: dir, sourcemap: false });
  await build({
    entryPoints: [join(root, 'scripts', 'local', 'runtime-worker.ts')],
    outfile: join(dir, 'runtime-worker.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  runtime = new LambdaRuntime({
    workerScript: join(dir, 'runtime-worker.mjs'),
    functions: ROUTES.map((r) => ({
      name: r.operationId,
      module: join(dir, 'lists.mjs'),
      exportName: r.operationId,
      timeoutSeconds: 20,
      memoryMb: 512,
      stream: r.stream,
    })),
    env: { SURCO_LOG_LEVEL: 'silent' },
    workers: 1,
  });
  await runtime.ready();
  server = createGateway({ root, routes: ROUTES, runtime, stage: 'local' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await runtime?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The answer as it travelled (node's client leaves a compressed body compressed). */
const fetchRaw = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });

describe('a list that grows with the account, past 6 MB', () => {
  it('answers 200 with the whole list from a streamed route', async () => {
    const answer = await fetchRaw('/streamedList');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.bytes.length).toBeGreaterThan(MAX_RESPONSE_BYTES);
    const body = JSON.parse(answer.bytes.toString('utf8'));
    expect(body.data).toHaveLength(7000);
    expect(body.data[6999]).toMatchObject({ id: 6999, name: expect.stringMatching(/^ñandú 06999 x+$/) });
  });

  it('compresses it for a client that accepts gzip', async () => {
    const answer = await fetchRaw('/streamedList', { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.bytes.length).toBeLessThan(MAX_RESPONSE_BYTES / 10);
    expect(JSON.parse(gunzipSync(answer.bytes).toString('utf8')).data).toHaveLength(7000);
  });

  it('is the 502 of Lambda’s buffered limit from a buffered route, as API Gateway answers it', async () => {
    const answer = await fetchRaw('/bufferedList');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.bytes.toString())).toEqual({
      res: 'error',
      code: -1,
      info: 'The requested action failed to execute',
    });
  });
});
