// Spec 1, "Spots": spots, lists (filters, sample-set rule, order, paging), PATCH, DELETE, getspot,
// all, messages, tags, variables, units; offline-first idempotency; refusals.
import { v1 as uuidV1, v4 as uuidV4, version as uuidVersion } from 'uuid';
import { describe, expect, it } from 'vitest';
import { call, createField, internal, newUser, square, type TestUser } from './helpers/api';

const FIELD = square(-60.5, -33.9, 0.02);
const point = (i = 0) => `POINT(${-60.499 + i * 0.0005} -33.895)`;
const polygon = square(-60.499, -33.899, 0.004);

async function fieldOf(user?: TestUser) {
  const owner = user ?? (await newUser());
  const { fieldId, farmId } = await createField(owner, { shape: FIELD });
  return { owner, fieldId, farmId };
}

const createSpot = (user: TestUser, body: Record<string, unknown>, path = '/spots/spot') => call('POST', path, { token: user.token, json: body });
const spotOk = async (user: TestUser, body: Record<string, unknown>) => {
  const response = await createSpot(user, body);
  if (response.status !== 200) throw new Error(response.text);
  return response.body as { code: string; spot_uuid: string };
};
const list = (user: TestUser, query: Record<string, string | number> = {}) => call('GET', '/api/spots/spot', { token: user.token, query });
const uuids = (response: { body: any }) => response.body.data.map((s: any) => s.uuid);
const text = (extra: Record<string, unknown> = {}) => ({ uuid: uuidV1(), text: 'Mancha de malezas', timestamp_usr: '2026-05-10T09:30:00Z', imgs: [], ...extra });

describe('POST /spots/spot', () => {
  it('creates a point spot (area 0) with a short code and answers {code, spot_uuid}', async () => {
    const { owner, fieldId } = await fieldOf();
    const response = await createSpot(owner, { field_id: fieldId, shape: point(), name: 'Muestra 1' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: expect.stringMatching(/^[0-9A-Z]{3}-[0-9A-Z]{3}-[0-9A-Z]{3}$/), spot_uuid: expect.any(String) });
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
    expect(spot.area).toBeGreaterThan(15);
    expect(spot.tags).toEqual([
      { tag: 'Bajo', uuid: tagUuid, translatable: false },
      { tag: 'Nuevo sin uuid', uuid: expect.any(String), translatable: false },
    ]);
    expect(uuidVersion(spot.tags[1].uuid)).toBe(1);
    expect(spot).toMatchObject({ total_msgs: 1, total_imgs: 1, spot_data: { variables: [{ name: 'pH', unit_id: 8, value: 6.2 }] } });
    expect(spot).toMatchObject({ sample_set_type: 'soil_sampling', sample_set_uuid: sampleSet, sample_set_type_id: 1, sample_set_id: expect.any(Number) });
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
    const unit = await createSpot(owner, { field_id: fieldId, shape: point(), data: { variables: [{ name: 'x', unit_id: 999, value: 1 }] } });
    expect([unit.status, unit.body.code]).toEqual([400, -4]);
    const extra = await createSpot(owner, { field_id: fieldId, shape: point(), data: { variables: [{ name: 'x', unit_id: 1, value: 1, color: 'red' }] } });
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
    await new Promise((r) => setTimeout(r, 1100));
    const b = await spotOk(owner, { field_id: fieldId, shape: point(1), tags: [{ tag: 'T', uuid: tag }] });
    await new Promise((r) => setTimeout(r, 1100));
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
    const sampled = await spotOk(owner, { field_id: fieldId, shape: point(1), sample_set: { sample_set_uuid: set, sample_set_type: 'pest_monitoring' } });
    expect(uuids(await list(owner, { field_id: fieldId }))).toEqual([plain.spot_uuid]);
    expect(uuids(await list(owner, { field_id: fieldId, sample_set_uuid: set }))).toEqual([sampled.spot_uuid]);
    expect(uuids(await list(owner, { field_id: fieldId, sample_set_type: 'pest_monitoring' }))).toEqual([sampled.spot_uuid]);
    const bad = await createSpot(owner, { field_id: fieldId, shape: point(2), sample_set: { sample_set_uuid: set, sample_set_type: 'unknown' } });
    expect(bad.body.code).toBe(-4);
  });

  it('pages with page and page_size (offset = page x page_size), -1 for all, and a cursor', async () => {
    const { owner, fieldId } = await fieldOf();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.unshift((await spotOk(owner, { field_id: fieldId, shape: point(i) })).spot_uuid);
      await new Promise((r) => setTimeout(r, 1050));
    }
    const first = await list(owner, { field_id: fieldId, page_size: 2 });
    expect(first.body).toMatchObject({ continues: true, page: 0, page_size: 2 });
    expect(uuids(first)).toEqual(made.slice(0, 2));
    const second = await list(owner, { field_id: fieldId, page_size: 2, page: 1 });
    expect(uuids(second)).toEqual(made.slice(2, 4));
    const last = await list(owner, { field_id: fieldId, page_size: 2, page: 2 });
    expect(uuids(last)).toEqual(made.slice(4));
    expect(last.body.continues).toBe(false);
    const past = await list(owner, { field_id: fieldId, page_size: 2, page: 9 });
    expect(past.body).toMatchObject({ continues: false, data: [] });
    const everything = await list(owner, { field_id: fieldId, page_size: -1 });
    expect(uuids(everything)).toEqual(made);
    expect(everything.body.continues).toBe(false);
    const defaults = await list(owner, { field_id: fieldId });
    expect(defaults.body).toMatchObject({ page: 0, page_size: 50 });
    const viaCursor = await list(owner, { field_id: fieldId, page_size: 2, cursor: first.body.cursor });
    expect(uuids(viaCursor)).toEqual(uuids(second));
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
    const a = await spotOk(owner, { field_id: fieldId, shape: point(0), texts: [text({ imgs: [{ coordinate: point(0), uuid: img }] }), text({ timestamp_usr: '2026-05-11T10:00:00Z' })] });
    await new Promise((r) => setTimeout(r, 1050));
    const b = await spotOk(owner, { field_id: fieldId, shape: point(1) });
    const getspot = await call('POST', '/api/spots/getspot', { token: owner.token, json: { field_id: fieldId, uuid: [a.spot_uuid, b.spot_uuid], page_size: 1 } });
    expect(getspot.body).toMatchObject({ continues: true, page: 0, page_size: 1 });
    expect(uuids(getspot)).toEqual([b.spot_uuid]);
    const all = await call('POST', '/api/spots/all', { token: owner.token, json: { field_id: fieldId, page: 1, page_size: 1 } });
    expect(uuids(all)).toEqual([a.spot_uuid]);
    expect(all.body.data[0].msgs).toHaveLength(2);
    expect(all.body.data[0].msgs[0].timestamp_usr).toBe('2026-05-11T10:00:00Z');
    expect(all.body.data[0].msgs[1].imgs).toEqual([{ coordinate: point(0), uuid: img }]);
    expect((await call('POST', '/spots/getspot', { token: owner.token })).status).toBe(200);
  });
});

describe('PATCH /spots/spot', () => {
  it('overwrites only what is sent, replaces tags, and answers {"spot_uuid:": uuid}', async () => {
    const { owner, fieldId } = await fieldOf();
    const keep = uuidV1();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: polygon, name: 'Antes', tags: [{ tag: 'Uno', uuid: keep }, { tag: 'Dos' }] });
    const response = await call('PATCH', '/spots/spot', { token: owner.token, json: { uuid: spot_uuid, name: 'Después', tags: [{ tag: 'Tres' }] } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ 'spot_uuid:': spot_uuid });
    const [spot] = (await list(owner, { uuid: spot_uuid })).body.data;
    expect(spot.spot_name).toBe('Después');
    expect(spot.spot_shape).toBe('POLYGON((-60.499 -33.899,-60.495 -33.899,-60.495 -33.895,-60.499 -33.895,-60.499 -33.899))');
    expect(spot.tags.map((t: any) => t.tag)).toEqual(['Tres']);
    // the replaced tag is no longer in use, so it can be deleted
    expect((await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid: keep } })).status).toBe(200);
  });

  it("refuses another user's spot (404) and a read share (403, 12)", async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point() });
    const stranger = await newUser();
    expect((await call('PATCH', '/spots/spot', { token: stranger.token, json: { uuid: spot_uuid, name: 'x' } })).status).toBe(404);
    await internal('/internal/shares', { user_id: stranger.id, field_id: fieldId, permission: 'read' });
    const refused = await call('PATCH', '/spots/spot', { token: stranger.token, json: { uuid: spot_uuid, name: 'x' } });
    expect([refused.status, refused.body.code]).toEqual([403, 12]);
  });
});

describe('DELETE /spots/spot', () => {
  it('answers the deleted record with the legacy keys and the shape as hex EWKB', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid, code } = await spotOk(owner, { field_id: fieldId, shape: point(), name: 'Borrar', data: { variables: [{ name: 'N', unit_id: 2, value: 12 }] } });
    const response = await call('DELETE', '/spots/spot', { token: owner.token, query: { uuid: spot_uuid } });
    expect(response.status).toBe(200);
    const record = response.body.spot_uuid;
    expect(Object.keys(record).sort()).toEqual(
      ['f_ini', 'id_tipo_zona_gestion', 'code', 'uuid', 'fecha_alta', 'area', 'id_muestra', 'fecha_fin', 'group_uuid', 'shape', 'datos', 'id_lote', 'nombre', 'id'].sort(),
    );
    expect(record).toMatchObject({ code, uuid: spot_uuid, id_lote: fieldId, nombre: 'Borrar', area: 0, datos: { variables: [{ name: 'N', unit_id: 2, value: 12 }] } });
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
    const texts = Array.from({ length: 3 }, (_, i) => text({ timestamp_usr: `2026-05-1${i}T08:00:00Z`, text: `t${i}` }));
    const added = await call('POST', '/api/spots/msgs', { token: owner.token, json: { uuid: spot_uuid, texts } });
    expect(added.body.added).toHaveLength(3);
    const again = await call('POST', '/api/spots/msgs', { token: owner.token, json: { uuid: spot_uuid, texts } });
    expect(again.body.added).toEqual([]);
    const page = await call('GET', '/api/spots/msgs', { token: owner.token, query: { uuid: spot_uuid, page_size: 2 } });
    expect(page.body).toMatchObject({ continues: true, page: 0, page_size: 2 });
    expect(page.body.data.map((m: any) => m.text)).toEqual(['t2', 't1']);
    expect(page.body.data[0]).toEqual({ uuid: texts[2]!.uuid, text: 't2', timestamp_usr: '2026-05-12T08:00:00Z', imgs: [] });
    const all = await call('GET', '/api/spots/msgs', { token: owner.token, query: { uuid: spot_uuid, page_size: -1 } });
    expect(all.body.data).toHaveLength(3);
    expect((await call('GET', '/api/spots/msgs', { token: owner.token, query: { uuid: spot_uuid } })).body.page_size).toBe(20);
    const deleted = await call('DELETE', '/api/spots/msgs', { token: owner.token, query: { uuid: texts[0]!.uuid } });
    expect(deleted.body).toEqual({ uuid: texts[0]!.uuid, deleted: true });
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].total_msgs).toBe(2);
  });

  it('validates texts: uuid v1, timestamp_usr format, image coordinates', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point() });
    for (const bad of [text({ uuid: uuidV4() }), text({ timestamp_usr: '10/05/2026' }), text({ imgs: [{ coordinate: 'nowhere', uuid: uuidV1() }] })]) {
      const response = await call('POST', '/api/spots/msgs', { token: owner.token, json: { uuid: spot_uuid, texts: [bad] } });
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
    const many = await call('POST', '/api/spots/tags', { token: user.token, json: [{ tag: 'Otro nombre', uuid }, { tag: 'Sin uuid' }] });
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
    const none = (await call('GET', '/api/spots/tags', { token: user.token, query: { user: 'false', general: 'false' } })).body.data;
    expect(none).toEqual([]);
    const anything = (await call('GET', '/api/spots/tags', { token: user.token, query: { user: 'no', general: 'yes' } })).body.data;
    expect(anything).toHaveLength(both.length);
  });

  it('changes and deletes only user tags, and not while a spot uses them (51)', async () => {
    const { owner, fieldId } = await fieldOf();
    const common = (await call('GET', '/api/spots/tags', { token: owner.token, query: { user: 'false' } })).body.data[0];
    expect((await call('PATCH', '/api/spots/tags', { token: owner.token, json: { uuid: common.uuid, tag: 'x' } })).body.code).toBe(12);
    expect((await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid: common.uuid } })).body.code).toBe(12);
    const uuid = uuidV1();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point(), tags: [{ tag: 'En uso', uuid }] });
    const renamed = await call('PATCH', '/api/spots/tags', { token: owner.token, json: { uuid, tag: 'Renombrada' } });
    expect(renamed.body.data).toEqual({ tag: 'Renombrada', uuid, translatable: false });
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].tags[0].tag).toBe('Renombrada');
    const inUse = await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid } });
    expect([inUse.status, inUse.body]).toEqual([409, { code: 51, info: 'It is not possible to delete a Tag that is in use' }]);
    await call('DELETE', '/spots/spot', { token: owner.token, query: { uuid: spot_uuid } });
    expect((await call('DELETE', '/api/spots/tags', { token: owner.token, query: { uuid } })).status).toBe(200);
    const stranger = await newUser();
    expect((await call('PATCH', '/api/spots/tags', { token: stranger.token, json: { uuid, tag: 'x' } })).status).toBe(404);
  });
});

describe('variables and units', () => {
  it('replaces the variables of a spot; unit_id must be a unit of GET /api/utils/units', async () => {
    const { owner, fieldId } = await fieldOf();
    const { spot_uuid } = await spotOk(owner, { field_id: fieldId, shape: point(), data: { variables: [{ name: 'pH', unit_id: 8, value: 6 }] } });
    const units = await call('GET', '/api/utils/units', { token: owner.token });
    expect(units.body.code).toBe(0);
    expect(units.body.data).toContainEqual({ unit_id: 0, name: 'unitless', symbol: '' });
    expect(units.body.data).toContainEqual({ unit_id: 2, name: 'parts per million', symbol: 'ppm' });
    const replaced = await call('PATCH', '/api/spots/variables', { token: owner.token, json: { uuid: spot_uuid, variables: [{ name: 'P', unit_id: 2, value: 18 }] } });
    expect(replaced.body).toEqual({ spot_uuid, variables: [{ name: 'P', unit_id: 2, value: 18 }] });
    expect((await list(owner, { uuid: spot_uuid })).body.data[0].spot_data).toEqual({ variables: [{ name: 'P', unit_id: 2, value: 18 }] });
    const badUnit = await call('PATCH', '/api/spots/variables', { token: owner.token, json: { uuid: spot_uuid, variables: [{ name: 'P', unit_id: 99, value: 1 }] } });
    expect([badUnit.status, badUnit.body.code]).toEqual([400, -4]);
    const negative = await call('PATCH', '/api/spots/variables', { token: owner.token, json: { uuid: spot_uuid, variables: [{ name: 'P', unit_id: -1, value: 1 }] } });
    expect(negative.status).toBe(400);
  });
});
