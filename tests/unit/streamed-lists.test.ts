// A route declared with `stream: true` whose handler returns a plain JSON body (the lists that grow
// with the account and that the contract does not page: docs/deploy.md, "Large answers") is written
// to a response stream by the handler factory (lib/http/endpoint.ts), so an answer past Lambda's
// 6 MB buffered limit reaches the client whole, gzip-compressed for a client that accepts it; the
// same body from a buffered route is the 502 API Gateway gives. The handlers (tests/fixtures/
// streamed-lists.ts) are built by the functions' own build and run by the local runtime behind the
// local gateway, as `npm start` runs them.
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonPieces } from '../../lib/util/json-pieces';
import { deployBuildOptions } from '../../scripts/esbuild-options';
import { createGateway } from '../../scripts/local/gateway';
import { LambdaRuntime, MAX_RESPONSE_BYTES } from '../../scripts/local/runtime';
import { FILE_BYTES, ROUTES } from '../fixtures/streamed-lists';
import { buildRuntimeWorker } from '../helpers/runtime-worker';

const root = join(import.meta.dirname, '..', '..');

let dir: string;
let runtime: LambdaRuntime;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'surco-streamed-lists-'));
  // the handlers as the functions' build makes them (the same options as deploy/esbuild.yml)
  await build({
    ...deployBuildOptions(),
    entryPoints: { lists: join(root, 'tests', 'fixtures', 'streamed-lists.ts') },
    outdir: dir,
    sourcemap: false,
  });
  const workerScript = await buildRuntimeWorker(dir);
  runtime = new LambdaRuntime({
    workerScript,
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

  it('answers a file past 6 MB whole, byte for byte, with its name (streamedFile: a spot sheet)', async () => {
    const answer = await fetchRaw('/bigFile', { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/octet-stream');
    expect(answer.headers['content-disposition']).toMatch(/filename="big\.bin"/);
    // not compressed again (an xlsx is a zip already)
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.bytes.length).toBe(FILE_BYTES);
    expect(answer.bytes.every((byte, i) => byte === i % 256)).toBe(true);
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

describe('a streamed JSON body is written in pieces (jsonPieces), never as one string', () => {
  it('writes exactly the text JSON.stringify writes, whatever the value holds', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const sparse: unknown[] = [1];
    sparse[3] = 'four';
    const noPrototype = Object.assign(Object.create(null) as object, { b: 1, a: [2] });
    const values: unknown[] = [
      {
        data: [
          { id: 1, name: 'ñandú "x"\n', tags: [] },
          { id: 2, nested: { deep: { deeper: { deepest: [1, { z: null }] } } } },
        ],
      },
      [undefined, () => 1, Symbol('s'), null, Number.NaN, -0, 1e21, true, 'é\u2028\ud800'],
      { skipped: undefined, fn: () => 1, sym: Symbol('s'), kept: 0, 10: 'ten', 2: 'two', date: new Date(0) },
      {
        custom: { toJSON: () => ({ replaced: true }) },
        map: new Map([[1, 2]]),
        point: new Point(1, 2),
        boxed: new String('s'),
      },
      { sparse, noPrototype, empty: {}, emptyList: [], text: 'x'.repeat(1000) },
      [[[[[[['seven levels']]]]]]],
      'a string alone',
      42,
      null,
    ];
    for (const value of values) expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value));
  });

  it('yields a list record by record', () => {
    const body = { data: Array.from({ length: 1000 }, (_, id) => ({ id, name: `record ${id}` })) };
    const pieces = [...jsonPieces(body)];
    expect(pieces.length).toBeGreaterThan(1000);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(100);
    expect(pieces.join('')).toBe(JSON.stringify(body));
  });
});
