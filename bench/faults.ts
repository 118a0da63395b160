// npm run bench -- faults
// Dependencies failing under traffic, one at a time, on the local stack: DynamoDB stalls (paused)
// and then stops (exits) in the middle of a burst of multi-item writes (field creations, herd exits,
// labours whose inputs list creates personal inputs); S3 refuses connections while images are read
// and uploaded; SQS refuses connections while events are sent. What the clients saw (status,
// request id, time) and what the data looks like afterwards: each write complete or absent, work
// queued before the fault done once, a write repeated with its client uuid applied exactly once.
// docs/reliability.md.
import { createHash, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { v1 as uuidV1 } from 'uuid';
import { type BenchStack, benchStack, internalApi, json, round, square } from './lib';

const PAUSE_MS = Number(process.env.FAULT_PAUSE_MS ?? 12_000);
const BURST = 6;

interface Answer {
  kind: string;
  status: number;
  ms: number;
  requestId: string | null;
  key: string;
}

type Api = (method: string, path: string, body?: unknown) => Promise<Response>;

export async function run() {
  const stack = await benchStack({ inMemory: false });
  try {
    const stall = await writeBurst(
      stack,
      'stall',
      () => stack.faults.pauseDynamoDb(),
      async () => stack.faults.resumeDynamoDb(),
    );
    const stop = await writeBurst(
      stack,
      'stop',
      () => void stack.faults.stopDynamoDb(),
      () => stack.faults.startDynamoDb(),
    );
    const s3 = await s3Down(stack);
    const sqs = await sqsDown(stack);
    const bulk = await bulkJobDuringSqsOutage(stack);
    console.log(JSON.stringify({ suite: 'faults', scenarios: [stall, stop, s3, sqs, bulk] }, null, 2));
  } finally {
    await stack.dispose();
  }
}

interface BenchUser {
  id: number;
  api: Api;
  /** Its Authorization header. */
  auth: Record<string, string>;
  /** POST /api/agregarlote with these form fields. */
  form: (fields: Record<string, string>) => Promise<Response>;
}

async function user(stack: BenchStack, name: string): Promise<BenchUser> {
  const internal = internalApi(stack);
  const created = (await internal('/internal/users', { user_name: name })).data;
  const token = (await internal('/internal/tokens', { user_id: created.id, extension_id: 'faults', claims: ['*'] }))
    .data.access_token as string;
  const auth = { authorization: `Bearer ${token}` };
  const api: Api = (method, path, body) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  const form = (fields: Record<string, string>) =>
    fetch(`${stack.baseUrl}/api/agregarlote`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
  return { id: created.id, api, auth, form };
}

const requestIdOf = (text: string): string | null => {
  try {
    return JSON.parse(text).request_id ?? null;
  } catch {
    return null;
  }
};

/** A burst of multi-item writes with DynamoDB failing `inject`ed 150 ms in, `recover`ed PAUSE_MS later. */
async function writeBurst(stack: BenchStack, name: string, inject: () => void, recover: () => Promise<void>) {
  const { api, form } = await user(stack, `faults-${name}`);
  const created = await json(await form({ nombre: 'Base', nombrecampo: `Campo ${name}`, shape: square(-61, -34) }));
  const farmId = created.id_campo as number;
  const fieldId = Number(created.id_lote);
  const paddock = await json(
    await api('POST', '/livestock/paddock', {
      field_id: fieldId,
      shape: square(-60.999, -33.999, 0.008),
      date: '2026-05-10T12:00:00Z',
      name: 'P',
    }),
  );
  const herd = (
    await json(
      await api('POST', '/livestock/herd', {
        type_id: 4,
        animal_count: 1000,
        paddock_uuid: paddock.data.paddock_uuid,
        weight: 400_000,
        weight_unit: 'kg',
        herd_name: 'R',
        field_id: fieldId,
      }),
    )
  ).data;
  // warm as many instances of each function as the burst runs at once: a cold start is not the
  // fault under test (and the local runtime, unlike Lambda, counts a module's first load in the invocation's time)
  await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      Promise.all([
        form({ nombre: `Tibio ${i}`, idcampo: String(farmId), shape: square(-61.2 - i * 0.02, -34) }).then((r) =>
          r.arrayBuffer(),
        ),
        api('POST', '/livestock/transaction/exit', {
          destination_type: 4,
          animal_count: 1,
          weight: 400,
          weight_unit: 'kg',
          origin_herd_uuid: herd.herd_uuid,
          destination_herd_uuid: herd.herd_uuid,
          transaction_uuid: randomUUID(),
          transaction_date: '2026-05-11T10:00:00Z',
        }).then((r) => r.arrayBuffer()),
        api('POST', '/activities/labour', {
          labour_type_id: 4,
          yeargroup: 2026,
          date: '2026-11-01',
          field_id: fieldId,
          name: 'tibio',
        }).then((r) => r.arrayBuffer()),
      ]),
    ),
  );

  const writes: Array<{ kind: string; key: string; send: () => Promise<Response> }> = [];
  for (let i = 0; i < BURST; i++) {
    const name = `Lote ${i}`;
    writes.push({
      kind: 'field',
      key: name,
      send: () => form({ nombre: name, idcampo: String(farmId), shape: square(-61.5 + i * 0.02, -34.5) }),
    });
    const transaction = randomUUID();
    const exitBody = {
      destination_type: 4,
      animal_count: 1,
      weight: 400,
      weight_unit: 'kg',
      origin_herd_uuid: herd.herd_uuid,
      destination_herd_uuid: herd.herd_uuid,
      transaction_uuid: transaction,
      transaction_date: '2026-05-11T10:00:00Z',
    };
    writes.push({
      kind: 'herd exit',
      key: transaction,
      send: () => api('POST', '/livestock/transaction/exit', exitBody),
    });
    const labour = randomUUID();
    const labourBody = {
      uuid: labour,
      labour_type_id: 1,
      yeargroup: 2026,
      date: '2026-11-20',
      field_id: fieldId,
      inputs: [
        { id: 20, dose: 2, unit: 'L/ha' },
        { uuid: randomUUID(), name: `Insumo ${i}`, dose: 1, unit: 'L/ha' },
      ],
    };
    writes.push({
      kind: 'labour with inputs',
      key: JSON.stringify(labourBody),
      send: () => api('POST', '/activities/labour', labourBody),
    });
  }

  const answers: Answer[] = [];
  const burst = Promise.all(
    writes.map(async (write, index) => {
      await new Promise((resolve) => setTimeout(resolve, index * 40));
      const started = performance.now();
      const response = await write.send();
      const text = await response.text();
      answers.push({
        kind: write.kind,
        status: response.status,
        ms: round(performance.now() - started),
        requestId: requestIdOf(text),
        key: write.key,
      });
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 150));
  inject();
  const pausedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  await recover();
  const pausedMs = round(performance.now() - pausedAt);
  await burst;
  await new Promise((resolve) => setTimeout(resolve, 2000));

  // --- the data, read back ---------------------------------------------------------------
  const broken: string[] = [];
  const listing = await json(await api('GET', '/api/getfields'));
  const listedNames = new Set(
    Object.values(listing.user.farms[farmId].fields as Record<string, { name: string }>).map((f) => f.name),
  );
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
        if (labour.inputs.length !== 2 || !inputUuids.has(newInput))
          broken.push(`labour ${body.uuid} is there without all its inputs`);
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
      const again = await api('POST', '/livestock/transaction/exit', {
        destination_type: 4,
        animal_count: 1,
        weight: 400,
        weight_unit: 'kg',
        origin_herd_uuid: herd.herd_uuid,
        destination_herd_uuid: herd.herd_uuid,
        transaction_uuid: answer.key,
        transaction_date: '2026-05-11T10:00:00Z',
      });
      await again.arrayBuffer();
      repeated++;
      if (again.status !== 200) broken.push(`exit ${answer.key} repeated: ${again.status}`);
    }
  }
  // every exit once: heads = 1000 - exits in the history, and each transaction uuid once in it
  const heads = ((await json(await api('GET', '/livestock/herd'))).data as any[]).find(
    (h) => h.herd_uuid === herd.herd_uuid,
  ).animal_count;
  const history = (
    (await json(await api('GET', `/livestock/herd/${herd.herd_uuid}/transactions`))).data as any[]
  ).filter((h) => h.kind === 'exit');
  const exitUuids = history.map((h) => h.transaction_uuid);
  if (heads !== 1000 - history.reduce((sum, h) => sum + Number(h.animal_count), 0))
    broken.push(`herd: ${heads} heads, ${history.length} exits`);
  if (new Set(exitUuids).size !== exitUuids.length) broken.push('an exit applied twice');
  const burstExits = answers.filter((a) => a.kind === 'herd exit').map((a) => a.key);
  if (burstExits.some((uuid) => !exitUuids.includes(uuid)))
    broken.push('an exit of the burst is missing after its repeat');
  const labours = (await json(await api('GET', '/activities/labour?yeargroup=2026&page_size=500'))).data as any[];
  const labourUuids = labours.map((l) => l.uuid);
  if (new Set(labourUuids).size !== labourUuids.length) broken.push('a labour listed twice');

  const byStatus: Record<string, number> = {};
  for (const a of answers) byStatus[`${a.kind} ${a.status}`] = (byStatus[`${a.kind} ${a.status}`] ?? 0) + 1;
  const failed = answers.filter((a) => a.status >= 500);
  return {
    fault: `DynamoDB Local ${name === 'stall' ? 'paused (SIGSTOP)' : 'stopped (exit), then started on the same data'} for ${pausedMs} ms during a burst of ${answers.length} writes`,
    answers: byStatus,
    slowestMs: Math.max(...answers.map((a) => a.ms)),
    failedWithRequestId: `${failed.filter((a) => a.requestId).length} of ${failed.length}`,
    repeatedAfterwards: repeated,
    broken,
  };
}

/** S3 refuses connections: image reads and uploads fail cleanly, and work again once it is back. */
async function s3Down(stack: BenchStack) {
  const { api, auth, form: createField } = await user(stack, 'faults-s3');
  const field = await json(await createField({ nombre: 'Lote S3', nombrecampo: 'Campo S3', shape: square(-61, -34) }));
  const point = 'POINT(-60.995 -33.995)';
  const image = uuidV1();
  await json(
    await api('POST', '/spots/spot', {
      field_id: Number(field.id_lote),
      shape: point,
      name: 'Foto',
      texts: [
        {
          uuid: uuidV1(),
          text: 'foto',
          timestamp_usr: '2026-05-10T10:00:00Z',
          imgs: [{ coordinate: point, uuid: image }],
        },
      ],
    }),
  );
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
  const put = async () => {
    const form = new FormData();
    form.set('img', new Blob([png], { type: 'image/png' }), 'foto.png');
    const started = performance.now();
    const response = await fetch(`${stack.baseUrl}/api/spots/msgs/imgs?uuid=${image}`, {
      method: 'PUT',
      headers: auth,
      body: form,
    });
    return {
      status: response.status,
      ms: round(performance.now() - started),
      requestId: requestIdOf(await response.text()),
    };
  };
  const read = async () => {
    const started = performance.now();
    const response = await api('GET', `/api/spots/msgs/imgs?uuid=${image}`);
    const text = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      ms: round(performance.now() - started),
      requestId: response.ok ? null : requestIdOf(text.toString()),
      bytes: response.ok ? text.length : 0,
    };
  };
  const before = await put();
  stack.faults.setDown('s3', true);
  const whileDown = { reads: [await read(), await read(), await read()], upload: await put() };
  stack.faults.setDown('s3', false);
  const after = { read: await read(), upload: await put(), readAgain: await read() };
  const broken: string[] = [];
  if (before.status !== 200) broken.push(`upload before: ${before.status}`);
  for (const r of [...whileDown.reads, whileDown.upload])
    if (r.status < 500 || !r.requestId || r.ms > 9_500) broken.push(`while down: ${JSON.stringify(r)}`);
  if (after.read.status !== 200 || after.upload.status !== 200 || after.readAgain.bytes !== png.length)
    broken.push(`after: ${JSON.stringify(after)}`);
  return {
    fault: 'S3 refuses every connection (open ones cut) while a spot image is read and uploaded',
    whileDown,
    after,
    broken,
  };
}

/** SQS refuses connections: events sent meanwhile fail cleanly; events sent before and after reach the inbox once each. */
async function sqsDown(stack: BenchStack) {
  const { id, api } = await user(stack, 'faults-sqs');
  const send = async () => {
    const started = performance.now();
    const response = await api('POST', '/nc/events/test', { user_ids: [id] });
    return {
      status: response.status,
      ms: round(performance.now() - started),
      requestId: requestIdOf(await response.text()),
    };
  };
  const before = await Promise.all([send(), send(), send()]);
  stack.faults.setDown('sqs', true);
  const whileDown = [await send(), await send(), await send()];
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  stack.faults.setDown('sqs', false);
  const after = [await send(), await send()];
  const accepted = [...before, ...whileDown, ...after].filter((r) => r.status === 200).length;
  // the worker delivers what was accepted, once each. A message the worker took but could not
  // finish or delete while SQS was down comes back after the queue's visibility timeout (180 s, as
  // deployed): wait up to four minutes for it.
  const backAt = performance.now();
  let count = -1;
  let listed = -1;
  for (let i = 0; i < 480 && (count !== accepted || listed !== accepted); i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    count = (await json(await api('GET', '/nc/inbox/count'))).data.count;
    listed = ((await json(await api('GET', '/nc/inbox?page_size=100'))).data.items as unknown[]).length;
  }
  const deliveredAfterMs = round(performance.now() - backAt);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const settled = (await json(await api('GET', '/nc/inbox/count'))).data.count;
  const broken: string[] = [];
  for (const r of whileDown)
    if (r.status < 500 || !r.requestId || r.ms > 9_500) broken.push(`while down: ${JSON.stringify(r)}`);
  if (before.some((r) => r.status !== 200) || after.some((r) => r.status !== 200))
    broken.push(`before/after: ${JSON.stringify({ before, after })}`);
  if (settled !== accepted || listed !== accepted)
    broken.push(`inbox holds ${settled} (${listed} listed) of ${accepted} accepted events`);
  return {
    fault: 'SQS refuses every connection while test events are sent (3 before, 3 during, 2 after)',
    before,
    whileDown,
    after,
    accepted,
    inbox: settled,
    deliveredAfterMs,
    broken,
  };
}

/** A sensor bulk upload lands while SQS refuses connections: the job completes once SQS is back, every value once. */
async function bulkJobDuringSqsOutage(stack: BenchStack) {
  const { api } = await user(stack, 'faults-bulk');
  const SENSORS = '/sensors/v2/providers';
  const group = await json(
    await api('POST', `${SENSORS}/variablegroups`, {
      group_name: 'Estación',
      variables: [{ variable_name: 'Temperatura' }],
    }),
  );
  const variable = group.data.variables[0].variable_uuid as string;
  const timestamps = Array.from(
    { length: 2000 },
    (_, i) => `${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().slice(0, 19)}Z`,
  );
  const file = gzipSync(
    Buffer.from(
      JSON.stringify({ data: [{ variable_uuid: variable, values: timestamps.map((_, i) => i / 10), timestamps }] }),
    ),
  );
  stack.faults.setDown('sqs', true);
  const started = await api('POST', `${SENSORS}/values/bulk`, {
    size_bytes: file.length,
    md5: createHash('md5').update(file).digest('base64'),
  });
  const job = (await started.json()) as {
    data: { job_uuid: string; upload: { url: string; fields: Record<string, string> } };
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(job.data.upload.fields)) form.set(key, value);
  form.set('file', new Blob([file]), 'values.json.gz');
  const upload = await fetch(job.data.upload.url, { method: 'POST', body: form });
  await upload.arrayBuffer();
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  const status = async () =>
    (await json(await api('GET', `${SENSORS}/values/bulk/${job.data.job_uuid}`))).data.status as string;
  const whileDown = await status();
  stack.faults.setDown('sqs', false);
  const backAt = performance.now();
  let final = whileDown;
  for (let i = 0; i < 120 && !['done', 'failed'].includes(final); i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    final = await status();
  }
  const doneAfterMs = round(performance.now() - backAt);
  const values = (
    await json(
      await api(
        'GET',
        `${SENSORS}/values/variables?variable_uuid=${variable}&from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z&limit=10000`,
      ),
    )
  ).data;
  const stored = (values.timestamps as string[]).length;
  const broken: string[] = [];
  if (started.status !== 200 || upload.status >= 300) broken.push(`job ${started.status}, upload ${upload.status}`);
  if (['done', 'failed'].includes(whileDown)) broken.push(`the job was ${whileDown} while SQS was down`);
  if (final !== 'done') broken.push(`the job is ${final} after SQS came back`);
  if (stored !== timestamps.length || new Set(values.timestamps).size !== stored)
    broken.push(`${stored} values stored of ${timestamps.length}`);
  return {
    fault: 'SQS refuses every connection while a sensor bulk file (2,000 values) is uploaded; back 4 s later',
    job: started.status,
    upload: upload.status,
    whileDown,
    final,
    doneAfterMs,
    stored,
    broken,
  };
}
