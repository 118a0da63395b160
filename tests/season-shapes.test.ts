// Spec 2, "Season shapes": POST /api/fields/v2/shapes, GET .../shape/lock, GET .../shape/limits,
// the reprocessing state machine (walked through the real queue worker), limits and quotas.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  call,
  createField,
  createUser,
  eventually,
  IMAGERY_AREA,
  internal,
  newUser,
  square,
  stack,
  type TestUser,
} from './helpers/api';
import { ellipsoidRectangleHectares, relative } from './helpers/geodesy';

const YEAR = new Date().getUTCFullYear();
// Fields sit where the test stack has imagery (a new shape's images are reprocessed, holding the
// lock meanwhile), at (X, Y); 0.005° of latitude is ~550 m, inside the 1 km expansion limit.
const X = IMAGERY_AREA[0] + 0.5;
const Y = IMAGERY_AREA[1] + 0.1;
const BASE = square(X, Y, 0.01);
const GROWN = `POLYGON((${X - 0.003} ${Y - 0.003},${X + 0.013} ${Y - 0.003},${X + 0.013} ${Y + 0.013},${X - 0.003} ${Y + 0.013},${X - 0.003} ${Y - 0.003}))`;
const SHRUNK = square(X + 0.002, Y + 0.002, 0.006);

const round = (value: number) => Number(value.toFixed(9));
const coordinatesOf = (wkt: string) =>
  [...wkt.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m) => [round(Number(m[1])), round(Number(m[2]))]);

const post = (user: TestUser, body: unknown) =>
  call('POST', '/api/fields/v2/shapes', { token: user.token, json: body });
const lock = (user: TestUser, fieldId: number) =>
  call('GET', '/api/fields/v2/shape/lock', { token: user.token, query: { field_id: fieldId } });
const currentPolygon = async (user: TestUser, fieldId: number) => {
  const listing = (await call('GET', '/api/getfields', { token: user.token })).body;
  for (const farm of Object.values(listing.user.farms) as any[]) {
    if (farm.fields[fieldId]) return farm.fields[fieldId].shapes.current;
  }
  throw new Error('field not listed');
};

// The lock is released once the new shape's imagery is stored: behind the other fields' scenes of
// the whole test run on the imagery queue.
async function waitUntilAllowed(user: TestUser, fieldId: number, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const response = await lock(user, fieldId);
    if (response.status === 200) return response;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the reprocessing lock was not released');
}

describe('the reprocessing state machine', () => {
  it('allowed -> reprocessing (POST refused, lock says so) -> allowed again when the worker finishes', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    const idle = await lock(user, fieldId);
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ info: 'allowed', data: { images_reprocessing: false } });

    // once the field has satellite dates, a new shape must cut them again
    await eventually(
      async () =>
        (await call('GET', '/api/layers/dates/v3', { token: user.token, query: { field_id: fieldId } })).body?.layers
          ?.sentinel2?.dates?.length
          ? true
          : undefined,
      90_000,
      250,
    );
    const first = await post(user, { field_id: fieldId, campaign: YEAR, shape: GROWN });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ info: 'shape was created', data: { images_reprocessing: true } });

    const busy = await post(user, { field_id: fieldId, campaign: YEAR, shape: BASE });
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({
      code: 'REPROCESSING',
      msg: 'The previous shape is still being processed',
      detail: expect.any(String),
    });
    const locked = await lock(user, fieldId);
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('REPROCESSING');

    const released = await waitUntilAllowed(user, fieldId);
    expect(released.body).toEqual({ info: 'allowed', data: { images_reprocessing: false } });
    const again = await post(user, { field_id: fieldId, campaign: YEAR, shape: BASE });
    expect(again.status).toBe(200);
  }, 150_000);

  it('allowed -> allowed when no image needs cutting again (a campaign without satellite dates, the same polygon)', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    const response = await post(user, { field_id: fieldId, campaign: YEAR + 1, shape: SHRUNK });
    expect(response.body).toEqual({ info: 'shape was created', data: { images_reprocessing: false } });
    expect((await lock(user, fieldId)).status).toBe(200);
    const same = await post(user, { field_id: fieldId, campaign: YEAR + 1, shape: SHRUNK });
    expect(same.body).toEqual({ info: 'shape was created', data: { images_reprocessing: false } });
  });

  it('releases a lock whose job died once it expires (bounded reprocessing)', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    const { endpoints, table } = stack();
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: 'us-east-1',
        endpoint: endpoints.dynamodb,
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      }),
    );
    const lockItem = (expiresAt: number) => ({
      pk: `FIELD#${fieldId}`,
      sk: 'SHAPELOCK',
      kind: 'shape_lock',
      lock_id: 'dead-job',
      campaign: YEAR,
      started_at: 0,
      expires_at: expiresAt,
    });
    await db.send(new PutCommand({ TableName: table, Item: lockItem(Date.now() + 600_000) }));
    expect((await lock(user, fieldId)).status).toBe(409);
    await db.send(new PutCommand({ TableName: table, Item: lockItem(Date.now() - 1000) }));
    expect((await lock(user, fieldId)).status).toBe(200);
    expect((await post(user, { field_id: fieldId, campaign: YEAR, shape: SHRUNK })).status).toBe(200);
    db.destroy();
  });
});

describe('POST /api/fields/v2/shapes', () => {
  it('applies a shape to its campaign and the later ones; getfields shows the current one', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    await post(user, { field_id: fieldId, campaign: YEAR + 1, shape: SHRUNK });
    expect(coordinatesOf((await currentPolygon(user, fieldId)).polygon)).toEqual(coordinatesOf(BASE));
    await post(user, { field_id: fieldId, campaign: YEAR - 1, shape: SHRUNK });
    const current = await currentPolygon(user, fieldId);
    expect(coordinatesOf(current.polygon)).toEqual(coordinatesOf(SHRUNK));
    expect(relative(current.area, ellipsoidRectangleHectares(Y + 0.002, 0.006))).toBeLessThan(0.0001);
  });

  it('replaces the shape of a campaign that already has one', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    await post(user, { field_id: fieldId, campaign: YEAR, shape: SHRUNK });
    const other = square(X + 0.003, Y + 0.003, 0.004);
    await post(user, { field_id: fieldId, campaign: YEAR, shape: other });
    expect(coordinatesOf((await currentPolygon(user, fieldId)).polygon)).toEqual(coordinatesOf(other));
  });

  it('INVALID_GEOMETRY for unreadable, non-polygon and invalid shapes', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    for (const shape of [
      'garbage',
      'POINT(-60.5 -33.9)',
      'POLYGON((-60.5 -33.9,-60.49 -33.89,-60.49 -33.9,-60.5 -33.89,-60.5 -33.9))',
    ]) {
      const response = await post(user, { field_id: fieldId, campaign: YEAR, shape });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_GEOMETRY', msg: 'The provided geometry is invalid' });
    }
  });

  it('takes a MULTIPOLYGON of one part as that polygon (the form shape/limits answers); several parts are INVALID_GEOMETRY', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    const inner = (wkt: string) => wkt.slice('POLYGON('.length, -1);
    const applied = await post(user, { field_id: fieldId, campaign: YEAR, shape: `MULTIPOLYGON((${inner(SHRUNK)}))` });
    expect(applied.status).toBe(200);
    expect(coordinatesOf((await currentPolygon(user, fieldId)).polygon)).toEqual(coordinatesOf(SHRUNK));
    const parts = `MULTIPOLYGON((${inner(SHRUNK)}),(${inner(square(X + 0.0005, Y + 0.0005, 0.0005))}))`;
    // had the field's first satellite dates come before the shape, it is reprocessing them, and any
    // shape is refused with REPROCESSING until they are cut again (the spec's state table): wait for it
    await eventually(async () => ((await lock(user, fieldId)).status === 200 ? true : undefined), 120_000, 250);
    const refused = await post(user, { field_id: fieldId, campaign: YEAR, shape: parts });
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_GEOMETRY']);
  }, 150_000);

  it('SHAPE_EXPANSION_LIMIT for a shape beyond 1 km of the field', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    const response = await post(user, { field_id: fieldId, campaign: YEAR, shape: square(X + 0.05, Y, 0.01) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'SHAPE_EXPANSION_LIMIT',
      msg: 'The provided shape exceeds the defined expansion limits',
    });
  });

  it('MAX_SHAPE_AREA_EXCEEDED for a shape above the admitted hectares', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(-61, -35, 0.09) });
    const response = await post(user, { field_id: fieldId, campaign: YEAR, shape: square(-61.008, -35.008, 0.106) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'MAX_SHAPE_AREA_EXCEEDED',
      msg: 'The requested Shape exceeds area limits',
    });
  });

  it('MAX_SHAPE_AREA_EXCEEDED for a sliver whose imagery grid would pass the bound, small as its area is; nothing is written', async () => {
    const user = await newUser();
    // a field that is itself a sliver just under the bound (a diagonal of about 18.5 km, 10 m wide)
    const [x, y] = [-61, -34];
    const field = `POLYGON((${x} ${y},${x + 0.128} ${y + 0.128},${x + 0.128} ${y + 0.1281},${x} ${y + 0.0001},${x} ${y}))`;
    const { fieldId } = await createField(user, { shape: field });
    const before = await currentPolygon(user, fieldId);
    // the same sliver, under 1 km longer at each end: about 20.2 km of diagonal, a grid over 4,000,000 pixels
    const e = 0.006;
    const longer = `POLYGON((${x - e} ${y - e},${x + 0.128 + e} ${y + 0.128 + e},${x + 0.128 + e} ${y + 0.1281 + e},${x - e} ${y + 0.0001 - e},${x - e} ${y - e}))`;
    const response = await post(user, { field_id: fieldId, campaign: YEAR, shape: longer });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'MAX_SHAPE_AREA_EXCEEDED' });
    expect(await currentPolygon(user, fieldId)).toEqual(before);
  });

  it('NOT_ENOUGH_QUOTA when the larger shape exceeds the user quota', async () => {
    const user = await newUser({ hectare_quota: 150 });
    const { fieldId } = await createField(user, { shape: BASE });
    const response = await post(user, { field_id: fieldId, campaign: YEAR, shape: GROWN });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'NOT_ENOUGH_QUOTA', msg: 'User has exceeded the assigned quota' });
  });

  it('NOT_ENOUGH_QUOTA_WORKSPACE when it exceeds the workspace quota', async () => {
    const admin = await createUser({ hectare_quota: 150 });
    const member = await newUser({ space_id: admin.space_id });
    const { fieldId } = await createField(member, { shape: BASE });
    const response = await post(member, { field_id: fieldId, campaign: YEAR, shape: GROWN });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      code: 'NOT_ENOUGH_QUOTA_WORKSPACE',
      msg: 'Workspace has exceeded the assigned quota',
    });
  });

  it('counts the largest shape of the field against the quota, and gives hectares back when it shrinks', async () => {
    const user = await newUser({ hectare_quota: 300 });
    const { fieldId } = await createField(user, { shape: BASE });
    expect((await post(user, { field_id: fieldId, campaign: YEAR, shape: GROWN })).status).toBe(200);
    await waitUntilAllowed(user, fieldId);
    // the grown shape (263 ha) counts, so a second field of 103 ha does not fit under 300 ha ...
    const second = await call('POST', '/api/agregarlote', {
      token: user.token,
      form: { nombre: 'b', shape: square(-60.3, -33.9), nombrecampo: 'Quota' },
    });
    expect(second.body.code).toBe(13);
    // ... until the grown shape is replaced by a small one: the field counts 103 ha again
    expect((await post(user, { field_id: fieldId, campaign: YEAR, shape: SHRUNK })).status).toBe(200);
    const third = await call('POST', '/api/agregarlote', {
      token: user.token,
      form: { nombre: 'b', shape: square(-60.3, -33.9), nombrecampo: 'Quota' },
    });
    expect(third.status).toBe(200);
  }, 150_000);

  it('needs permission 220 over the field and the SHAPES_EDIT options', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: BASE });
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    const refused = await post(reader, { field_id: fieldId, campaign: YEAR, shape: SHRUNK });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PERMISSION_DENIED');
    const editor = await newUser();
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    expect((await post(editor, { field_id: fieldId, campaign: YEAR, shape: SHRUNK })).status).toBe(200);
    const stranger = await newUser();
    const hidden = await post(stranger, { field_id: fieldId, campaign: YEAR, shape: SHRUNK });
    expect([hidden.status, hidden.body.code]).toEqual([404, 'FIELD_NOT_FOUND']);
    const noClaim = await newUser({ claims: ['FIELDS_CREATE'] });
    const own = await createField(noClaim, { shape: BASE });
    const claimless = await post(noClaim, { field_id: own.fieldId, campaign: YEAR, shape: SHRUNK });
    expect([claimless.status, claimless.body.code]).toEqual([403, 'PERMISSION_DENIED']);
  });

  it('validates field_id and campaign (minimum 1) and the shape', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    for (const body of [
      { field_id: 0, campaign: YEAR, shape: SHRUNK },
      { field_id: fieldId, campaign: 0, shape: SHRUNK },
      { field_id: fieldId, campaign: YEAR },
    ]) {
      const response = await post(user, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_PARAMETERS');
    }
    const expired = await call('POST', '/api/fields/v2/shapes', { json: {} });
    expect([expired.status, expired.body.code]).toEqual([401, 'INVALID_TOKEN']);
  });
});

describe('GET /api/fields/v2/shape/limits', () => {
  const coordinates = (wkt: string) =>
    [...wkt.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);

  it('gives the allowed area in EPSG 4326 and 3857 as MULTIPOLYGONs about 1 km around the field', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: BASE });
    const response = await call('GET', '/api/fields/v2/shape/limits', {
      token: user.token,
      query: { field_id: fieldId },
    });
    expect(response.status).toBe(200);
    expect(response.body.info).toBe('shape expansion limits retrieved');
    const { limits_4326, limits_3857 } = response.body.data;
    expect(limits_4326).toMatch(/^MULTIPOLYGON\(\(\(/);
    expect(limits_3857).toMatch(/^MULTIPOLYGON\(\(\(/);
    const lats = coordinates(limits_4326).map(([, y]) => y);
    // 1 km is ~0.009 degrees of latitude
    expect(Math.min(...lats)).toBeCloseTo(Y - 0.009, 3);
    expect(Math.max(...lats)).toBeCloseTo(Y + 0.01 + 0.009, 3);
    const xs = coordinates(limits_3857).map(([x]) => x);
    const R = 6378137;
    const westLon = X - 1000 / (111_320 * Math.cos((-(Y + 0.005) * Math.PI) / 180));
    expect(Math.min(...xs)).toBeCloseTo((westLon * Math.PI * R) / 180, -2);
  });

  it('is refused (404) for a field the user cannot read', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: BASE });
    const stranger = await newUser();
    const response = await call('GET', '/api/fields/v2/shape/limits', {
      token: stranger.token,
      query: { field_id: fieldId },
    });
    expect([response.status, response.body.code]).toEqual([404, 'FIELD_NOT_FOUND']);
  });
});
