// npm run bench -- hot-items
// Writes that meet on one item: 200 field creates at once across 50 tenants (4 each, in new and
// existing farms) and 200 spot creates at once in one field. The handlers run in this process (as
// Lambda calls them) against the bench stack's DynamoDB Local; every DynamoDB attempt is seen below
// the SDK's own retries, so the bench counts what was sent again and why: SDK retries (throttling,
// transient errors), transactions cancelled by a conflict (lib/db/table.ts `transact`) and lost
// optimistic writes (lib/db/retry.ts). It also lists each item the requests wrote and how many
// of them wrote it: the hot items of each kind of request (docs/data-model.md, "Hot items").
// DynamoDB Local does not throttle: what it shows is contention, not provisioned throughput.
import { register } from 'node:module';
import { ddb } from '../lib/aws/dynamodb';
import {
  benchStack,
  benchUser,
  createBenchField,
  functionEnv,
  gatewayEvent,
  installStreamingRuntime,
  round,
  square,
  timed,
} from './lib';

interface Attempts {
  sent: number;
  errors: Record<string, number>;
  /** pk|sk -> writes of that item (puts, updates, deletes, in transactions or not). */
  items: Map<string, number>;
}

function watch(): Attempts {
  const attempts: Attempts = { sent: 0, errors: {}, items: new Map() };
  const wrote = (key: { pk?: unknown; sk?: unknown } | undefined) => {
    if (!key) return;
    const name = `${String(key.pk)} | ${String(key.sk)}`;
    attempts.items.set(name, (attempts.items.get(name) ?? 0) + 1);
  };
  // each request once (before the SDK's retries): the items it writes
  ddb().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, any>;
      if (input.TransactItems) {
        for (const item of input.TransactItems)
          wrote(item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? undefined);
      } else if (input.Item) wrote(input.Item);
      else if (input.Key && input.UpdateExpression) wrote(input.Key);
      return next(args);
    },
    { step: 'initialize', name: 'surcoItemsWritten' },
  );
  // each attempt (after the SDK's retry step): what was sent and what failed
  ddb().middlewareStack.add(
    (next) => async (args) => {
      attempts.sent += 1;
      try {
        return await next(args);
      } catch (error) {
        const e = error as { name: string; CancellationReasons?: Array<{ Code?: string }> };
        const reasons = (e.CancellationReasons ?? []).map((r) => r.Code).filter((c) => c && c !== 'None');
        const name = reasons.length ? `${e.name}(${[...new Set(reasons)].join(',')})` : e.name;
        attempts.errors[name] = (attempts.errors[name] ?? 0) + 1;
        throw error;
      }
    },
    // inside the SDK's retries, outside its deserializer: each attempt, with the error it threw
    { step: 'finalizeRequest', priority: 'low', name: 'surcoAttempts' },
  );
  return attempts;
}

const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 };
// the handlers' event type asks for members API Gateway sends and they do not read
type Handler = (event: any, context: object) => Promise<{ statusCode: number; body: string }>;

async function burst(
  attempts: Attempts,
  requests: Array<() => Promise<{ statusCode: number; body: string }>>,
): Promise<Record<string, unknown>> {
  const before = { sent: attempts.sent, errors: { ...attempts.errors } };
  attempts.items.clear();
  const [ms, answers] = await timed(() => Promise.all(requests.map((request) => request())));
  const statuses: Record<number, number> = {};
  for (const answer of answers) statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
  const refusals: Record<string, number> = {};
  for (const answer of answers.filter((a) => a.statusCode >= 400)) {
    const info = String(JSON.parse(answer.body).info ?? answer.body);
    refusals[info] = (refusals[info] ?? 0) + 1;
  }
  const errors = Object.fromEntries(
    Object.entries(attempts.errors)
      .map(([name, n]) => [name, n - (before.errors[name] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
  const hottest = [...attempts.items]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([item, writes]) => ({ item, writes }));
  return {
    requests: requests.length,
    statuses,
    refusals,
    wallMs: round(ms, 0),
    dynamoAttempts: attempts.sent - before.sent,
    failedAttempts: errors,
    itemsWritten: attempts.items.size,
    hottest,
  };
}

export async function run(): Promise<void> {
  // what is measured is DynamoDB, not fair use: the seeding's callers are unmetered, as in the tests
  process.env.SURCO_DEFAULT_TIER = 'unmetered';
  const stack = await benchStack({ workers: () => false });
  try {
    // a request that fails says why (the bench's own output is the JSON at the end)
    Object.assign(process.env, functionEnv(stack), { SURCO_LOG_LEVEL: 'error' });
    installStreamingRuntime();
    const attempts = watch();
    const tenants = await Promise.all(Array.from({ length: 50 }, (_, i) => benchUser(stack, `tenant-${i}`)));
    // the handlers' geometry imports a CommonJS package by name, which Node does not resolve outside a bundle
    register('./cjs-interop.mjs', import.meta.url);
    const agregarlote = (await import('../functions/fields/agregarlote')).post as unknown as Handler;
    const spotPost = (await import('../functions/spots/spot')).post as unknown as Handler;
    const form = (headers: Record<string, string>, fields: Record<string, string>) => ({
      ...gatewayEvent('POST', '/api/agregarlote', { ...headers, 'content-type': 'application/x-www-form-urlencoded' }),
      body: new URLSearchParams(fields).toString(),
    });
    // each tenant: 2 fields into its farm made before, 2 into a new farm (the two make it together)
    const farms = await Promise.all(
      tenants.map(async ({ headers }, t) => {
        await createBenchField(stack, headers, `seed ${t}`, square(-60 + t * 0.05, -34, 0.005));
        return `seed ${t} farm`;
      }),
    );
    const fields = await burst(
      attempts,
      tenants.flatMap(({ headers }, t) =>
        [0, 1, 2, 3].map(
          (k) => () =>
            agregarlote(
              form(headers, {
                nombre: `f${t}-${k}`,
                shape: square(-60 + t * 0.05 + (k + 1) * 0.006, -34, 0.005),
                nombrecampo: k < 2 ? farms[t]! : `New farm ${t}`,
              }),
              context,
            ),
        ),
      ),
    );
    const owner = tenants[0]!;
    const fieldId = await createBenchField(stack, owner.headers, 'spots', square(-59, -33, 0.02));
    const spots = await burst(
      attempts,
      Array.from(
        { length: 200 },
        (_, i) => () =>
          spotPost(
            {
              ...gatewayEvent('POST', '/spots/spot', { ...owner.headers, 'content-type': 'application/json' }),
              body: JSON.stringify({
                field_id: fieldId,
                shape: `POINT(${-59 + 0.001 + (i % 20) * 0.0009} ${-33 + 0.001 + Math.floor(i / 20) * 0.0009})`,
                name: `spot ${i}`,
              }),
            },
            context,
          ),
      ),
    );
    console.log(JSON.stringify({ suite: 'hot-items', fields, spots }, null, 2));
  } finally {
    await stack.dispose();
  }
}
