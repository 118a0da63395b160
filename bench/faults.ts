// npm run bench -- faults
// DynamoDB stops answering in the middle of a burst of multi-item writes (field creations, herd
// exits, labours whose inputs list creates personal inputs), then comes back. What the clients saw
// (status, request id, time) and what the data looks like afterwards: each write complete or
// absent, and a write repeated with its client uuid applied exactly once. docs/reliability.md.
import { randomUUID } from 'node:crypto';
import { benchStack, internalApi, json, round } from './lib';

const PAUSE_MS = Number(process.env.FAULT_PAUSE_MS ?? 12_000);
const BURST = 6;

const square = (lon: number, lat: number, size = 0.01) =>
  `POLYGON((${lon} ${lat},${lon + size} ${lat},${lon + size} ${lat + size},${lon} ${lat + size},${lon} ${lat}))`;

interface Answer {
  kind: string;
  status: number;
  ms: number;
  requestId: string | null;
  key: string;
}

export async function run() {
  const stack = await benchStack();
  try {
    const internal = internalApi(stack);
    const user = (await internal('/internal/users', { user_name: 'faults' })).data;
    const token = (await internal('/internal/tokens', { user_id: user.id, claims: ['*'] })).data.access_token;
    const auth = { authorization: `Bearer ${token}` };
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${stack.baseUrl}${path}`, { method, headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, body: body !== undefined ? JSON.stringify(body) : undefined });
    const form = (fields: Record<string, string>) =>
      fetch(`${stack.baseUrl}/api/agregarlote`, { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const created = await json(await form({ nombre: 'Base', nombrecampo: 'Campo fallas', shape: square(-61, -34) }));
    const farmId = created.id_campo as number;
    const fieldId = Number(created.id_lote);
    const paddock = await json(await api('POST', '/livestock/paddock', { field_id: fieldId, shape: square(-60.999, -33.999, 0.008), date: '2026-05-10T12:00:00Z', name: 'P' }));
    const herd = (await json(await api('POST', '/livestock/herd', { type_id: 4, animal_count: 1000, paddock_uuid: paddock.data.paddock_uuid, weight: 400_000, weight_unit: 'kg', herd_name: 'R', field_id: fieldId }))).data;
    // warm as many instances of each function as the burst runs at once: a cold start is not the
    // fault under test (and serverless-offline, unlike Lambda, counts it in the invocation's time)
    await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        Promise.all([
          form({ nombre: `Tibio ${i}`, idcampo: String(farmId), shape: square(-61.2 - i * 0.02, -34) }).then((r) => r.arrayBuffer()),
          api('POST', '/livestock/transaction/exit', { destination_type: 4, animal_count: 1, weight: 400, weight_unit: 'kg', origin_herd_uuid: herd.herd_uuid, destination_herd_uuid: herd.herd_uuid, transaction_uuid: randomUUID(), transaction_date: '2026-05-11T10:00:00Z' }).then((r) => r.arrayBuffer()),
          api('POST', '/activities/labour', { labour_type_id: 4, yeargroup: 2026, date: '2026-11-01', field_id: fieldId, name: 'tibio' }).then((r) => r.arrayBuffer()),
        ]),
      ),
    );

    const writes: Array<{ kind: string; key: string; send: () => Promise<Response> }> = [];
    for (let i = 0; i < BURST; i++) {
      const name = `Lote ${i}`;
      writes.push({ kind: 'field', key: name, send: () => form({ nombre: name, idcampo: String(farmId), shape: square(-61.5 + i * 0.02, -34.5) }) });
      const transaction = randomUUID();
      const exitBody = { destination_type: 4, animal_count: 1, weight: 400, weight_unit: 'kg', origin_herd_uuid: herd.herd_uuid, destination_herd_uuid: herd.herd_uuid, transaction_uuid: transaction, transaction_date: '2026-05-11T10:00:00Z' };
      writes.push({ kind: 'herd exit', key: transaction, send: () => api('POST', '/livestock/transaction/exit', exitBody) });
      const labour = randomUUID();
      const labourBody = { uuid: labour, labour_type_id: 1, yeargroup: 2026, date: '2026-11-20', field_id: fieldId, inputs: [{ id: 20, dose: 2, unit: 'L/ha' }, { uuid: randomUUID(), name: `Insumo ${i}`, dose: 1, unit: 'L/ha' }] };
      writes.push({ kind: 'labour with inputs', key: JSON.stringify(labourBody), send: () => api('POST', '/activities/labour', labourBody) });
    }

    const answers: Answer[] = [];
    const burst = Promise.all(
      writes.map(async (write, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * 40));
        const started = performance.now();
        const response = await write.send();
        const text = await response.text();
        let requestId: string | null = null;
        try {
          requestId = JSON.parse(text).request_id ?? null;
        } catch {
          /* not JSON */
        }
        answers.push({ kind: write.kind, status: response.status, ms: round(performance.now() - started), requestId, key: write.key });
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    stack.faults.pauseDynamoDb();
    const pausedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    stack.faults.resumeDynamoDb();
    const pausedMs = round(performance.now() - pausedAt);
    await burst;
    await new Promise((resolve) => setTimeout(resolve, 2000));

    // --- the data, read back ---------------------------------------------------------------
    const broken: string[] = [];
    const listing = await json(await api('GET', '/api/getfields'));
    const listedNames = new Set(Object.values(listing.user.farms[farmId].fields as Record<string, { name: string }>).map((f) => f.name));
    const inputs = (await json(await api('GET', '/api/registro_campo/insumos?user_input=true'))) as any[];
    const inputUuids = new Set(inputs.map((i) => i.uuid));
    let repeated = 0;
    for (const answer of answers) {
      if (answer.kind === 'field') {
        const listed = listedNames.has(answer.key);
        if (answer.status === 200 && !listed) broken.push(`field ${answer.key} answered 200 but is not listed`);
      }
      if (answer.kind === 'labour with inputs') {
        const body = JSON.parse(answer.key);
        const read = await api('GET', `/activities/labour/${body.uuid}`);
        const newInput = body.inputs[1].uuid as string;
        if (read.status === 200) {
          const labour = ((await read.json()) as { data: { inputs: unknown[] } }).data;
          if (labour.inputs.length !== 2 || !inputUuids.has(newInput)) broken.push(`labour ${body.uuid} is there without all its inputs`);
        } else {
          await read.arrayBuffer();
          if (inputUuids.has(newInput)) broken.push(`labour ${body.uuid} is absent but its new input exists`);
          if (answer.status === 200) broken.push(`labour ${body.uuid} answered 200 but is absent`);
          // repeated with its client uuid, it lands once
          const again = await api('POST', '/activities/labour', body);
          await again.arrayBuffer();
          repeated++;
          if (again.status !== 200) broken.push(`labour ${body.uuid} repeated: ${again.status}`);
        }
      }
      if (answer.kind === 'herd exit' && answer.status !== 200) {
        const again = await api('POST', '/livestock/transaction/exit', { destination_type: 4, animal_count: 1, weight: 400, weight_unit: 'kg', origin_herd_uuid: herd.herd_uuid, destination_herd_uuid: herd.herd_uuid, transaction_uuid: answer.key, transaction_date: '2026-05-11T10:00:00Z' });
        await again.arrayBuffer();
        repeated++;
        if (again.status !== 200) broken.push(`exit ${answer.key} repeated: ${again.status}`);
      }
    }
    // every exit once: heads = 1000 - exits in the history, and each transaction uuid once in it
    const heads = ((await json(await api('GET', '/livestock/herd'))).data as any[]).find((h) => h.herd_uuid === herd.herd_uuid).animal_count;
    const history = ((await json(await api('GET', `/livestock/herd/${herd.herd_uuid}/transactions`))).data as any[]).filter((h) => h.kind === 'exit');
    const exitUuids = history.map((h) => h.transaction_uuid);
    if (heads !== 1000 - history.reduce((sum, h) => sum + Number(h.animal_count), 0)) broken.push(`herd: ${heads} heads, ${history.length} exits`);
    if (new Set(exitUuids).size !== exitUuids.length) broken.push('an exit applied twice');
    const burstExits = answers.filter((a) => a.kind === 'herd exit').map((a) => a.key);
    if (burstExits.some((uuid) => !exitUuids.includes(uuid))) broken.push('an exit of the burst is missing after its repeat');
    const labours = (await json(await api('GET', '/activities/labour?yeargroup=2026&page_size=500'))).data as any[];
    const labourUuids = labours.map((l) => l.uuid);
    if (new Set(labourUuids).size !== labourUuids.length) broken.push('a labour listed twice');

    const byStatus: Record<string, number> = {};
    for (const a of answers) byStatus[`${a.kind} ${a.status}`] = (byStatus[`${a.kind} ${a.status}`] ?? 0) + 1;
    const failed = answers.filter((a) => a.status >= 500);
    console.log(
      JSON.stringify(
        {
          suite: 'faults',
          fault: `DynamoDB Local paused (SIGSTOP) ${pausedMs} ms during a burst of ${answers.length} writes`,
          answers: byStatus,
          slowestMs: Math.max(...answers.map((a) => a.ms)),
          failedWithRequestId: `${failed.filter((a) => a.requestId).length} of ${failed.length}`,
          repeatedAfterwards: repeated,
          broken,
        },
        null,
        2,
      ),
    );
  } finally {
    await stack.dispose();
  }
}
