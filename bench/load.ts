// npm run bench -- load
// Many tenants at once against the local stack (loopback only), at increasing concurrency, with
// autocannon: a realistic mix of getfields, spot lists and creates (with a declared image), image
// reads, herd exits, herd moves between paddocks, sensor values, storage writes and reads, inbox
// reads and test notifications,
// while notification streams stay open. Bounded: LOAD_SECONDS per level (default 8) and the levels
// in LOAD_LEVELS (default 1,8,32,64). Then the invariants are checked from the data, and hot keys
// (one farm's field counter, one busy herd, one storage key, one farm's metadata) take concurrent
// writers. Figures: docs/benchmarks.md.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { v1 as uuidV1 } from 'uuid';
import { type BenchStack, benchStack, internalApi, json, round, square } from './lib';

const LEVELS = (process.env.LOAD_LEVELS ?? '1,8,32,64').split(',').map(Number);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 8);
const TENANTS = 12;
const STREAMS = 12;
const HERD_SIZE = 100_000;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

interface Tenant {
  userId: number;
  uid: string;
  token: string;
  fieldId: number;
  farmId: number;
  herdUuid: string;
  variableUuid: string;
  imageUuid: string;
  /** A point inside the tenant's field (WKT). */
  point: string;
  /** Two paddocks and small herds moved whole between them (where each should be now). */
  paddocks: [string, string];
  movers: Array<{ uuid: string; at: 0 | 1 }>;
  nextMover: number;
}

const MOVERS = 8;

async function call(stack: BenchStack, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return json(response);
}

async function tenant(stack: BenchStack, index: number): Promise<Tenant> {
  const internal = internalApi(stack);
  const user = (await internal('/internal/users', { user_name: `load-${index}` })).data;
  const token = (await internal('/internal/tokens', { user_id: user.id, extension_id: 'load', claims: ['*'] })).data
    .access_token;
  const lon = -61 + (index % 6) * 0.05;
  const lat = -34 + Math.floor(index / 6) * 0.05;
  const created = await json(
    await fetch(`${stack.baseUrl}/api/agregarlote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ nombre: `Lote ${index}`, nombrecampo: `Campo ${index}`, shape: square(lon, lat) }),
    }),
  );
  const fieldId = Number(created.id_lote);
  const paddock = await call(stack, token, 'POST', '/livestock/paddock', {
    field_id: fieldId,
    shape: square(lon + 0.0005, lat + 0.0005, 0.0045),
    date: '2026-05-10T12:00:00Z',
    name: 'Potrero',
  });
  const other = await call(stack, token, 'POST', '/livestock/paddock', {
    field_id: fieldId,
    shape: square(lon + 0.0055, lat + 0.0055, 0.004),
    date: '2026-05-10T12:00:00Z',
    name: 'Potrero 2',
  });
  const movers: Tenant['movers'] = [];
  for (let m = 0; m < MOVERS; m++) {
    const small = await call(stack, token, 'POST', '/livestock/herd', {
      type_id: 4,
      animal_count: 10,
      paddock_uuid: paddock.data.paddock_uuid,
      weight: 4000,
      weight_unit: 'kg',
      herd_name: `Lote ${m}`,
      field_id: fieldId,
    });
    movers.push({ uuid: small.data.herd_uuid, at: 0 });
  }
  const herd = await call(stack, token, 'POST', '/livestock/herd', {
    type_id: 4,
    animal_count: HERD_SIZE,
    paddock_uuid: paddock.data.paddock_uuid,
    weight: HERD_SIZE * 400,
    weight_unit: 'kg',
    herd_name: 'Rodeo',
    field_id: fieldId,
  });
  const group = await call(stack, token, 'POST', '/sensors/v2/providers/variablegroups', {
    group_name: 'Estación',
    variables: [{ variable_name: 'Lluvia' }],
  });
  // one spot with an uploaded image, read during the run
  const imageUuid = uuidV1();
  await call(stack, token, 'POST', '/spots/spot', {
    field_id: fieldId,
    shape: `POINT(${lon + 0.005} ${lat + 0.005})`,
    name: 'Foto',
    texts: [
      {
        uuid: uuidV1(),
        text: 'foto',
        timestamp_usr: '2026-05-10T10:00:00Z',
        imgs: [{ coordinate: `POINT(${lon + 0.005} ${lat + 0.005})`, uuid: imageUuid }],
      },
    ],
  });
  const form = new FormData();
  form.set('img', new Blob([PNG], { type: 'image/png' }), 'foto.png');
  await json(
    await fetch(`${stack.baseUrl}/api/spots/msgs/imgs?uuid=${imageUuid}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }),
  );
  return {
    userId: user.id,
    uid: user.uid,
    token,
    fieldId,
    farmId: created.id_campo,
    herdUuid: herd.data.herd_uuid,
    variableUuid: group.data.variables[0].variable_uuid,
    imageUuid,
    point: `POINT(${lon + 0.005} ${lat + 0.005})`,
    paddocks: [paddock.data.paddock_uuid, other.data.paddock_uuid],
    movers,
    nextMover: 0,
  };
}

/** The mix, in the order each connection cycles through it; `t` is the tenant of the request. */
function mix(tenants: Tenant[]) {
  let next = 0;
  let second = 0;
  const pick = () => tenants[next++ % tenants.length]!;
  type Built = { method: string; path: string; body?: unknown };
  const kinds: Array<[string, (t: Tenant) => Built]> = [
    ['getfields', () => ({ method: 'GET', path: '/api/getfields' })],
    ['spot list', (t) => ({ method: 'POST', path: '/spots/all', body: { field_id: t.fieldId, page_size: 20 } })],
    [
      'spot create',
      (t) => ({
        method: 'POST',
        path: '/spots/spot',
        body: {
          field_id: t.fieldId,
          shape: t.point,
          name: 'Relevamiento',
          texts: [
            {
              uuid: uuidV1(),
              text: 'maleza',
              timestamp_usr: '2026-05-10T10:00:00Z',
              imgs: [{ coordinate: t.point, uuid: uuidV1() }],
            },
          ],
        },
      }),
    ],
    ['image read', (t) => ({ method: 'GET', path: `/api/spots/msgs/imgs?uuid=${t.imageUuid}` })],
    [
      'herd exit',
      (t) => ({
        method: 'POST',
        path: '/livestock/transaction/exit',
        body: {
          destination_type: 4,
          animal_count: 1,
          weight: 400,
          weight_unit: 'kg',
          origin_herd_uuid: t.herdUuid,
          destination_herd_uuid: t.herdUuid,
          transaction_uuid: randomUUID(),
          transaction_date: '2026-05-11T10:00:00Z',
        },
      }),
    ],
    [
      'herd move',
      (t) => {
        // each small herd moves whole to the other paddock; a herd is moved again only after the
        // tenant's other herds (never while its previous move can still be in flight)
        const mover = t.movers[t.nextMover++ % t.movers.length]!;
        const from = mover.at;
        mover.at = from === 0 ? 1 : 0;
        return {
          method: 'POST',
          path: '/livestock/transaction/paddock',
          body: {
            origin_herd_uuid: mover.uuid,
            origin_paddock_uuid: t.paddocks[from],
            destination_paddock_uuid: t.paddocks[mover.at],
            transaction_date: '2026-05-11T10:00:00Z',
          },
        };
      },
    ],
    [
      'sensor values',
      (t) => ({
        method: 'POST',
        path: '/sensors/v2/providers/values/variables',
        body: {
          data: [
            {
              variable_uuid: t.variableUuid,
              values: [Math.round(Math.random() * 400) / 10],
              timestamps: [new Date(Date.UTC(2026, 0, 1) + ++second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')],
            },
          ],
        },
      }),
    ],
    [
      'storage write',
      (t) => ({
        method: 'POST',
        path: '/api/mktplace/storage/users?operation=PUT',
        body: { id: t.uid, key: `k${second % 20}`, data: { at: second }, overwrite: true },
      }),
    ],
    [
      'storage read',
      (t) => ({ method: 'POST', path: '/api/mktplace/storage/users?operation=GET', body: { ids: [t.uid], keys: [] } }),
    ],
    ['inbox', () => ({ method: 'GET', path: '/nc/inbox?page_size=20' })],
    ['test event', (t) => ({ method: 'POST', path: '/nc/events/test', body: { user_ids: [t.userId] } })],
  ];
  const requests = kinds.map(([, build]) => ({
    method: 'GET' as const,
    path: '/',
    setupRequest: (request: any) => {
      const t = pick();
      const built = build(t);
      return {
        ...request,
        method: built.method,
        path: built.path,
        headers: {
          authorization: `Bearer ${t.token}`,
          ...(built.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: built.body !== undefined ? JSON.stringify(built.body) : undefined,
      };
    },
  }));
  return { requests, names: kinds.map(([name]) => name) };
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
}

/** Open notification streams for the length of a level. */
function openStreams(stack: BenchStack, tenants: Tenant[]): () => void {
  const abort = new AbortController();
  for (let i = 0; i < STREAMS; i++) {
    const t = tenants[i % tenants.length]!;
    fetch(`${stack.baseUrl}/nc/stream`, { headers: { authorization: `Bearer ${t.token}` }, signal: abort.signal })
      .then(async (response) => {
        const reader = response.body!.getReader();
        for (;;) if ((await reader.read()).done) break;
      })
      .catch(() => undefined);
  }
  return () => abort.abort();
}

async function level(stack: BenchStack, tenants: Tenant[], connections: number) {
  const { requests } = mix(tenants);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const closeStreams = openStreams(stack, tenants);
  const url = new URL(stack.baseUrl);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${url.protocol}//${url.host}`, connections, duration: SECONDS, requests, timeout: 30 },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    });
  });
  closeStreams();
  latencies.sort((a, b) => a - b);
  const failed = [...statuses].filter(([status]) => status >= 400).reduce((sum, [, n]) => sum + n, 0);
  return {
    connections,
    requests: latencies.length,
    throughput: round(latencies.length / SECONDS),
    p50: round(percentile(latencies, 0.5)),
    p95: round(percentile(latencies, 0.95)),
    p99: round(percentile(latencies, 0.99)),
    errors: failed + result.errors + result.timeouts,
    statuses: Object.fromEntries(statuses),
  };
}

/** How many items the inbox lists, page after page (what it lists is what is not dismissed). */
async function listedInbox(stack: BenchStack, t: Tenant): Promise<number> {
  let total = 0;
  for (let page = 0; ; page++) {
    const data = (await call(stack, t.token, 'GET', `/nc/inbox?page_size=100&page=${page}`)).data;
    total += (data.items as unknown[]).length;
    if (data.page_info.last_page || !(data.items as unknown[]).length) return total;
  }
}

/** The invariants, read back from the data. */
async function invariants(stack: BenchStack, tenants: Tenant[]) {
  const broken: string[] = [];
  const codes = new Set<string>();
  let spots = 0;
  for (const t of tenants) {
    const herds = (await call(stack, t.token, 'GET', '/livestock/herd')).data as any[];
    const herd = herds.find((h) => h.herd_uuid === t.herdUuid);
    const history = (await call(stack, t.token, 'GET', `/livestock/herd/${t.herdUuid}/transactions`)).data as any[];
    const exits = history.filter((h) => h.kind === 'exit').reduce((sum, h) => sum + Number(h.animal_count), 0);
    if (!herd || herd.animal_count < 0 || herd.animal_count !== HERD_SIZE - exits)
      broken.push(`herd of tenant ${t.userId}: ${herd?.animal_count} heads, ${exits} exited`);
    for (const mover of t.movers) {
      const moved = herds.find((h) => h.herd_uuid === mover.uuid);
      if (moved?.animal_count !== 10 || moved.paddock_uuid !== t.paddocks[mover.at])
        broken.push(`moved herd ${mover.uuid}: ${moved?.animal_count} heads in ${moved?.paddock_uuid}`);
    }
    const listed = (await call(stack, t.token, 'POST', '/spots/all', { field_id: t.fieldId, page_size: -1 }))
      .data as any[];
    for (const spot of listed) {
      spots++;
      if (codes.has(spot.code)) broken.push(`spot code ${spot.code} twice`);
      codes.add(spot.code);
    }
    const stored =
      (await call(stack, t.token, 'POST', '/api/mktplace/storage/users?operation=GET', { ids: [t.uid], keys: [] })).info
        .objects[t.uid] ?? {};
    const keys = Object.keys(stored);
    if (new Set(keys).size !== keys.length || keys.some((k) => !/^k\d+$/.test(k)))
      broken.push(`storage keys of tenant ${t.userId}: ${keys.join(',')}`);
    // the worker may still be delivering: compare once the inbox stops changing
    let count = -1;
    let items = -2;
    for (let attempt = 0; attempt < 20 && count !== items; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      count = (await call(stack, t.token, 'GET', '/nc/inbox/count')).data.count;
      items = await listedInbox(stack, t);
    }
    if (count !== items) broken.push(`inbox of tenant ${t.userId}: count ${count}, ${items} undismissed items`);
  }
  return { broken, spots };
}

/** Hot keys: `writers` concurrent writes on one record each; what succeeded, what was refused, nothing lost. */
async function hotKeys(stack: BenchStack, writers: number) {
  const [t] = [await tenant(stack, 99)];
  const timedAll = async (make: (i: number) => Promise<Response>) => {
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: writers }, (_, i) => make(i)));
    const statuses: Record<number, number> = {};
    for (const r of responses) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    return { ms: round(performance.now() - started), statuses, ok: responses.filter((r) => r.ok).length };
  };
  const headers = { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' };
  const fields = await timedAll((i) =>
    fetch(`${stack.baseUrl}/api/agregarlote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        nombre: `Hot ${i}`,
        idcampo: String(t.farmId),
        shape: square(-62 + (i % 10) * 0.011, -35 + Math.floor(i / 10) * 0.011),
      }),
    }),
  );
  const listing = await call(stack, t.token, 'GET', '/api/getfields');
  const fieldCount = Object.keys(listing.user.farms[t.farmId].fields).length - 1;
  const exits = await timedAll(() =>
    fetch(`${stack.baseUrl}/livestock/transaction/exit`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        destination_type: 4,
        animal_count: 1,
        weight: 400,
        weight_unit: 'kg',
        origin_herd_uuid: t.herdUuid,
        destination_herd_uuid: t.herdUuid,
        transaction_uuid: randomUUID(),
        transaction_date: '2026-05-11T10:00:00Z',
      }),
    }),
  );
  const herd = ((await call(stack, t.token, 'GET', '/livestock/herd')).data as any[]).find(
    (h) => h.herd_uuid === t.herdUuid,
  );
  const metadata = await timedAll((i) =>
    fetch(`${stack.baseUrl}/api/farms/metadata`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ farm_id: t.farmId, metadata: { [`k${i}`]: i } }),
    }),
  );
  const stored = (await call(stack, t.token, 'GET', `/api/farms/metadata?farms_id=${t.farmId}`)).data;
  const metadataKeys = Object.keys(stored[t.farmId]?.metadata ?? {}).length;
  return {
    writers,
    fieldsInOneFarm: { ...fields, listed: fieldCount, lost: fields.ok - fieldCount },
    exitsOfOneHerd: { ...exits, heads: herd.animal_count, lost: HERD_SIZE - exits.ok - herd.animal_count },
    metadataOfOneFarm: { ...metadata, keys: metadataKeys, lost: metadata.ok - metadataKeys },
  };
}

export async function run() {
  const stack = await benchStack();
  try {
    const tenants = [];
    for (let i = 0; i < TENANTS; i++) tenants.push(await tenant(stack, i));
    const levels = [];
    for (const connections of LEVELS) levels.push(await level(stack, tenants, connections));
    const checked = await invariants(stack, tenants);
    const hot = [];
    for (const writers of [8, 16, 32]) hot.push(await hotKeys(stack, writers));
    console.log(
      JSON.stringify(
        {
          suite: 'load',
          tenants: TENANTS,
          streams: STREAMS,
          secondsPerLevel: SECONDS,
          levels,
          invariants: checked,
          hotKeys: hot,
        },
        null,
        2,
      ),
    );
  } finally {
    await stack.dispose();
  }
}
