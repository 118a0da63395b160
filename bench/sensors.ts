// npm run bench -- sensors
// 1. 2,000,000 values for 100 variables through the bulk path (presigned S3 upload of gzipped JSON,
//    S3 notification, bulk worker), end to end: values per second, the worker's peak heap, items
//    and write units.
// 2. 100,000 values (100 variables x 1,000) through POST /sensors/v2/providers/values/variables.
// Items and write units are also counted from the table afterwards (1 unit per started KB).
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type BenchStack, benchStack, internalApi, json, round, timed } from './lib';

const CLAIMS = ['*'];
const SPACING_S = 60;

async function setup(stack: BenchStack, variables: number) {
  const internal = internalApi(stack);
  const user = (await internal('/internal/users', { user_name: 'bench' })).data;
  const token = (
    await internal('/internal/tokens', { user_id: user.id, extension_id: 'bench-station', claims: CLAIMS })
  ).data.access_token as string;
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${stack.baseUrl}/sensors/v2/providers${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const uuids: string[] = [];
  while (uuids.length < variables) {
    const count = Math.min(40, variables - uuids.length);
    const group = await json(
      await api('POST', '/variablegroups', {
        group_name: `g${uuids.length}`,
        variables: Array.from({ length: count }, (_, i) => ({ variable_name: `v${uuids.length + i}` })),
      }),
    );
    uuids.push(...group.data.variables.map((v: { variable_uuid: string }) => v.variable_uuid));
  }
  return { api, uuids };
}

/** The JSON body, built as text (2,000,000 values are ~90 MB of JSON). */
function body(uuids: string[], perVariable: number, startMs: number): string {
  const timestamps = Array.from({ length: perVariable }, (_, i) =>
    JSON.stringify(`${new Date(startMs + i * SPACING_S * 1000).toISOString().slice(0, 19)}Z`),
  ).join(',');
  const parts = uuids.map((uuid, k) => {
    const values = Array.from({ length: perVariable }, (_, i) =>
      (20 + 5 * Math.sin((i + k) / 50) + Math.random()).toFixed(4),
    ).join(',');
    return `{"variable_uuid":"${uuid}","values":[${values}],"timestamps":[${timestamps}]}`;
  });
  return `{"data":[${parts.join(',')}]}`;
}

/** Items and write units of the values stored in the table (a fresh stack holds only this run's). */
async function tableUsage(stack: BenchStack) {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: stack.region,
      endpoint: stack.endpoints.dynamodb,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    }),
  );
  let items = 0;
  let units = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new ScanCommand({
        TableName: stack.table,
        FilterExpression: 'begins_with(pk, :values)',
        ExpressionAttributeValues: { ':values': 'SENSORVALUES#' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) {
      items++;
      let size = 0;
      for (const [name, value] of Object.entries(item))
        size +=
          name.length +
          (value instanceof Uint8Array
            ? value.length
            : typeof value === 'number'
              ? 8
              : Buffer.byteLength(String(value)));
      units += Math.ceil(size / 1024);
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  db.destroy();
  return { items, write_units_for_these_items: units };
}

async function bulkRun(stack: BenchStack) {
  const { api, uuids } = await setup(stack, 100);
  const text = body(uuids, 20_000, Date.UTC(2026, 0, 1));
  const gz = gzipSync(text);
  const [ms, job] = await timed(async () => {
    const started = await json(
      await api('POST', '/values/bulk', { size_bytes: gz.length, md5: createHash('md5').update(gz).digest('base64') }),
    );
    const form = new FormData();
    for (const [k, v] of Object.entries(started.data.upload.fields as Record<string, string>)) form.set(k, v);
    form.set('file', new Blob([gz]), 'values.json.gz');
    const upload = await fetch(started.data.upload.url, { method: 'POST', body: form });
    if (upload.status >= 300) throw new Error(`upload ${upload.status}`);
    for (;;) {
      const status = await json(await api('GET', `/values/bulk/${started.data.job_uuid}`));
      if (status.data.status === 'done' || status.data.status === 'failed') return status.data;
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  if (job.status !== 'done') throw new Error(`bulk job failed: ${JSON.stringify(job.error)}`);
  const usage = await tableUsage(stack);
  return {
    values: job.values_inserted,
    json_mb: round(text.length / 1024 / 1024),
    gzip_mb: round(gz.length / 1024 / 1024),
    end_to_end_s: round(ms / 1000, 2),
    values_per_s: Math.round(job.values_inserted / (ms / 1000)),
    worker_s: round((Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000, 1),
    worker_peak_heap_mb: job.peak_heap_mb,
    items_written: job.items_written,
    write_units: job.write_units,
    write_units_per_100_values: round((job.write_units / job.values_inserted) * 100, 3),
    counted_in_table: usage,
  };
}

/** 100,000 values over `variables` variables, in one POST /providers/values/variables. */
async function syncRun(stack: BenchStack, variables: number) {
  const { api, uuids } = await setup(stack, variables);
  const text = body(uuids, 100_000 / variables, Date.UTC(2026, 5, 1));
  const [ms, response] = await timed(async () => api('POST', '/values/variables', JSON.parse(text)));
  if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
  return {
    values: 100_000,
    variables,
    json_mb: round(text.length / 1024 / 1024, 2),
    request_s: round(ms / 1000, 2),
    values_per_s: Math.round(100_000 / (ms / 1000)),
  };
}

export async function run() {
  const stack = await benchStack();
  try {
    const started = new Date().toISOString();
    // one variable first (its items then count the units of 100,000 values), then 100 variables
    const syncOne = await syncRun(stack, 1);
    const syncUsage = await tableUsage(stack);
    const sync = await syncRun(stack, 100);
    const bulk = await bulkRun(stack);
    console.log(
      JSON.stringify(
        {
          suite: 'sensors',
          started,
          node: process.version,
          results: {
            bulk_2M_values_100_variables: bulk,
            sync_100k_values_1_variable: {
              ...syncOne,
              items_written: syncUsage.items,
              write_units_per_100_values: round((syncUsage.write_units_for_these_items / 100_000) * 100, 3),
            },
            sync_100k_values_100_variables: sync,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await stack.dispose();
  }
}
