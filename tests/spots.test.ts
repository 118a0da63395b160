// Spec 1, "Spots": spots, lists (filters, sample-set rule, order, paging), PATCH, DELETE, getspot,
// all, messages, tags, variables, units; offline-first idempotency; refusals.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { v1 as uuidV1, v4 as uuidV4, version as uuidVersion } from 'uuid';
import { describe, expect, it } from 'vitest';
import { keys } from '../lib/db/keys';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import {
  call,
  createField,
  eventually,
  internal,
  newUser,
  nextSecond,
  square,
  stack,
  type TestUser,
} from './helpers/api';
import { ellipsoidRectangleHectares, relative } from './helpers/geodesy';

const FIELD = square(-60.5, -33.9, 0.02);
const point = (i = 0) => `POINT(${-60.499 + i * 0.0005} -33.895)`;
const polygon = square(-60.499, -33.899, 0.004);

async function fieldOf(user?: TestUser) {
  const owner = user ?? (await newUser());
  const { fieldId, farmId } = await createField(owner, { shape: FIELD });
  return { owner, fieldId, farmId };
}

const createSpot = (user: TestUser, body: Record<string, unknown>, path = '/spots/spot') =>
  call('POST', path, { token: user.token, json: body });
const spotOk = async (user: TestUser, body: Record<string, unknown>) => {
  const response = await createSpot(user, body);
  if (response.status !== 200) throw new Error(response.text);
  return response.body as { code: string; spot_uuid: string };
};
const list = (user: TestUser, query: Record<string, string | number> = {}) =>
  call('GET', '/api/spots/spot', { token: user.token, query });
const uuids = (response: { body: any }) => response.body.data.map((s: any) => s.uuid);
const text = (extra: Record<string, unknown> = {}) => ({
  uuid: uuidV1(),
  text: 'Mancha de malezas',
  timestamp_usr: '2026-05-10T09:30:00Z',
  imgs: [],
  ...extra,
});

describe('POST /spots/spot', () => {
  it('creates a point spot (area 0) with a short code and answers {code, spot_uuid}', async () => {
    const { owner, fieldId } = await fieldOf();
    const response = await createSpot(owner, { field_id: fieldId, shape: point(), name: 'Muestra 1' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: expect.stringMatching(/^[0-9A-Z]{3}-[0-9A-Z]{3}-[0-9A-Z]{3}$/),
      spot_uuid: expect.any(String),
    });
    expect(uuidVersion(response.body.spot_uuid)).toBe(1);
    const [spot] = (await list(owner, { uuid: response.body.spot_uuid })).body.data;
    expect(spot).toEqual({
      code: response.body.code,
      uuid: response.body.spot_uuid,
      area: 0,
      farm_id: expect.any(Number),
      field_id: fieldId,
      spot_name: 'Muestra 1',
      spot_shape: point(),
      creation_ts: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      group_uuid: null,
      group_shape: null,
      sample_set_type: null,
      sample_set_uuid: null,
      sample_set_type_id: null,
      sample_set_id: null,
      spot_data: null,
      total_imgs: 0,
      total_msgs: 0,
      tags: null,
    });
  });

  it('measures polygon spots, stores tags, texts, variables and the sample set', async () => {
    const { owner, fieldId } = await fieldOf();
    const tagUuid = uuidV1();
    const img = uuidV1();
    const sampleSet = uuidV4();
    const { spot_uuid } = await spotOk(owner, {
      field_id: fieldId,
      shape: polygon,
      tags: [{ tag: 'Bajo', uuid: tagUuid }, { tag: 'Nuevo sin uuid' }],
      texts: [text({ imgs: [{ coordinate: point(), uuid: img }] })],
      data: { variables: [{ name: 'pH', unit_id: 8, value: 6.2 }] },
      sample_set: { sample_set_uuid: sampleSet, sample_set_type: 'soil_sampling' },
    });
    const [spot] = (await list(owner, { uuid: spot_uuid, sample_set_uuid: sampleSet })).body.data;
    expect(relative(spot.area, ellipsoidRectangleHectares(-33.899, 0.004))).toBeLessThan(0.0001);
    expect(spot.tags).toEqual([
      { tag: 'Bajo', uuid: tagUuid, translatable: false },
      { tag: 'Nuevo sin uuid', uuid: expect.any(String), translatable: false },
    ]);
    expect(uuidVersion(spot.tags[1].uuid)).toBe(1);
    expect(spot).toMatchObject({
      total_msgs: 1,
      total_imgs: 1,
      spot_data: { variables: [{ name: 'pH', unit_id: 8, value: 6.2 }] },
    });
    expect(spot).toMatchObject({
      sample_set_type: 'soil_sampling',
      sample_set_uuid: sampleSet,
      sample_set_type_id: 1,
      sample_set_id: expect.any(Number),
    });
  });

  it('is idempotent: the same uuid sent again returns the same spot, once', async () => {
    const { owner, fieldId } = await fieldOf();
    const uuid = uuidV1();
    const textItem = text();
    const first = await spotOk(owner, { uuid, field_id: fieldId, shape: point(), texts: [textItem] });
    const second = await spotOk(owner, { uuid, field_id: fieldId, shape: point(), texts: [textItem] });
    expect(second).toEqual(first);
    expect(first.spot_uuid).toBe(uuid);
    const spots = (await list(owner, { field_id: fieldId })).body.data;
    expect(spots).toHaveLength(1);
    expect(spots[0].total_msgs).toBe(1);
  });

  it('refuses non-v1 uuids (-4), shapes outside the field (57), other geometries (56)', async () => {
    const { owner, fieldId } = await fieldOf();
    const v4 = await createSpot(owner, { uuid: uuidV4(), field_id: fieldId, shape: point() });
    expect([v4.status, v4.body.code]).toEqual([400, -4]);
    const outside = await createSpot(owner, { field_id: fieldId, shape: 'POINT(-60.3 -33.895)' });
    expect([outside.status, outside.body.code]).toEqual([400, 57]);
    const line = await createSpot(owner, { field_id: fieldId, shape: 'LINESTRING(-60.499 -33.895,-60.498 -33.894)' });
    expect([line.status, line.body.code]).toEqual([400, 56]);
    const unit = await createSpot(owner, {
      field_id: fieldId,
      shape: point(),
      data: { variables: [{ name: 'x', unit_id: 999, value: 1 }] },
    });
    expect([unit.status, unit.body.code]).toEqual([400, -4]);
    const extra = await createSpot(owner, {
      field_id: fieldId,
      shape: point(),
      data: { variables: [{ name: 'x', unit_id: 1, value: 1, color: 'red' }] },
    });
    expect(extra.status).toBe(400);
  });

  it('needs the Management zones functionality and write access to the field', async () => {
    const noClaim = await newUser({ claims: ['FIELDS_CREATE'] });
    const own = await createField(noClaim, { shape: FIELD });
    const refused = await createSpot(noClaim, { field_id: own.fieldId, shape: point() });
    expect([refused.status, refused.body.code]).toEqual([403, 12]);
    const { owner, fieldId } = await fieldOf();
    const stranger = await newUser();
    expect((await createSpot(stranger, { field_id: fieldId, shape: point() })).status).toBe(404);
    await internal('/internal/shares', { user_id: stranger.id, field_id: fieldId, permission: 'read' });
    const readOnly = await createSpot(stranger, { field_id: fieldId, shape: point() });
    expect([readOnly.status, readOnly.body.code]).toEqual([403, 12]);
    void owner;
  });
});

describe('GET /spots/spot', () => {
  it('filters by uuid list, group, farm, field, dates and tag; newest first', async () => {
    const { owner, fieldId, farmId } = await fieldOf();
    const other = await fieldOf(owner);
    const group = uuidV4();
    const tag = uuidV1();
    const a = await spotOk(owner, { field_id: fieldId, shape: point(0), group_uuid: group });
    await nextSecond();
    const b = await spotOk(owner, { field_id: fieldId, shape: point(1), tags: [{ tag: 'T', uuid: tag }] });
    await nextSecond();
    const c = await spotOk(owner, { field_id: other.fieldId, shape: point(2), group_uuid: group });
    expect(uuids(await list(owner))).toEqual([c.spot_uuid, b.spot_uuid, a.spot_uuid]);
    expect(uuids(await list(owner, { uuid: `${a.spot_uuid},${c.spot_uuid}` }))).toEqual([c.spot_uuid, a.spot_uuid]);
    expect(uuids(await list(owner, { group_uuid: group }))).toEqual([c.spot_uuid, a.spot_uuid]);
    expect(uuids(await list(owner, { field_id: fieldId }))).toEqual([b.spot_uuid, a.spot_uuid]);
    expect(uuids(await list(owner, { farm_id: farmId }))).toEqual([b.spot_uuid, a.spot_uuid]);
    expect(uuids(await list(owner, { tag_uuid: tag }))).toEqual([b.spot_uuid]);
    expect(uuids(await list(owner, { field_id: fieldId, group_uuid: group }))).toEqual([a.spot_uuid]);
    const [spotA, spotB] = [a, b].map(async (s) => (await list(owner, { uuid: s.spot_uuid })).body.data[0]);
    const createdA = (await spotA).creation_ts;
    const createdB = (await spotB).creation_ts;
    expect(uuids(await list(owner, { date_from: createdB }))).toEqual([c.spot_uuid, b.spot_uuid]);
    expect(uuids(await list(owner, { date_to: createdA }))).toEqual([a.spot_uuid]);
    const grouped = (await list(owner, { uuid: a.spot_uuid })).body.data[0];
    expect(grouped.group_shape).toMatch(/^(POLYGON|LINESTRING)\(/);
  });

  it('lists only spots unrelated to samples unless a sample-set condition is given', async () => {
    const { owner, fieldId } = await fieldOf();
    const set = uuidV4();
    const plain = await spotOk(owner, { field_id: fieldId, shape: point(0) });
    const sampled = await spotOk(owner, {
      field_id: fieldId,
      shape: point(1),
      sample_set: { sample_set_uuid: set, sample_set_type: 'pest_monitoring' },
    });
    expect(uuids(await list(owner, { field_id: fieldId }))).toEqual([plain.spot_uuid]);
    expect(uuids(await list(owner, { field_id: fieldId, sample_set_uuid: set }))).toEqual([sampled.spot_uuid]);
    expect(uuids(await list(owner, { field_id: fieldId, sample_set_type: 'pest_monitoring' }))).toEqual([
      sampled.spot_uuid,
    ]);
    // a sample set keeps its type
    const otherType = await createSpot(owner, {
      field_id: fieldId,
      shape: point(2),
      sample_set: { sample_set_uuid: set, sample_set_type: 'soil_sampling' },
    });
    expect([otherType.status, otherType.body.code]).toEqual([400, -4]);
  });

  it('pages with page_size and page as the row offset (LIMIT page_size OFFSET page), -1 for all, and a cursor', async () => {
    const { owner, fieldId } = await fieldOf();
    const made: string[] = [];
    // no pause between creations: spots made within one second keep their order
    for (let i = 0; i < 5; i++) made.unshift((await spotOk(owner, { field_id: fieldId, shape: point(i) })).spot_uuid);
    const first = await list(owner, { field_id: fieldId, page_size: 2 });
    expect(first.body).toMatchObject({ continues: true, page: 0, page_size: 2 });
    expect(uuids(first)).toEqual(made.slice(0, 2));
    const fromRow1 = await list(owner, { field_id: fieldId, page_size: 2, page: 1 });
    expect(uuids(fromRow1)).toEqual(made.slice(1, 3));
    const fromRow2 = await list(owner, { field_id: fieldId, page_size: 2, page: 2 });
    expect(uuids(fromRow2)).toEqual(made.slice(2, 4));
    const last = await list(owner, { field_id: fieldId, page_size: 2, page: 4 });
    expect(uuids(last)).toEqual(made.slice(4));
    expect(last.body.continues).toBe(false);
    expect((await list(owner, { field_id: fieldId, page_size: 2, page: 3 })).body.continues).toBe(false);
    const past = await list(owner, { field_id: fieldId, page_size: 2, page: 9 });
    expect(past.body).toMatchObject({ continues: false, data: [] });
    const everything = await list(owner, { field_id: fieldId, page_size: -1 });
    expect(uuids(everything)).toEqual(made);
    expect(everything.body.continues).toBe(false);
    const defaults = await list(owner, { field_id: fieldId });
    expect(defaults.body).toMatchObject({ page: 0, page_size: 50 });
    const viaCursor = await list(owner, { field_id: fieldId, page_size: 2, cursor: first.body.cursor });
    expect(uuids(viaCursor)).toEqual(made.slice(2, 4));
    expect((await list(owner, { page_size: 0 })).status).toBe(400);
    expect((await list(owner, { cursor: 'garbage' })).body.code).toBe(-4);
  });

  it("never shows another user's spots", async () => {
    const { owner, fieldId } = await fieldOf();
    const spot = await spotOk(owner, { field_id: fieldId, shape: point() });
    const stranger = await newUser();
    expect((await list(stranger)).body.data).toEqual([]);
    expect((await list(stranger, { uuid: spot.spot_uuid })).body.data).toEqual([]);
  });
});

describe('POST /api/spots/getspot and /api/spots/all', () => {
  it('filters by body; all carries messages and images and pages by spots', async () => {
    const { owner, fieldId } = await fieldOf();
    const img = uuidV1();
    const a = await spotOk(owner, {
      field_id: fieldId,
      shape: point(0),
      texts: [text({ imgs: [{ coordinate: point(0), uuid: img }] }), text({ timestamp_usr: '2026-05-11T10:00:00Z' })],
    });
    const b = await spotOk(owner, { field_id: fieldId, shape: point(1) });
    const getspot = await call('POST', '/api/spots/getspot', {
      token: owner.token,
      json: { field_id: fieldId, uuid: [a.spot_uuid, b.spot_uuid], page_size: 1 },
    });
    expect(getspot.body).toMatchObject({ continues: true, page: 0, page_size: 1 });
    expect(uuids(getspot)).toEqual([b.spot_uuid]);
    const all = await call('POST', '/api/spots/all', {
      token: owner.token,
      json: { field_id: fieldId, page: 1, page_size: 1 },
    });
    expect(uuids(all)).toEqual([a.spot_uuid]);
    expect(all.body.data[0].msgs).toHaveLength(2);
    expect(all.body.data[0].msgs[0].timestamp_usr).toBe('2026-05-11T10:00:00Z');
    expect(all.body.data[0].msgs[1].imgs).toEqual([{ coordinate: point(0), uuid: img }]);
    expect((await call('POST', '/spots/getspot', { token: owner.token })).status).toBe(200);
  });
});

describe("a field's deletion and the lists by farm", () => {
  it("leaves a deleted field's spots out at once, before its clean-up ends, and leaves its farm as it was", async () => {
    const { owner, fieldId: kept, farmId } = await fieldOf();
    const { fieldId: gone } = await createField(owner, { farmId, shape: square(-60.45, -33.9, 0.02) });
    const inKept = await spotOk(owner, { field_id: kept, shape: point() });
    const inGone = await spotOk(owner, { field_id: gone, shape: 'POINT(-60.449 -33.895)' });
    // without a field: the farm's index, read whole
    const listed = async () => new Set(uuids(await list(owner)));
    expect(await listed()).toEqual(new Set([inKept.spot_uuid, inGone.spot_uuid]));
    const { endpoints, table, region } = stack();
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region, endpoint: endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }),
    );
    const farmItem = async () => (await db.send(new GetCommand({ TableName: table, Key: keys.farm(farmId) }))).Item!;
    const before = await farmItem();
    expect(before.fields_deleting).toBeUndefined();
    // a clean-up that has not ended (its field still counted by the farm): its spots are left out,
    // though still in the farm's index, and come back when the farm no longer counts it
    const deleting = (expression: string) =>
      db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.farm(farmId),
          UpdateExpression: expression,
          ExpressionAttributeValues: { ':f': new Set([kept]) },
        }),
      );
    await deleting('ADD fields_deleting :f');
    expect(await listed()).toEqual(new Set([inGone.spot_uuid]));
    await deleting('DELETE fields_deleting :f');
    expect(await listed()).toEqual(new Set([inKept.spot_uuid, inGone.spot_uuid]));

    expect((await call('GET', '/api/borrarlotes', { token: owner.token, query: { lote: gone } })).status).toBe(200);
    expect(await listed()).toEqual(new Set([inKept.spot_uuid]));
    // the clean-up's end takes the field off the farm; the farm keeps its revision (no change of it)
    const after = await eventually(async () => {
      const item = await farmItem();
      return item.fields_deleting === undefined ? item : undefined;
    }, 30_000);
    expect(after).toEqual(before);
    expect(await listed()).toEqual(new Set([inKept.spot_uuid]));
  });
});

describe('PATCH /spots/spot', () => {
  it('overwrites only what is sent, replaces tags, and answers {"spot_uuid:": uuid}', async () => {
    const { owner, fieldId } = await fieldOf();
    const keep = uuidV1();
    const { spot_uuid } = await spotOk(owner, {
      field_id: fieldId,
      shape: polygon,
      name: 'Antes',
      tags: [{ tag: 'Uno', uuid: keep }, { tag: 'Dos' }],
    });
    const response = await call('PATCH', '/spots/spot', {
      token: owner.token,
      json: { uuid: spot_uuid, name: 'Después', tags: [{ tag: 'Tres' }] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ 'spot_uuid:': spot_uuid });
    const [spot] = (await list(owner, { uuid: spot_uuid })).body.data;
    expect(spot.spot_name).toBe('Después');
    expect(spot.spot_shape).toBe(
      'POLYGON((-60.499 -33.899,-60.495 -33.899,-60.495 -33.895,-60.499 -33.895,-60.499 -33.899))',
    );
    expect(spot.tags.map((t: any) => t.tag)).toEqual(['Tres']);
    // the replaced tag is no longer in use, so it can be deleted
    expect((await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid: keep } })).status).toBe(200);
  });

  it("refuses another user's spot (404) and a read share (403, 12)", async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point() });
    const stranger = await newUser();
    expect(
      (await call('PATCH', '/spots/spot', { token: stranger.token, json: { uuid: spot_uuid, name: 'x' } })).status,
    ).toBe(404);
    await internal('/internal/shares', { user_id: stranger.id, field_id: fieldId, permission: 'read' });
    const refused = await call('PATCH', '/spots/spot', { token: stranger.token, json: { uuid: spot_uuid, name: 'x' } });
    expect([refused.status, refused.body.code]).toEqual([403, 12]);
  });
});

describe('DELETE /spots/spot', () => {
  it('answers the deleted record with the legacy keys and the shape as hex EWKB', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid, code } = await spotOk(owner, {
      field_id: fieldId,
      shape: point(),
      name: 'Borrar',
      data: { variables: [{ name: 'N', unit_id: 2, value: 12 }] },
    });
    const response = await call('DELETE', '/spots/spot', { token: owner.token, query: { uuid: spot_uuid } });
    expect(response.status).toBe(200);
    const record = response.body.spot_uuid;
    expect(Object.keys(record).sort()).toEqual(
      [
        'f_ini',
        'id_tipo_zona_gestion',
        'code',
        'uuid',
        'fecha_alta',
        'area',
        'id_muestra',
        'fecha_fin',
        'group_uuid',
        'shape',
        'datos',
        'id_lote',
        'nombre',
        'id',
      ].sort(),
    );
    expect(record).toMatchObject({
      code,
      uuid: spot_uuid,
      id_lote: fieldId,
      nombre: 'Borrar',
      area: 0,
      datos: { variables: [{ name: 'N', unit_id: 2, value: 12 }] },
    });
    // EWKB, little endian: point type with the SRID flag, SRID 4326, then x and y as doubles
    const wkb = Buffer.from(record.shape, 'hex');
    expect(wkb.readUInt8(0)).toBe(1);
    expect(wkb.readUInt32LE(1)).toBe(0x20000001);
    expect(wkb.readUInt32LE(5)).toBe(4326);
    expect([wkb.readDoubleLE(9), wkb.readDoubleLE(17)]).toEqual([-60.499, -33.895]);
    expect((await list(owner, { uuid: spot_uuid })).body.data).toEqual([]);
    expect((await call('DELETE', '/spots/spot', { token: owner.token, query: { uuid: spot_uuid } })).status).toBe(404);
  });
});

describe('/api/spots/msgs', () => {
  it('adds texts (once per uuid), lists them newest first with paging, and deletes them', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point() });
    const texts = Array.from({ length: 3 }, (_, i) =>
      text({ timestamp_usr: `2026-05-1${i}T08:00:00Z`, text: `t${i}` }),
    );
    const added = await call('POST', '/api/spots/msgs', { token: owner.token, json: { uuid: spot_uuid, texts } });
    expect(added.body.added).toHaveLength(3);
    const again = await call('POST', '/api/spots/msgs', { token: owner.token, json: { uuid: spot_uuid, texts } });
    expect(again.body.added).toEqual([]);
    const page = await call('GET', '/api/spots/msgs', { token: owner.token, query: { uuid: spot_uuid, page_size: 2 } });
    expect(page.body).toMatchObject({ continues: true, page: 0, page_size: 2 });
    expect(page.body.data.map((m: any) => m.text)).toEqual(['t2', 't1']);
    expect(page.body.data[0]).toEqual({
      uuid: texts[2]!.uuid,
      text: 't2',
      timestamp_usr: '2026-05-12T08:00:00Z',
      imgs: [],
    });
    // page is the row offset, as in the spot lists
    const fromRow1 = await call('GET', '/api/spots/msgs', {
      token: owner.token,
      query: { uuid: spot_uuid, page_size: 2, page: 1 },
    });
    expect(fromRow1.body.data.map((m: any) => m.text)).toEqual(['t1', 't0']);
    expect(fromRow1.body.continues).toBe(false);
    const all = await call('GET', '/api/spots/msgs', { token: owner.token, query: { uuid: spot_uuid, page_size: -1 } });
    expect(all.body.data).toHaveLength(3);
    expect(
      (await call('GET', '/api/spots/msgs', { token: owner.token, query: { uuid: spot_uuid } })).body.page_size,
    ).toBe(20);
    const deleted = await call('DELETE', '/api/spots/msgs', { token: owner.token, query: { uuid: texts[0]!.uuid } });
    expect(deleted.body).toEqual({ uuid: texts[0]!.uuid, deleted: true });
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].total_msgs).toBe(2);
  });

  it('validates texts: uuid v1, timestamp_usr format, image coordinates', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point() });
    for (const bad of [
      text({ uuid: uuidV4() }),
      text({ timestamp_usr: '10/05/2026' }),
      text({ imgs: [{ coordinate: 'nowhere', uuid: uuidV1() }] }),
    ]) {
      const response = await call('POST', '/api/spots/msgs', {
        token: owner.token,
        json: { uuid: spot_uuid, texts: [bad] },
      });
      expect([response.status, response.body.code]).toEqual([400, -4]);
    }
  });
});

describe('spot tags (/api/spots/tags)', () => {
  it('creates one or many; an existing uuid, even of a deleted tag, is ignored', async () => {
    const user = await newUser();
    const uuid = uuidV1();
    const one = await call('POST', '/api/spots/tags', { token: user.token, json: { tag: 'Charco', uuid } });
    expect(one.body.data).toEqual([{ tag: 'Charco', uuid, translatable: false, ignored: false }]);
    const many = await call('POST', '/api/spots/tags', {
      token: user.token,
      json: [{ tag: 'Otro nombre', uuid }, { tag: 'Sin uuid' }],
    });
    expect(many.body.data[0]).toMatchObject({ tag: 'Charco', uuid, ignored: true });
    expect(many.body.data[1]).toMatchObject({ tag: 'Sin uuid', ignored: false });
    await call('DELETE', '/api/spots/tags', { token: user.token, query: { uuid } });
    const reused = await call('POST', '/api/spots/tags', { token: user.token, json: { tag: 'Resucitado', uuid } });
    expect(reused.body.data[0].ignored).toBe(true);
    const mine = await call('GET', '/api/spots/tags', { token: user.token, query: { general: 'false' } });
    expect(mine.body.data.map((t: any) => t.tag)).toEqual(['Sin uuid']);
  });

  it('searches common and user tags with the general and user flags', async () => {
    const user = await newUser();
    await call('POST', '/api/spots/tags', { token: user.token, json: { tag: 'Propia' } });
    const both = (await call('GET', '/api/spots/tags', { token: user.token })).body.data;
    expect(both.filter((t: any) => t.translatable).length).toBeGreaterThan(5);
    expect(both.filter((t: any) => !t.translatable).map((t: any) => t.tag)).toEqual(['Propia']);
    const common = (await call('GET', '/api/spots/tags', { token: user.token, query: { user: 'false' } })).body.data;
    expect(common.every((t: any) => t.translatable)).toBe(true);
    const none = (
      await call('GET', '/api/spots/tags', { token: user.token, query: { user: 'false', general: 'false' } })
    ).body.data;
    expect(none).toEqual([]);
    const anything = (
      await call('GET', '/api/spots/tags', { token: user.token, query: { user: 'no', general: 'yes' } })
    ).body.data;
    expect(anything).toHaveLength(both.length);
  });

  it('changes and deletes only user tags, and not while a spot uses them (51)', async () => {
    const { owner, fieldId } = await fieldOf();
    const common = (await call('GET', '/api/spots/tags', { token: owner.token, query: { user: 'false' } })).body
      .data[0];
    expect(
      (await call('PATCH', '/api/spots/tags', { token: owner.token, json: { uuid: common.uuid, tag: 'x' } })).body.code,
    ).toBe(12);
    expect(
      (await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid: common.uuid } })).body.code,
    ).toBe(12);
    const uuid = uuidV1();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point(), tags: [{ tag: 'En uso', uuid }] });
    const renamed = await call('PATCH', '/api/spots/tags', { token: owner.token, json: { uuid, tag: 'Renombrada' } });
    expect(renamed.body.data).toEqual({ tag: 'Renombrada', uuid, translatable: false });
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].tags[0].tag).toBe('Renombrada');
    const inUse = await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid } });
    expect([inUse.status, inUse.body]).toEqual([
      409,
      { code: 51, info: 'It is not possible to delete a Tag that is in use' },
    ]);
    await call('DELETE', '/spots/spot', { token: owner.token, query: { uuid: spot_uuid } });
    expect((await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid } })).status).toBe(200);
    const stranger = await newUser();
    expect((await call('PATCH', '/api/spots/tags', { token: stranger.token, json: { uuid, tag: 'x' } })).status).toBe(
      404,
    );
  });
});

describe('variables and units', () => {
  it('replaces the variables of a spot; unit_id must be a unit of GET /api/utils/units', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, {
      field_id: fieldId,
      shape: point(),
      data: { variables: [{ name: 'pH', unit_id: 8, value: 6 }] },
    });
    const units = await call('GET', '/api/utils/units', { token: owner.token });
    expect(units.body.code).toBe(0);
    expect(units.body.data).toContainEqual({ unit_id: 0, name: 'unitless', symbol: '' });
    expect(units.body.data).toContainEqual({ unit_id: 2, name: 'parts per million', symbol: 'ppm' });
    const replaced = await call('PATCH', '/api/spots/variables', {
      token: owner.token,
      json: { uuid: spot_uuid, variables: [{ name: 'P', unit_id: 2, value: 18 }] },
    });
    expect(replaced.body).toEqual({ spot_uuid, variables: [{ name: 'P', unit_id: 2, value: 18 }] });
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].spot_data).toEqual({
      variables: [{ name: 'P', unit_id: 2, value: 18 }],
    });
    const badUnit = await call('PATCH', '/api/spots/variables', {
      token: owner.token,
      json: { uuid: spot_uuid, variables: [{ name: 'P', unit_id: 99, value: 1 }] },
    });
    expect([badUnit.status, badUnit.body.code]).toEqual([400, -4]);
    const negative = await call('PATCH', '/api/spots/variables', {
      token: owner.token,
      json: { uuid: spot_uuid, variables: [{ name: 'P', unit_id: -1, value: 1 }] },
    });
    expect(negative.status).toBe(400);
  });
});

describe('a request that answers an error changes nothing', () => {
  it('POST without uuid and with an invalid text: 400 -4, and no spot is created', async () => {
    const { owner, fieldId } = await fieldOf();
    const response = await createSpot(owner, {
      field_id: fieldId,
      shape: point(),
      texts: [text({ timestamp_usr: '2026-11-20 10:00:00' })],
    });
    expect([response.status, response.body.code]).toEqual([400, -4]);
    expect((await list(owner, { field_id: fieldId, page_size: -1 })).body.data).toEqual([]);
    // an impossible date is refused too, not rolled over to March
    const rolled = await createSpot(owner, {
      field_id: fieldId,
      shape: point(),
      texts: [text({ timestamp_usr: '2026-02-30T10:00:00Z' })],
    });
    expect([rolled.status, rolled.body.code]).toEqual([400, -4]);
    expect((await list(owner, { field_id: fieldId, page_size: -1 })).body.data).toEqual([]);
  });

  it('PATCH with a new name and an invalid text: 400, and the name is unchanged', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point(), name: 'Antes' });
    const response = await call('PATCH', '/spots/spot', {
      token: owner.token,
      json: { uuid: spot_uuid, name: 'Después', texts: [text({ timestamp_usr: 'ayer' })] },
    });
    expect([response.status, response.body.code]).toEqual([400, -4]);
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].spot_name).toBe('Antes');
  });

  it('refuses more texts, images or tags than one request may carry, before writing', async () => {
    const { owner, fieldId } = await fieldOf();
    const many = Array.from({ length: 11 }, () => text());
    expect((await createSpot(owner, { field_id: fieldId, shape: point(), texts: many })).status).toBe(400);
    const photos = Array.from({ length: 6 }, () => ({ coordinate: point(), uuid: uuidV1() }));
    expect(
      (await createSpot(owner, { field_id: fieldId, shape: point(), texts: [text({ imgs: photos })] })).status,
    ).toBe(400);
    const tags = Array.from({ length: 11 }, (_, i) => ({ tag: `t${i}` }));
    expect((await createSpot(owner, { field_id: fieldId, shape: point(), tags })).status).toBe(400);
    expect((await list(owner, { field_id: fieldId, page_size: -1 })).body.data).toEqual([]);
  });
});

describe('spots follow the contract', () => {
  it('accepts any non-empty sample_set_type, giving each distinct text one type id', async () => {
    const { owner, fieldId } = await fieldOf();
    const type = `muestreo de suelo ${uuidV4()}`;
    const a = await spotOk(owner, {
      field_id: fieldId,
      shape: point(0),
      sample_set: { sample_set_uuid: uuidV4(), sample_set_type: type },
    });
    const b = await spotOk(owner, {
      field_id: fieldId,
      shape: point(1),
      sample_set: { sample_set_uuid: uuidV4(), sample_set_type: type },
    });
    const c = await spotOk(owner, {
      field_id: fieldId,
      shape: point(2),
      sample_set: { sample_set_uuid: uuidV4(), sample_set_type: `${type} 2` },
    });
    const [sa, sb, sc] = await Promise.all(
      [a, b, c].map(
        async (s) =>
          (await list(owner, { uuid: s.spot_uuid, sample_set_type: s === c ? `${type} 2` : type })).body.data[0],
      ),
    );
    expect(sa.sample_set_type).toBe(type);
    expect(sa.sample_set_type_id).toEqual(sb.sample_set_type_id);
    expect(sc.sample_set_type_id).not.toEqual(sa.sample_set_type_id);
    expect(sa.sample_set_id).not.toEqual(sb.sample_set_id);
    const empty = await createSpot(owner, {
      field_id: fieldId,
      shape: point(),
      sample_set: { sample_set_uuid: uuidV4(), sample_set_type: '' },
    });
    expect([empty.status, empty.body.code]).toEqual([400, -4]);
  });

  it('creates a new tag with a generated uuid for a tag sent without uuid, even when one has that name', async () => {
    const { owner, fieldId } = await fieldOf();
    const existing = uuidV1();
    const first = await spotOk(owner, {
      field_id: fieldId,
      shape: point(0),
      tags: [{ tag: 'Malezas', uuid: existing }],
    });
    const second = await spotOk(owner, { field_id: fieldId, shape: point(1), tags: [{ tag: 'Malezas' }] });
    const tagOf = async (uuid: string) => (await list(owner, { uuid })).body.data[0].tags[0];
    expect((await tagOf(first.spot_uuid)).uuid).toBe(existing);
    const created = await tagOf(second.spot_uuid);
    expect(created.tag).toBe('Malezas');
    expect(created.uuid).not.toBe(existing);
    expect(uuidVersion(created.uuid)).toBe(1);
  });

  it("PATCH texts: the spot's texts become the list sent (removed with their images, updated, added)", async () => {
    const { owner, fieldId } = await fieldOf();
    const img = uuidV1();
    const kept = text({ text: 'queda' });
    const changed = text({ text: 'antes' });
    const removed = text({ text: 'se va', imgs: [{ coordinate: point(), uuid: img }] });
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point(), texts: [kept, changed, removed] });
    const form = new FormData();
    form.set('img', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')], { type: 'image/png' }), 'a.png');
    expect(
      (await call('PUT', '/api/spots/msgs/imgs', { token: owner.token, query: { uuid: img }, body: form })).status,
    ).toBe(200);
    const added = text({ text: 'nuevo', timestamp_usr: '2026-06-01T12:00:00Z' });
    const patch = await call('PATCH', '/spots/spot', {
      token: owner.token,
      json: {
        uuid: spot_uuid,
        texts: [kept, { ...changed, text: 'después', timestamp_usr: '2026-05-20T08:00:00Z' }, added],
      },
    });
    expect(patch.status).toBe(200);
    const messages = (
      await call('GET', '/api/spots/msgs', { token: owner.token, query: { uuid: spot_uuid, page_size: -1 } })
    ).body.data;
    expect(messages.map((m: any) => m.text)).toEqual(['nuevo', 'después', 'queda']);
    expect(messages[1]).toMatchObject({ uuid: changed.uuid, timestamp_usr: '2026-05-20T08:00:00Z' });
    const [spot] = (await list(owner, { uuid: spot_uuid })).body.data;
    expect(spot).toMatchObject({ total_msgs: 3, total_imgs: 0 });
    expect((await call('GET', '/api/spots/msgs/imgs', { token: owner.token, query: { uuid: img } })).body).toEqual({
      code: 404,
      info: 'File not found',
    });
    // texts not sent at all are left as they are
    expect(
      (await call('PATCH', '/spots/spot', { token: owner.token, json: { uuid: spot_uuid, name: 'x' } })).status,
    ).toBe(200);
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].total_msgs).toBe(3);
  });
});

describe('tenants: tags and client uuids', () => {
  it("refuses another user's private tag as unknown, never echoing its name, and its owner can still delete it", async () => {
    const victim = await newUser();
    const secret = uuidV1();
    expect(
      (
        await call('POST', '/api/spots/tags', {
          token: victim.token,
          json: { tag: 'Secreto del vecino', uuid: secret },
        })
      ).status,
    ).toBe(200);
    const { owner, fieldId } = await fieldOf();
    const attach = await createSpot(owner, { field_id: fieldId, shape: point(), tags: [{ uuid: secret }] });
    expect([attach.status, attach.body.code]).toEqual([400, -4]);
    expect(attach.text).not.toContain('Secreto');
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point(1) });
    const patch = await call('PATCH', '/spots/spot', {
      token: owner.token,
      json: { uuid: spot_uuid, tags: [{ uuid: secret }] },
    });
    expect([patch.status, patch.body.code]).toEqual([400, -4]);
    // the same uuid sent with a name is the caller's own, new tag
    const own = await call('POST', '/api/spots/tags', { token: owner.token, json: { tag: 'Mío', uuid: secret } });
    expect(own.body.data).toEqual([{ tag: 'Mío', uuid: secret, translatable: false, ignored: false }]);
    expect(own.text).not.toContain('Secreto');
    expect(
      (await call('PATCH', '/spots/spot', { token: owner.token, json: { uuid: spot_uuid, tags: [{ uuid: secret }] } }))
        .status,
    ).toBe(200);
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].tags).toEqual([
      { tag: 'Mío', uuid: secret, translatable: false },
    ]);
    expect((await call('DELETE', '/api/spots/tags', { token: victim.token, query: { uuid: secret } })).status).toBe(
      200,
    );
  });

  it("lets a tenant use a uuid another tenant chose, for spots, texts and images, without touching the other's records", async () => {
    const a = await fieldOf();
    const b = await fieldOf();
    const spot = uuidV1();
    const message = text({ imgs: [{ coordinate: point(), uuid: uuidV1() }] });
    const first = await spotOk(a.owner, {
      uuid: spot,
      field_id: a.fieldId,
      shape: point(0),
      name: 'de A',
      texts: [message],
    });
    const second = await createSpot(b.owner, {
      uuid: spot,
      field_id: b.fieldId,
      shape: point(1),
      name: 'de B',
      texts: [{ ...message, text: 'de B' }],
    });
    expect(second.status).toBe(200);
    expect(second.body.spot_uuid).toBe(spot);
    expect(second.body.code).not.toBe(first.code);
    const [ofA] = (await list(a.owner, { uuid: spot })).body.data;
    const [ofB] = (await list(b.owner, { uuid: spot })).body.data;
    expect([ofA.spot_name, ofA.field_id, ofA.total_msgs]).toEqual(['de A', a.fieldId, 1]);
    expect([ofB.spot_name, ofB.field_id, ofB.total_msgs]).toEqual(['de B', b.fieldId, 1]);
    const messagesOfA = (await call('GET', '/api/spots/msgs', { token: a.owner.token, query: { uuid: spot } })).body
      .data;
    expect(messagesOfA.map((m: any) => m.text)).toEqual([message.text]);
    // B deletes its own spot; A's is untouched
    expect((await call('DELETE', '/spots/spot', { token: b.owner.token, query: { uuid: spot } })).status).toBe(200);
    expect((await list(a.owner, { uuid: spot })).body.data).toHaveLength(1);
    // a text uuid used in another tenant's spot is added to one's own spot
    const { spot_uuid } = await spotOk(b.owner, { field_id: b.fieldId, shape: point(2) });
    const added = await call('POST', '/api/spots/msgs', {
      token: b.owner.token,
      json: { uuid: spot_uuid, texts: [{ ...message, imgs: [] }] },
    });
    expect(added.body.added).toEqual([message.uuid]);
  });

  it('answers an upload to an image one cannot change exactly as one never declared', async () => {
    const a = await fieldOf();
    const img = uuidV1();
    await spotOk(a.owner, {
      field_id: a.fieldId,
      shape: point(),
      texts: [text({ imgs: [{ coordinate: point(), uuid: img }] })],
    });
    const stranger = await newUser();
    const form = () => {
      const body = new FormData();
      body.set('img', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')], { type: 'image/png' }), 'a.png');
      return body;
    };
    const theirs = await call('PUT', '/api/spots/msgs/imgs', {
      token: stranger.token,
      query: { uuid: img },
      body: form(),
    });
    const nobodys = await call('PUT', '/api/spots/msgs/imgs', {
      token: stranger.token,
      query: { uuid: uuidV1() },
      body: form(),
    });
    expect([theirs.status, theirs.body.code, theirs.body.info]).toEqual([
      nobodys.status,
      nobodys.body.code,
      nobodys.body.info,
    ]);
    const read = await call('GET', '/api/spots/msgs/imgs', { token: stranger.token, query: { uuid: img } });
    expect([read.status, read.body]).toEqual([404, { code: 404, info: 'File not found' }]);
  });
});
