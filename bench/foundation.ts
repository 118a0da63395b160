// npm run bench -- foundation
// 1. Latency of GET /api/getfields and POST /api/agregarlote through serverless-offline, and of
//    the same getfields handler called in process, in one run (their ratio is what to compare).
// 2. Minified bundle size of every function and the time a fresh Node process takes to load it
//    (the module-init part of a Lambda cold start).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { benchStack, internalApi, json, root, round, stats, timed } from './lib';

const square = (lon: number, lat: number, size = 0.005) =>
  `POLYGON((${lon} ${lat},${lon + size} ${lat},${lon + size} ${lat + size},${lon} ${lat + size},${lon} ${lat}))`;

async function latency() {
  const stack = await benchStack();
  try {
    const internal = internalApi(stack);
    const user = (await internal('/internal/users', { user_name: 'bench' })).data;
    const token = (await internal('/internal/tokens', { user_id: user.id, extension_id: 'bench', claims: ['*'] })).data.access_token;
    const headers = { authorization: `Bearer ${token}` };

    const create = (i: number) =>
      fetch(`${stack.baseUrl}/api/agregarlote`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ nombre: `f${i}`, shape: square(-60 + (i % 20) * 0.01, -34 + Math.floor(i / 20) * 0.01), nombrecampo: `Farm ${i % 5}` }),
      }).then(json);
    const [coldCreate] = await timed(() => create(0));
    const creates: number[] = [];
    for (let i = 1; i <= 100; i++) creates.push((await timed(() => create(i)))[0]);

    const list = () => fetch(`${stack.baseUrl}/api/getfields`, { headers }).then(json);
    const [coldList] = await timed(list);
    const lists: number[] = [];
    for (let i = 0; i < 100; i++) lists.push((await timed(list))[0]);

    // The same handler, in this process (no HTTP, no serverless-offline).
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: stack.region,
      SURCO_TABLE: stack.table,
      SURCO_BUCKET: stack.bucket,
      SURCO_EVENTS_QUEUE_URL: Object.values(stack.queues)[0],
      SURCO_DYNAMODB_ENDPOINT: stack.endpoints.dynamodb,
      SURCO_S3_ENDPOINT: stack.endpoints.s3,
      SURCO_SQS_ENDPOINT: stack.endpoints.sqs,
      SURCO_INTERNAL_KEY: stack.internalKey,
      SURCO_SIGNING_SEED: stack.signingSeed,
      SURCO_LOG_LEVEL: 'silent',
    });
    const { get } = await import('../functions/fields/getfields');
    const event = { httpMethod: 'GET', path: '/api/getfields', headers, queryStringParameters: null, pathParameters: null, body: null, isBase64Encoded: false, requestContext: { requestId: 'bench' } };
    const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10_000 };
    await get(event as never, context as never);
    const direct: number[] = [];
    for (let i = 0; i < 100; i++) direct.push((await timed(() => get(event as never, context as never)))[0]);

    const listStats = stats(lists);
    const directStats = stats(direct);
    return {
      'POST /api/agregarlote (first call, ms)': round(coldCreate),
      'POST /api/agregarlote (ms)': stats(creates),
      'GET /api/getfields, 101 fields in 5 farms (first call, ms)': round(coldList),
      'GET /api/getfields, 101 fields in 5 farms (ms)': listStats,
      'same handler in process (ms)': directStats,
      'HTTP + serverless-offline overhead, p50 (ms)': round(listStats.p50 - directStats.p50),
    };
  } finally {
    await stack.dispose();
  }
}

async function bundles() {
  const config = parse(readFileSync(join(root, 'serverless.yml'), 'utf8').replace(/!\w+/g, ''), { uniqueKeys: false, maxAliasCount: -1 }) as {
    functions: Record<string, { handler: string }>;
  };
  const out = mkdtempSync(join(tmpdir(), 'surco-bundles-'));
  const rows: Record<string, { kb: number; init_ms: number }> = {};
  try {
    for (const [name, fn] of Object.entries(config.functions)) {
      const file = fn.handler.slice(0, fn.handler.lastIndexOf('.'));
      const outfile = join(out, `${name}.mjs`);
      await build({
        entryPoints: [join(root, `${file}.ts`)],
        outfile,
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        logLevel: 'error',
        banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
      });
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) {
        const ms = execFileSync(
          process.execPath,
          ['--input-type=module', '-e', `const t=process.hrtime.bigint(); await import(${JSON.stringify(outfile)}); console.log(Number(process.hrtime.bigint()-t)/1e6)`],
          { env: { ...process.env, SURCO_LOG_LEVEL: 'silent' }, encoding: 'utf8' },
        );
        samples.push(Number(ms.trim()));
      }
      rows[name] = { kb: round(statSync(outfile).size / 1024, 0), init_ms: stats(samples).p50 };
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return rows;
}

export async function run() {
  const started = new Date().toISOString();
  const results = { latency: await latency(), bundles: await bundles() };
  console.log(JSON.stringify({ suite: 'foundation', started, node: process.version, results }, null, 2));
}
