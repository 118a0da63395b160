// npm run bench -- foundation
// Latency of GET /api/getfields and POST /api/agregarlote through the local API, and of the
// same getfields handler called in process, in one run (their ratio is what to compare). Bundle
// sizes and cold-start imports of every function: npm run bench -- cold-start.
import {
  benchStack,
  benchUser,
  functionEnv,
  gatewayEvent,
  installStreamingRuntime,
  json,
  round,
  square,
  stats,
  timed,
} from './lib';

async function latency() {
  // The requests alone: the queue workers are left out (their messages stay queued). In AWS they
  // run in Lambdas of their own; here they would share the two cores with the requests timed, and
  // each field created queues work for them (its imagery, a year of scenes to ingest, and a webhook
  // event): with them, creation's p50 measured 1.4x to 2x (docs/benchmarks.md, cold starts: warm path).
  const stack = await benchStack({ workers: () => false });
  try {
    const { headers } = await benchUser(stack);

    const create = (i: number) =>
      fetch(`${stack.baseUrl}/api/agregarlote`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          nombre: `f${i}`,
          shape: square(-60 + (i % 20) * 0.01, -34 + Math.floor(i / 20) * 0.01, 0.005),
          nombrecampo: `Farm ${i % 5}`,
        }),
      }).then(json);
    const [coldCreate] = await timed(() => create(0));
    const creates: number[] = [];
    for (let i = 1; i <= 100; i++) creates.push((await timed(() => create(i)))[0]);

    const list = () => fetch(`${stack.baseUrl}/api/getfields`, { headers }).then(json);
    const [coldList] = await timed(list);
    const lists: number[] = [];
    for (let i = 0; i < 100; i++) lists.push((await timed(list))[0]);

    // The same handler, in this process (no HTTP, no local gateway); it streams its answer.
    Object.assign(process.env, functionEnv(stack));
    installStreamingRuntime();
    const { get } = await import('../functions/fields/getfields');
    const event = gatewayEvent('GET', '/api/getfields', headers);
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
      'HTTP + local API overhead, p50 (ms)': round(listStats.p50 - directStats.p50),
    };
  } finally {
    await stack.dispose();
  }
}

export async function run() {
  const started = new Date().toISOString();
  // bundle sizes and import times of every function: npm run bench -- cold-start
  const results = { latency: await latency() };
  console.log(JSON.stringify({ suite: 'foundation', started, node: process.version, results }, null, 2));
}
