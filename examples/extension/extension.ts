// An example extension on the typed client (clients/typescript): it mints a token through the
// internal API (as the platform does for an installed extension), subscribes a webhook receiver of
// its own to the user's events, lists the user's fields (making one if there is none), records a
// weed patch as a spot with a photo, records a planned herbicide application, reads the field's NDVI
// series, shows the signed events its receiver got, and catches up with the change feed. See README.md here to run it against `npm start`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { v1 as uuidV1 } from 'uuid';
import { createSurcoClient, form, multipart, syncChanges } from '../../clients/typescript/index';

export interface ExampleOptions {
  baseUrl: string;
  internalKey: string;
  log?: (line: string) => void;
  /** How long to wait for the field's first satellite dates (a new field's come within a minute locally). */
  imageryWaitMs?: number;
  /** Where the field it makes lies: its south-west corner, [lon, lat] (default: in the Pampas, -60.62, -33.95). */
  fieldAt?: readonly [number, number];
}

/** A 1 x 1 PNG: the photo of the patch. */
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const must = <T>(result: { data?: T; error?: unknown; response: Response }, what: string): T => {
  if (result.data === undefined)
    throw new Error(`${what}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
};

/**
 * The extension's webhook receiver: checks each request's signature (HMAC-SHA256 of "<t>.<body>"
 * with the subscription's secret, docs/integrations.md) and keeps the events. Locally on loopback; in
 * production an https URL of the extension's own.
 */
async function webhookReceiver() {
  let secret = '';
  const events: Array<{ name: string; verified: boolean; data: Record<string, unknown> }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['surco-signature'])) ?? [];
      const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
      const verified =
        Boolean(v1) &&
        timingSafeEqual(Buffer.from(v1!, 'hex'), expected) &&
        Math.abs(Date.now() / 1000 - Number(t)) < 300;
      const parsed = JSON.parse(body) as { event_name: string; data: Record<string, unknown> };
      events.push({ name: parsed.event_name, verified, data: parsed.data });
      res.writeHead(verified ? 200 : 401).end(); // a 2xx only for a genuine delivery
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/surco`,
    events,
    setSecret: (value: string) => void (secret = value),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export async function runExample({
  baseUrl,
  internalKey,
  log = console.log,
  imageryWaitMs = 90_000,
  fieldAt: [lon, lat] = [-60.62, -33.95],
}: ExampleOptions) {
  // 1. The platform installs the extension for a user: a user and a token (every claim)
  const platform = createSurcoClient({ baseUrl, internalKey });
  const user = must(
    await platform.POST('/internal/users', { body: { user_name: `example-${Date.now()}` } }),
    'user',
  ).data;
  const token = must(
    await platform.POST('/internal/tokens', {
      body: { user_id: user.id, extension_id: 'example-extension', claims: ['*'] },
    }),
    'token',
  ).data;
  const surco = createSurcoClient({ baseUrl, token: token.access_token });
  log(`token for user ${user.id}, valid until ${token.expires_at}`);

  // 1a. The change feed: its cursor of now, taken before reading anything (docs/integrations.md);
  // step 7 catches up from it, as an offline client does when it comes back
  const start = await syncChanges(surco, 'now');
  if (start.expired) throw new Error('a cursor of now cannot be expired');

  // 1b. A webhook instead of polling: the user's new fields, spots and labours, signed
  const receiver = await webhookReceiver();
  const subscription = must(
    await surco.POST('/api/webhooks', {
      body: { url: receiver.url, events: ['FIELD_CREATED.V1', 'SPOT_CREATED.V1', 'LABOUR_CHANGED.V1'] },
    }),
    'webhook',
  ).data;
  receiver.setSecret(subscription.secret);
  log(`webhook ${subscription.subscription_uuid} -> ${receiver.url}`);

  // 2. The user's fields (a new user has none: make one)
  const shape = `POLYGON((${lon} ${lat},${lon + 0.01} ${lat},${lon + 0.01} ${lat + 0.01},${lon} ${lat + 0.01},${lon} ${lat}))`;
  must(
    await surco.POST('/api/agregarlote', form({ nombre: 'Lote Norte', nombrecampo: 'La Esperanza', shape })),
    'field',
  );
  const farms = Object.values(must(await surco.GET('/api/getfields'), 'fields').user.farms);
  const fields = farms.flatMap((farm) =>
    Object.entries(farm.fields).map(([id, field]) => ({ id: Number(id), name: field.name, farm: farm.name })),
  );
  for (const field of fields) log(`field ${field.id}: ${field.name} (${field.farm})`);
  const fieldId = fields[0]!.id;

  // 3. A weed patch as a spot, with a note and its photo (declared, then uploaded)
  const photo = uuidV1();
  const point = `POINT(${lon + 0.005} ${lat + 0.005})`;
  const spot = must(
    await surco.POST('/spots/spot', {
      body: {
        field_id: fieldId,
        shape: point,
        name: 'Sorgo de Alepo',
        texts: [
          {
            uuid: uuidV1(),
            text: 'Manchón en la cabecera',
            timestamp_usr: `${new Date().toISOString().slice(0, 19)}Z`,
            imgs: [{ coordinate: point, uuid: photo }],
          },
        ],
      },
    }),
    'spot',
  );
  const uploaded = await surco.PUT('/api/spots/msgs/imgs', {
    params: { query: { uuid: photo } },
    ...multipart({ img: { bytes: PHOTO, filename: 'mancha.png', type: 'image/png' } }),
  });
  if (!uploaded.response.ok) throw new Error(`photo: HTTP ${uploaded.response.status}`);
  log(`spot ${spot.spot_uuid} with photo ${photo}`);

  // 4. A planned herbicide application on the field
  const labour = must(
    await surco.POST('/activities/labour', {
      body: {
        labour_type_id: 1,
        yeargroup: new Date().getUTCFullYear(),
        date: new Date().toISOString().slice(0, 10),
        field_id: fieldId,
        inputs: [{ name: 'Glifosato', dose: 2, unit: 'L/ha' }],
      },
    }),
    'labour',
  );
  log(`labour ${labour.data.uuid}`);

  // 4b. No lost updates (docs/integrations.md, ETags): change the labour only if nobody changed it
  // since it was read. Here another client (the user on the web, say) changes it in between: the
  // PATCH with the old ETag answers 412 and writes nothing; the extension reads it again and redoes
  // its change on what is there now.
  const labourPath = { params: { path: { labour_uuid: labour.data.uuid } } };
  const read = await surco.GET('/activities/labour/{labour_uuid}', labourPath);
  let etag = read.response.headers.get('etag') ?? '*';
  const someoneElse = createSurcoClient({ baseUrl, token: token.access_token });
  must(
    await someoneElse.PATCH('/activities/labour/{labour_uuid}', { ...labourPath, body: { observations: 'viento' } }),
    'the other change',
  );
  let conflicts = 0;
  for (let attempt = 1; attempt <= 5; attempt++) {
    const changed = await surco.PATCH('/activities/labour/{labour_uuid}', {
      params: { ...labourPath.params, header: { 'If-Match': etag } },
      body: { surface: 25 },
    });
    if (changed.response.status !== 412) {
      must(changed, 'labour change');
      break;
    }
    conflicts++;
    const again = await surco.GET('/activities/labour/{labour_uuid}', labourPath);
    etag = again.response.headers.get('etag') ?? '*';
  }
  const now = must(await surco.GET('/activities/labour/{labour_uuid}', labourPath), 'labour').data;
  log(`labour changed after ${conflicts} conflict(s): surface ${now.surface}, observations ${now.observations}`);

  // 5. The field's NDVI: its satellite dates come from the scene source, then the series
  const deadline = Date.now() + imageryWaitMs;
  let ndvi: Array<{ date: string; ndvi_mean: number }> = [];
  while (Date.now() < deadline) {
    ndvi = must(await surco.GET('/api/fields/ndvi', { params: { query: { field_id: fieldId } } }), 'ndvi').ndvi;
    if (ndvi.length) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  log(
    `NDVI of field ${fieldId}: ${ndvi.map((p) => `${p.date} ${p.ndvi_mean.toFixed(2)}`).join(', ') || 'no clear date yet'}`,
  );

  // 6. What the webhook brought (deliveries arrive within seconds)
  const until = Date.now() + 20_000;
  while (receiver.events.length < 5 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
  for (const event of receiver.events)
    log(
      `webhook: ${event.name} ${event.verified ? 'signature verified' : 'BAD SIGNATURE'} ${JSON.stringify(event.data)}`,
    );
  await receiver.close();
  must(
    await surco.DELETE('/api/webhooks', { params: { query: { subscription_uuid: subscription.subscription_uuid } } }),
    'unsubscribe',
  );

  // 7. Catching up: every change since the cursor of step 1a, in order (a webhook missed costs nothing)
  const changes: Array<{ kind: string; change: string; uuid: string | null }> = [];
  let cursor = start.cursor;
  const feedUntil = Date.now() + 10_000;
  while (Date.now() < feedUntil) {
    const sync = await syncChanges(surco, cursor);
    if (sync.expired) break; // older than the retention: read the lists again
    changes.push(...sync.changes.map(({ kind, change, uuid }) => ({ kind, change, uuid })));
    cursor = sync.cursor;
    if (changes.some((c) => c.kind === 'labour' && c.change === 'changed')) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (const c of changes) log(`change: ${c.kind} ${c.change} ${c.uuid ?? ''}`);
  return {
    userId: user.id,
    fieldId,
    spotUuid: spot.spot_uuid as string,
    labourUuid: labour.data.uuid as string,
    labour: { surface: now.surface, observations: now.observations, conflicts },
    ndvi,
    webhookEvents: receiver.events,
    changes,
  };
}
