// npm run bench -- reads [--sizes 10,100,1000] [--only spots,storage,inbox] [--calls]
// What the main reads cost in DynamoDB as an account grows: for each read, the read units it
// consumed (every DynamoDB call made with ReturnConsumedCapacity while the bench runs, summed, each
// at least what AWS charges for it: leastUnits), the records and bytes it answered, and its
// latency, at each account size. A read that costs in proportion to what it returns keeps its read
// units per returned record flat as the account grows (no reads of records it does not return, no
// lookup per record); its ratio to the minimum (the answer's bytes read once, eventually
// consistent: 0.5 read unit per 4 KB) says how much more than its bytes it reads. The reads run in
// this process (the handlers as Lambda calls them) against the bench stack's DynamoDB Local; the
// records are made through the stack's API.
import { parseArgs } from 'node:util';
import { ddb } from '../lib/aws/dynamodb';
import {
  type BenchStack,
  benchStack,
  benchUser,
  functionEnv,
  gatewayEvent,
  installStreamingRuntime,
  json,
  round,
  square,
  timed,
} from './lib';

interface Consumed {
  units: number;
  calls: number;
}
const consumed: Consumed = { units: 0, calls: 0 };
/** --calls: each DynamoDB call of the last request measured, with what it read and its units (where they go). */
let callLog: string[] | undefined;

/** What a call read, for --calls: its command, its key's or key condition's partition and its consistency. */
function describeCall(command: string, input: Record<string, any>, units: number): string {
  const partition = (key: Record<string, unknown> | undefined) =>
    key?.pk === undefined ? String(Object.values(key ?? {})[0] ?? '') : `${key.pk} ${key.sk ?? ''}`.trim();
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const target = input.Key
    ? partition(input.Key)
    : input.KeyConditionExpression
      ? `${input.IndexName ?? 'table'} ${Object.values(values)[0] ?? ''}`
      : input.RequestItems
        ? Object.values(input.RequestItems as Record<string, { Keys?: Record<string, unknown>[] }>)
            .flatMap((table) => table.Keys ?? [])
            .map(partition)
            .join(', ')
        : '';
  const strong =
    input.ConsistentRead ??
    Object.values((input.RequestItems ?? {}) as Record<string, { ConsistentRead?: boolean }>)[0]?.ConsistentRead;
  return `${units.toFixed(1).padStart(5)}  ${command.replace(/Command$/, '')} ${strong ? 'strong' : 'eventual'} ${target}`;
}

/**
 * The least a read call costs in AWS: a GetItem, Query or Scan at least 0.5 read unit (1 strongly
 * consistent), an item of a BatchGetItem the same, found or not. DynamoDB Local reports 0 for a call
 * that finds nothing, so its figure alone would hide a lookup per record that finds nothing.
 */
function leastUnits(input: Record<string, any>): number {
  const floor = (consistent: unknown) => (consistent ? 1 : 0.5);
  if (input.RequestItems && !Array.isArray(Object.values(input.RequestItems)[0])) {
    return Object.values(input.RequestItems as Record<string, { Keys: unknown[]; ConsistentRead?: boolean }>).reduce(
      (sum, table) => sum + table.Keys.length * floor(table.ConsistentRead),
      0,
    );
  }
  // a GetItem (a key, no update or item), a Query or a Scan; the reads measured delete nothing
  const read =
    (input.Key && !input.UpdateExpression && !input.Item) ||
    input.KeyConditionExpression ||
    input.ScanFilter !== undefined ||
    input.Segment !== undefined;
  return read ? floor(input.ConsistentRead) : 0;
}

/** Every DynamoDB call of this process asks for its consumed capacity, which is added up (at least what AWS charges). */
function countReadUnits(): void {
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, any>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: unknown };
      const list = Array.isArray(output.ConsumedCapacity) ? output.ConsumedCapacity : [output.ConsumedCapacity];
      let reported = 0;
      for (const c of list as Array<{ CapacityUnits?: number; ReadCapacityUnits?: number } | undefined>) {
        reported += c?.ReadCapacityUnits ?? c?.CapacityUnits ?? 0;
      }
      const units = Math.max(reported, leastUnits(input));
      consumed.units += units;
      consumed.calls += 1;
      callLog?.push(describeCall(String(context.commandName), input, units));
      return result;
    },
    { step: 'initialize', name: 'surcoReadUnits' },
  );
}

interface Read {
  name: string;
  /** Makes the account `size` records big (it is called with growing sizes). */
  grow(size: number): Promise<void>;
  /** The read: the handler's module and export, path and query. */
  call(): {
    load: () => Promise<any>;
    path: string;
    query?: Record<string, string | number>;
    /** POST reads (a spot page, a storage listing): the method, body and path parameters. */
    method?: string;
    body?: unknown;
    pathParameters?: Record<string, string>;
  };
  /** The records the answer holds. */
  records(body: any): number;
}

const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 };

async function measure(read: Read, headers: Record<string, string>, runs: number, size: number) {
  const { load, path, query, method = 'GET', body, pathParameters } = read.call();
  const handler = await load();
  const event = {
    ...gatewayEvent(
      method,
      path,
      body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      query,
    ),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(pathParameters ? { pathParameters } : {}),
  };
  await handler(event, context); // warm
  const times: number[] = [];
  let units = 0;
  let calls = 0;
  let bytes = 0;
  let records = 0;
  for (let i = 0; i < runs; i++) {
    const before = { ...consumed };
    if (callLog) callLog = [];
    const [ms, answer] = await timed<{ body: string }>(() => handler(event, context));
    times.push(ms);
    units += consumed.units - before.units;
    calls += consumed.calls - before.calls;
    bytes = Buffer.byteLength(answer.body);
    records = read.records(JSON.parse(answer.body));
  }
  if (callLog) console.error(`${read.name} (${size}), its last request's calls:\n${callLog.join('\n')}`);
  const perRun = units / runs;
  const minimum = Math.max(0.5, Math.ceil(bytes / 4096) * 0.5);
  return {
    records,
    bytes,
    readUnits: round(perRun, 1),
    calls: round(calls / runs, 1),
    unitsPerRecord: records ? round(perRun / records, 3) : null,
    toMinimum: round(perRun / minimum, 2),
    p50Ms: round([...times].sort((a, b) => a - b)[Math.floor(runs / 2)]!, 1),
  };
}

/** A key-value storage GET of a scope (its call and the values it answers). */
const storageGet = (scope: 'users' | 'fields', body: unknown): Pick<Read, 'call' | 'records'> => ({
  call: () => ({
    load: async () => (await import('../functions/storage/key-value')).handler,
    path: `/api/mktplace/storage/${scope}`,
    method: 'POST',
    query: { operation: 'GET' },
    pathParameters: { scope },
    body,
  }),
  records: (answer) =>
    Object.values(answer.info.objects as Record<string, object>).reduce((n, keys) => n + Object.keys(keys).length, 0),
});

function reads(stack: BenchStack, headers: Record<string, string>, uid: string, userId: number): Read[] {
  const post = (path: string, body: unknown, form = false) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
      body: form ? new URLSearchParams(body as Record<string, string>) : JSON.stringify(body),
    }).then(json);
  const fieldIds: number[] = [];
  let labours = 0;
  let inputs = 0;
  let rotations = 0;
  let spots = 0;
  let spreadLabours = 0;
  let spreadSpots = 0;
  let storageKeys = 0;
  let fieldValues = 0;
  let samplings = 0;
  /** The farms of the account's fields, by field index modulo 10 (farm of field i: farmIds[i % 10]). */
  const farmIds: number[] = [];
  let values = 0;
  let maps = 0;
  let inboxItems = 0;
  let variableUuid = '';
  const first = () => fieldIds[0]!; // made by the first read that needs it (ensureFields(1))
  // points of the first field, 100 a row 3 m apart: 10,000 of them stay inside its square
  const lonLat = (i: number): [number, number] => [
    -60 + 0.001 + (i % 100) * 0.00003,
    -34 + 0.001 + Math.floor(i / 100) * 0.00003,
  ];
  /** Field i's south-west corner: its square (FIELD_SIZE degrees) sits on a grid of 100 columns. */
  const FIELD_SIZE = 0.005;
  const fieldCorner = (i: number): [number, number] => [-60 + (i % 100) * 0.02, -34 + Math.floor(i / 100) * 0.02];
  /** A labour of 1 ha in `fieldId`, dated on day `day` of a month that turns with `i`. */
  const labourIn = (fieldId: number, i: number, day: number) =>
    post('/activities/labour', {
      field_id: fieldId,
      yeargroup: 2026,
      date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${day}`,
      labour_type_id: 4,
      surface: 1,
    });
  const inParallel = async (count: number, make: (i: number) => Promise<unknown>) => {
    for (let start = 0; start < count; start += 8)
      await Promise.all(Array.from({ length: Math.min(8, count - start) }, (_, j) => make(start + j)));
  };
  /** The account holds `count` fields at least (in 10 farms). */
  const ensureFields = async (count: number) => {
    const from = fieldIds.length;
    if (count <= from) return;
    const made = new Array<number>(count - from);
    await inParallel(count - from, async (j) => {
      const i = from + j;
      const created = await post(
        '/api/agregarlote',
        {
          nombre: `f${i}`,
          shape: square(...fieldCorner(i), FIELD_SIZE),
          nombrecampo: `Farm ${i % 10}`,
        },
        true,
      );
      made[j] = Number(created.id_lote);
      farmIds[i % 10] = Number(created.id_campo);
    });
    fieldIds.push(...made);
  };
  return [
    {
      name: 'GET /api/getfields (fields)',
      grow: ensureFields,
      call: () => ({ load: async () => (await import('../functions/fields/getfields')).get, path: '/api/getfields' }),
      records: (body) =>
        Object.values(body.user.farms as Record<string, { fields: object }>).reduce(
          (n, farm) => n + Object.keys(farm.fields).length,
          0,
        ),
    },
    {
      name: 'GET /rotations?yeargroup (rotations)',
      async grow(size) {
        await ensureFields(size);
        const wanted = fieldIds.slice(rotations, size);
        for (let start = 0; start < wanted.length; start += 100) {
          await post(
            '/rotations',
            wanted.slice(start, start + 100).map((fieldId) => ({
              field_id: fieldId,
              crop_id: 1,
              yeargroup: 2026,
              start_date: '2026-01-10T00:00:00Z',
              end_date: '2026-06-10T00:00:00Z',
            })),
          );
        }
        rotations = size;
      },
      call: () => ({
        load: async () => (await import('../functions/rotations/rotations')).list,
        path: '/rotations',
        query: { yeargroup: 2026 },
      }),
      records: (body) => (Array.isArray(body) ? body.length : (body.data?.length ?? 0)),
    },
    {
      name: 'GET /api/registro_campo/insumos?user_input=true (inputs)',
      async grow(size) {
        for (let start = inputs; start < size; start += 100) {
          const count = Math.min(100, size - start);
          await post(
            '/api/registro_campo/insumo',
            Array.from({ length: count }, (_, i) => ({ name: `Insumo ${start + i}`, company: 'Bench' })),
          );
        }
        inputs = size;
      },
      call: () => ({
        load: async () => (await import('../functions/inputs/inputs')).list,
        path: '/api/registro_campo/insumos',
        query: { user_input: 'true' },
      }),
      records: (body) => (Array.isArray(body) ? body.length : (body.data?.length ?? 0)),
    },
    {
      name: 'GET /activities/labour, one field, first page of 50 (labours)',
      async grow(size) {
        await ensureFields(1);
        await inParallel(size - labours, (j) => labourIn(first(), labours + j, 10));
        labours = size;
      },
      call: () => ({
        load: async () => (await import('../functions/labours/labours')).list,
        path: '/activities/labour',
        query: { yeargroup: 2026, fields_id: String(fieldIds[0]), page_size: 50 },
      }),
      records: (body) => body.data?.length ?? 0,
    },
    {
      name: 'POST /spots/all, one field, first page of 50 (spots)',
      async grow(size) {
        await ensureFields(1);
        await inParallel(size - spots, (j) => {
          const [lon, lat] = lonLat(spots + j);
          return post('/spots/spot', { field_id: first(), shape: `POINT(${lon} ${lat})`, name: `s${spots + j}` });
        });
        spots = size;
      },
      call: () => ({
        load: async () => (await import('../functions/spots/getspot')).all,
        path: '/spots/all',
        method: 'POST',
        body: { field_id: first(), page_size: 50 },
      }),
      records: (body) => body.data?.length ?? 0,
    },
    {
      name: 'GET /activities/labour, no field ids, page of 50 (labours in every field)',
      async grow(size) {
        await ensureFields(size);
        // one labour in each field of the account (the caller names none: the list reads them all)
        await inParallel(size - spreadLabours, (j) => labourIn(fieldIds[spreadLabours + j]!, spreadLabours + j, 20));
        spreadLabours = size;
      },
      call: () => ({
        load: async () => (await import('../functions/labours/labours')).list,
        path: '/activities/labour',
        query: { yeargroup: 2026, page_size: 50 },
      }),
      records: (body) => body.data?.length ?? 0,
    },
    {
      name: 'POST /spots/all, no field, first page of 50 (spots in every field)',
      async grow(size) {
        await ensureFields(size);
        // one spot in each field of the account, at the middle of its square
        await inParallel(size - spreadSpots, (j) => {
          const i = spreadSpots + j;
          const [lon, lat] = fieldCorner(i).map((c) => c + FIELD_SIZE / 2) as [number, number];
          return post('/spots/spot', { field_id: fieldIds[i], shape: `POINT(${lon} ${lat})`, name: `e${i}` });
        });
        spreadSpots = size;
      },
      call: () => ({
        load: async () => (await import('../functions/spots/getspot')).all,
        path: '/spots/all',
        method: 'POST',
        body: { page_size: 50 },
      }),
      records: (body) => body.data?.length ?? 0,
    },
    {
      name: 'GET /api/users/me/maps?id_lote (maps of a field)',
      async grow(size) {
        await ensureFields(1);
        await inParallel(size - maps, (j) => {
          const [lon, lat] = lonLat(maps + j);
          return post('/api/users/me/maps', {
            nombre: `m${maps + j}`,
            id_lote: first(),
            id_tipo: 1,
            geojson: {
              type: 'FeatureCollection',
              features: [
                {
                  type: 'Feature',
                  properties: { nombre: 'zona', id: 1 },
                  geometry: {
                    type: 'Polygon',
                    coordinates: [
                      [
                        [lon, lat],
                        [lon + 0.00002, lat],
                        [lon + 0.00002, lat + 0.00002],
                        [lon, lat],
                      ],
                    ],
                  },
                },
              ],
            },
          });
        });
        maps = size;
      },
      call: () => ({
        load: async () => (await import('../functions/maps/maps')).get,
        path: '/api/users/me/maps',
        query: { id_lote: first() },
      }),
      records: (body) => body.data?.length ?? 0,
    },
    {
      name: 'POST /api/mktplace/storage/users?operation=GET, every key (storage values)',
      async grow(size) {
        await inParallel(size - storageKeys, (j) =>
          post('/api/mktplace/storage/users?operation=PUT', {
            id: uid,
            key: `k${storageKeys + j}`,
            data: { value: storageKeys + j, note: 'bench' },
          }),
        );
        storageKeys = size;
      },
      ...storageGet('users', { ids: [uid], keys: [] }),
    },
    {
      name: 'POST /api/mktplace/storage/fields?operation=GET, no ids, one key (field storage values)',
      // a value under one key in one field of ten (fields in 10 farms): every field the caller reads
      async grow(size) {
        await ensureFields(size);
        const wanted = fieldIds.slice(0, size).filter((_, i) => i % 10 === 0);
        await inParallel(wanted.length - fieldValues, (j) =>
          post('/api/mktplace/storage/fields?operation=PUT', {
            id: wanted[fieldValues + j],
            key: 'notes',
            data: { crop: 'soy', note: 'bench' },
            overwrite: true,
          }),
        );
        fieldValues = wanted.length;
      },
      ...storageGet('fields', { keys: ['notes'] }),
    },
    {
      name: 'GET /api/sampling/analysis?farm_id (samplings of a farm)',
      // one sampling in each field of the account (fields in 10 farms): a farm holds a tenth of them
      async grow(size) {
        await ensureFields(size);
        await inParallel(size - samplings, (j) =>
          fetch(`${stack.baseUrl}/internal/samplings`, {
            method: 'POST',
            headers: { 'x-internal-key': stack.internalKey, 'content-type': 'application/json' },
            body: JSON.stringify({
              sampling_name: `m${samplings + j}`,
              field_id: fieldIds[samplings + j],
              yeargroup: 2026,
              zoning: { info: {}, type: 'none' },
              analysis: { Fertilidad: [{ name: 'P', unit_id: 1 }] },
              groups: [],
              points: [],
            }),
          }).then(json),
        );
        samplings = size;
      },
      call: () => ({
        load: async () => (await import('../functions/samplings/samplings')).analysis,
        path: '/api/sampling/analysis',
        query: { farm_id: farmIds[0]! },
      }),
      records: (body) => body.data.length,
    },
    {
      name: 'GET /nc/inbox, first page of 100 (inbox items)',
      // the events worker's delivery, in this process (the bench stack runs no workers): TEST.V1,
      // not stackable, so that each event is an item of its own
      async grow(size) {
        const { notifications } = await import('../lib/notifications/repository');
        await inParallel(size - inboxItems, (j) =>
          notifications.deliverEnvelope({
            id: `bench-inbox-${inboxItems + j}`,
            event_name: 'TEST.V1',
            data: { user_ids: [userId], payload: {} },
            created_at: new Date().toISOString(),
          }),
        );
        inboxItems = size;
      },
      call: () => ({
        load: async () => (await import('../functions/notifications/inbox')).list,
        path: '/nc/inbox',
        query: { page: 0, page_size: 100 },
      }),
      records: (body) => body.data.items.length,
    },
    {
      name: 'GET /sensors/v2/providers/values/variables, first page of 1,000 (values)',
      async grow(size) {
        if (!variableUuid) {
          const group = await post('/sensors/v2/providers/variablegroups', {
            group_name: 'Bench',
            variables: [{ variable_name: 'Lluvia' }],
          });
          variableUuid = group.data.variables[0].variable_uuid;
        }
        for (let start = values; start < size; start += 1000) {
          const count = Math.min(1000, size - start);
          // one value every 10 minutes from 2026-01-01
          const at = (i: number) =>
            new Date(Date.UTC(2026, 0, 1) + (start + i) * 600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
          await post('/sensors/v2/providers/values/variables', {
            data: [
              {
                variable_uuid: variableUuid,
                values: Array.from({ length: count }, (_, i) => (start + i) % 40),
                timestamps: Array.from({ length: count }, (_, i) => at(i)),
              },
            ],
          });
        }
        values = size;
      },
      call: () => ({
        load: async () => (await import('../functions/sensors/values')).read,
        path: '/sensors/v2/providers/values/variables',
        query: { variable_uuid: variableUuid, from: '2026-01-01T00:00:00Z', limit: 1000 },
      }),
      records: (body) => recordsIn(body.data),
    },
  ];
}

/** The length of the longest array in an answer (the records of a listing whatever its wire shape). */
function recordsIn(value: unknown): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(recordsIn));
  if (value && typeof value === 'object') return Math.max(0, ...Object.values(value).map(recordsIn));
  return 0;
}

export async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10,100,1000' },
      only: { type: 'string' },
      calls: { type: 'boolean', default: false },
    },
    strict: false,
  });
  const sizes = String(values.sizes).split(',').map(Number);
  // --only spots,storage: the reads whose name holds one of these words
  const only = values.only ? String(values.only).split(',') : undefined;
  if (values.calls) callLog = [];
  // what is measured is DynamoDB, not fair use: the seeding's callers are unmetered, as in the tests
  process.env.SURCO_DEFAULT_TIER = 'unmetered';
  const stack = await benchStack({ workers: () => false });
  try {
    const { headers, uid, userId } = await benchUser(stack);
    Object.assign(process.env, functionEnv(stack));
    installStreamingRuntime();
    countReadUnits();
    const all = reads(stack, headers, uid, userId);
    const results: Record<string, Record<number, unknown>> = {};
    for (const size of sizes) {
      for (const read of all) {
        if (only && !only.some((word) => read.name.includes(word))) continue;
        await read.grow(size);
        (results[read.name] ??= {})[size] = await measure(read, headers, 5, size);
        // as it comes, so that a long run's figures outlive a later failure
        console.error(JSON.stringify({ read: read.name, size, ...(results[read.name]![size] as object) }));
      }
    }
    console.log(JSON.stringify({ suite: 'reads', sizes, results }, null, 2));
  } finally {
    await stack.dispose();
  }
}
