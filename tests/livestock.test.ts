// Spec 1, "Livestock": paddocks, herds, categories, paddock moves, exits, exit types, and the
// invariants (head counts never below zero, weight units, one transaction per uuid, atomicity).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, createField, internal, newUser, square, type TestUser } from './helpers/api';
import { ellipsoidRectangleHectares, relative } from './helpers/geodesy';

const FIELD_SHAPE = square(-60.5, -33.9, 0.02);
const PADDOCK_A = square(-60.499, -33.899, 0.008);
const PADDOCK_B = square(-60.489, -33.889, 0.008);
const NOW = '2026-05-10T12:00:00Z';
const uuid = () => randomUUID();

const post = (user: TestUser, path: string, json: unknown) =>
  call('POST', `/livestock${path}`, { token: user.token, json });

async function setup(user?: TestUser) {
  const owner = user ?? (await newUser());
  const { fieldId } = await createField(owner, { shape: FIELD_SHAPE });
  const a = (await post(owner, '/paddock', { field_id: fieldId, shape: PADDOCK_A, date: NOW, name: 'Potrero A' })).body
    .data;
  const b = (await post(owner, '/paddock', { field_id: fieldId, shape: PADDOCK_B, date: NOW, name: 'Potrero B' })).body
    .data;
  return { owner, fieldId, a, b };
}

const herdIn = async (
  user: TestUser,
  fieldId: number,
  paddockUuid: string | null,
  extra: Record<string, unknown> = {},
) => {
  const response = await post(user, '/herd', {
    type_id: 4,
    animal_count: 10,
    paddock_uuid: paddockUuid,
    weight: 4000,
    weight_unit: 'kg',
    herd_name: 'Novillos 1',
    field_id: fieldId,
    ...extra,
  });
  if (response.status !== 200) throw new Error(response.text);
  return response.body.data;
};

const herds = async (user: TestUser) =>
  (await call('GET', '/livestock/herd', { token: user.token })).body.data as any[];
const herd = async (user: TestUser, herdUuid: string) => (await herds(user)).find((h) => h.herd_uuid === herdUuid);
const exit = (user: TestUser, origin: string, extra: Record<string, unknown> = {}) =>
  post(user, '/transaction/exit', {
    destination_type: 4,
    animal_count: 2,
    weight: 800,
    weight_unit: 'kg',
    origin_herd_uuid: origin,
    destination_herd_uuid: origin,
    transaction_uuid: uuid(),
    transaction_date: NOW,
    ...extra,
  });

describe('the livestock module', () => {
  it('is required on every endpoint: 403 MODULE_DISABLED', async () => {
    const user = await newUser({ claims: ['FIELDS_CREATE'] });
    for (const path of [
      '/livestock/paddock',
      '/livestock/herd',
      '/livestock/herd/categories',
      '/api/livestock/transaction/exit/types',
    ]) {
      const response = await call('GET', path, { token: user.token });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ res: 'error', code: 'MODULE_DISABLED', info: expect.any(String) });
    }
  });

  it('answers the read-only lists exactly as the spec tables', async () => {
    const user = await newUser();
    const categories = await call('GET', '/livestock/herd/categories', { token: user.token });
    expect(categories.body.data).toEqual([
      { id: 1, name: 'Terneros' },
      { id: 2, name: 'Terneras' },
      { id: 3, name: 'Novillito' },
      { id: 4, name: 'Novillos' },
      { id: 5, name: 'Vaquillonas' },
      { id: 6, name: 'Vacas Invernada' },
      { id: 7, name: 'Vacas Cría' },
      { id: 8, name: 'Toros' },
    ]);
    const types = await call('GET', '/api/livestock/transaction/exit/types', { token: user.token });
    expect(types.body.data).toEqual([
      { id: 1, type: 'Muertes' },
      { id: 2, type: 'Salida hacia otro rodeo' },
      { id: 3, type: 'Faena' },
      { id: 4, type: 'Venta' },
      { id: 5, type: 'Cambio de campo' },
      { id: 6, type: 'Robo' },
      { id: 7, type: 'Otro' },
    ]);
  });
});

describe('paddocks', () => {
  it('creates a paddock inside the field with its area in hectares and creation date', async () => {
    const { owner, fieldId, a } = await setup();
    expect(a).toEqual({
      paddock_id: expect.any(Number),
      paddock_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Potrero A',
      creation_ts: '2026-05-10',
      shape: expect.stringMatching(/^POLYGON\(\(/),
      area: expect.any(Number),
      field_id: fieldId,
    });
    // on the WGS84 ellipsoid (docs/decisions.md, General)
    expect(relative(a.area, ellipsoidRectangleHectares(-33.899, 0.008))).toBeLessThan(0.0001);
    const byField = await call('GET', '/livestock/paddock', { token: owner.token, query: { field_id: fieldId } });
    expect(byField.body.data.map((p: any) => p.name)).toEqual(['Potrero A', 'Potrero B']);
    const one = await call('GET', `/api/livestock/paddock/${a.paddock_uuid}`, { token: owner.token });
    expect(one.body).toEqual({ data: [a] });
    expect((await call('GET', '/livestock/paddock', { token: owner.token })).body.data).toHaveLength(2);
  });

  it('refuses a shape outside the field, an invalid shape, a repeated name and missing members', async () => {
    const { owner, fieldId } = await setup();
    const outside = await post(owner, '/paddock', {
      field_id: fieldId,
      shape: square(-60.4, -33.9, 0.01),
      date: NOW,
      name: 'Fuera',
    });
    expect([outside.status, outside.body.code]).toEqual([400, 'SHAPE_OUTSIDE_FIELD']);
    const invalid = await post(owner, '/paddock', {
      field_id: fieldId,
      shape: 'POLYGON((0 0,1 1',
      date: NOW,
      name: 'Mal',
    });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'INVALID_GEOMETRY']);
    const repeated = await post(owner, '/paddock', {
      field_id: fieldId,
      shape: PADDOCK_A,
      date: NOW,
      name: 'potrero a',
    });
    expect([repeated.status, repeated.body.code]).toEqual([409, 'NAME_TAKEN']);
    const missing = await post(owner, '/paddock', { field_id: fieldId, shape: PADDOCK_A, name: 'Sin fecha' });
    expect([missing.status, missing.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
  });

  it('renames and reshapes (at least one required)', async () => {
    const { owner, a } = await setup();
    const path = `/livestock/paddock/${a.paddock_uuid}`;
    const renamed = await call('PATCH', path, { token: owner.token, json: { name: 'Potrero Norte' } });
    expect(renamed.body.data).toMatchObject({ name: 'Potrero Norte', shape: a.shape });
    const reshaped = await call('PATCH', path, {
      token: owner.token,
      json: { shape: square(-60.499, -33.899, 0.004) },
    });
    expect(reshaped.body.data.area).toBeLessThan(a.area / 2);
    const none = await call('PATCH', path, { token: owner.token, json: {} });
    expect([none.status, none.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
  });

  it('refuses to delete a paddock holding herds (PADDOCK_NOT_EMPTY), and deletes it once empty', async () => {
    const { owner, fieldId, a } = await setup();
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const path = `/livestock/paddock/${a.paddock_uuid}`;
    const refused = await call('DELETE', path, { token: owner.token });
    expect([refused.status, refused.body.code]).toEqual([409, 'PADDOCK_NOT_EMPTY']);
    // the herd deleted under /api (the same operation), then again: gone
    const herdDeleted = await call('DELETE', `/api/livestock/herd/${h.herd_uuid}`, { token: owner.token });
    expect(herdDeleted.status).toBe(200);
    expect((await call('DELETE', `/api/livestock/herd/${h.herd_uuid}`, { token: owner.token })).status).toBe(404);
    const deleted = await call('DELETE', path, { token: owner.token });
    expect(deleted.body).toEqual({ data: { paddock_uuid: a.paddock_uuid, deleted: true } });
    expect((await call('GET', path, { token: owner.token })).status).toBe(404);
  });

  it("keeps another user's paddocks invisible; a read share reads but does not write", async () => {
    const { owner, fieldId, a } = await setup();
    const stranger = await newUser();
    const hidden = await call('GET', `/livestock/paddock/${a.paddock_uuid}`, { token: stranger.token });
    expect([hidden.status, hidden.body.code]).toEqual([404, 'PADDOCK_NOT_FOUND']);
    expect((await call('GET', '/livestock/paddock', { token: stranger.token })).body.data).toEqual([]);
    expect(
      (await call('GET', '/livestock/paddock', { token: stranger.token, query: { field_id: fieldId } })).status,
    ).toBe(404);
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    expect((await call('GET', `/livestock/paddock/${a.paddock_uuid}`, { token: reader.token })).status).toBe(200);
    const write = await call('PATCH', `/livestock/paddock/${a.paddock_uuid}`, {
      token: reader.token,
      json: { name: 'x' },
    });
    expect([write.status, write.body.code]).toEqual([403, 'PERMISSION_ERROR']);
    expect((await call('DELETE', `/livestock/paddock/${a.paddock_uuid}`, { token: owner.token })).status).toBe(200);
  });
});

describe('herds', () => {
  it('creates a herd, generating and returning herd_uuid', async () => {
    const { owner, fieldId, a } = await setup();
    const created = await herdIn(owner, fieldId, a.paddock_uuid);
    expect(created).toEqual({
      herd_id: expect.any(Number),
      herd_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      herd_name: 'Novillos 1',
      type_id: 4,
      animal_count: 10,
      weight: 4000,
      weight_unit: 'kg',
      paddock_id: a.paddock_id,
      paddock_uuid: a.paddock_uuid,
      field_id: fieldId,
      field_uuid: expect.any(String),
      farm_id: expect.any(Number),
      farm_uuid: expect.any(String),
      date_of_last_transaction: null,
    });
    expect(await herds(owner)).toEqual([created]);
  });

  it('keeps a client herd_uuid and returns the same herd when it is sent again', async () => {
    const { owner, fieldId } = await setup();
    const id = uuid();
    const first = await herdIn(owner, fieldId, null, { herd_uuid: id });
    const again = await herdIn(owner, fieldId, null, { herd_uuid: id });
    expect(first.herd_uuid).toBe(id);
    expect(again).toEqual(first);
    expect(await herds(owner)).toHaveLength(1);
  });

  it('refuses unknown categories and weight units, and paddocks of other fields', async () => {
    const { owner, fieldId } = await setup();
    const other = await setup(owner);
    for (const extra of [
      { type_id: 9 },
      { weight_unit: 'stone' },
      { paddock_uuid: other.a.paddock_uuid },
      { animal_count: -1 },
      { animal_count: 2.5 },
    ]) {
      const response = await post(owner, '/herd', {
        type_id: 4,
        animal_count: 1,
        paddock_uuid: null,
        weight: 1,
        weight_unit: 'kg',
        herd_name: 'x',
        field_id: fieldId,
        ...extra,
      });
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    }
  });

  it('adds new animals, converting their weight to the herd unit', async () => {
    const { owner, fieldId, a } = await setup();
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const response = await call('PATCH', `/livestock/herd/${h.herd_uuid}`, {
      token: owner.token,
      json: {
        type_id: 5,
        herd_name: 'Vaquillonas',
        new_animals: { new_animals_count: 2, new_animals_weight: 1000, new_animals_weight_unit: 'lb' },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      type_id: 5,
      herd_name: 'Vaquillonas',
      animal_count: 12,
      weight_unit: 'kg',
    });
    expect(response.body.data.weight).toBeCloseTo(4000 + 1000 * 0.45359237, 3);
    expect(response.body.data.date_of_last_transaction).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});

describe('POST /livestock/transaction/paddock', () => {
  it('moves a whole herd to another paddock, keeping the note and date in its history', async () => {
    const { owner, fieldId, a, b } = await setup();
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const response = await post(owner, '/transaction/paddock', {
      origin_herd_uuid: h.herd_uuid,
      origin_paddock_uuid: a.paddock_uuid,
      destination_paddock_uuid: b.paddock_uuid,
      transaction_date: '2026-05-11T08:30:00-03:00',
      note: 'rotación de pastoreo',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.herds).toHaveLength(1);
    expect(response.body.data.herds[0]).toMatchObject({
      herd_uuid: h.herd_uuid,
      paddock_uuid: b.paddock_uuid,
      animal_count: 10,
      date_of_last_transaction: '2026-05-11T11:30:00Z',
    });
    const history = await call('GET', `/livestock/herd/${h.herd_uuid}/transactions`, { token: owner.token });
    // the same operations under /api: the history, and a move without its paddocks refused
    const underApi = await call('GET', `/api/livestock/herd/${h.herd_uuid}/transactions`, { token: owner.token });
    expect([underApi.status, underApi.body]).toEqual([200, history.body]);
    const incomplete = await call('POST', '/api/livestock/transaction/paddock', {
      token: owner.token,
      json: { origin_herd_uuid: h.herd_uuid },
    });
    expect(incomplete.status).toBe(400);
    expect(history.body.data[0]).toMatchObject({
      kind: 'paddock',
      note: 'rotación de pastoreo',
      transaction_date: '2026-05-11T11:30:00Z',
      origin_paddock_uuid: a.paddock_uuid,
      destination_paddock_uuid: b.paddock_uuid,
    });
    // the origin paddock is empty now, the destination holds the herd
    expect((await call('DELETE', `/livestock/paddock/${a.paddock_uuid}`, { token: owner.token })).status).toBe(200);
    expect((await call('DELETE', `/livestock/paddock/${b.paddock_uuid}`, { token: owner.token })).body.code).toBe(
      'PADDOCK_NOT_EMPTY',
    );
  });

  it('moves part of a herd as a new herd in the destination', async () => {
    const { owner, fieldId, a, b } = await setup();
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const response = await post(owner, '/transaction/paddock', {
      origin_herd_uuid: h.herd_uuid,
      origin_paddock_uuid: a.paddock_uuid,
      destination_paddock_uuid: b.paddock_uuid,
      transaction_date: NOW,
      animal_count: 4,
      max_count: 10,
      herd_name: 'Lote separado',
      herd_category: 6,
    });
    const [origin, split] = response.body.data.herds;
    expect(origin).toMatchObject({
      herd_uuid: h.herd_uuid,
      animal_count: 6,
      weight: 2400,
      paddock_uuid: a.paddock_uuid,
    });
    expect(split).toMatchObject({
      herd_name: 'Lote separado',
      type_id: 6,
      animal_count: 4,
      weight: 1600,
      paddock_uuid: b.paddock_uuid,
      date_of_last_transaction: NOW,
    });
    expect(await herds(owner)).toHaveLength(2);
  });

  it('refuses to move more animals than the herd has, and changes nothing', async () => {
    const { owner, fieldId, a, b } = await setup();
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const before = await herds(owner);
    const response = await post(owner, '/transaction/paddock', {
      origin_herd_uuid: h.herd_uuid,
      origin_paddock_uuid: a.paddock_uuid,
      destination_paddock_uuid: b.paddock_uuid,
      transaction_date: NOW,
      animal_count: 11,
    });
    expect([response.status, response.body.code]).toEqual([409, 'NOT_ENOUGH_ANIMALS']);
    expect(await herds(owner)).toEqual(before);
    expect(
      (await call('GET', `/livestock/herd/${h.herd_uuid}/transactions`, { token: owner.token })).body.data,
    ).toEqual([]);
  });

  it('refuses a stale max_count, a wrong origin paddock and a wrong destination_field', async () => {
    const { owner, fieldId, a, b } = await setup();
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const base = {
      origin_herd_uuid: h.herd_uuid,
      origin_paddock_uuid: a.paddock_uuid,
      destination_paddock_uuid: b.paddock_uuid,
      transaction_date: NOW,
    };
    expect((await post(owner, '/transaction/paddock', { ...base, max_count: 9 })).body.code).toBe('STALE_RECORD');
    expect(
      (
        await post(owner, '/transaction/paddock', {
          ...base,
          origin_paddock_uuid: b.paddock_uuid,
          destination_paddock_uuid: a.paddock_uuid,
        })
      ).body.code,
    ).toBe('INVALID_PARAMETERS');
    expect((await post(owner, '/transaction/paddock', { ...base, destination_field: '999999' })).body.code).toBe(
      'INVALID_PARAMETERS',
    );
  });

  it('moves a herd to a paddock of another field (destination_field)', async () => {
    const { owner, fieldId, a } = await setup();
    const other = await createField(owner, { shape: square(-60.3, -33.9, 0.02) });
    const far = (
      await post(owner, '/paddock', {
        field_id: other.fieldId,
        shape: square(-60.299, -33.899, 0.005),
        date: NOW,
        name: 'Lejos',
      })
    ).body.data;
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const response = await post(owner, '/transaction/paddock', {
      origin_herd_uuid: h.herd_uuid,
      origin_paddock_uuid: a.paddock_uuid,
      destination_paddock_uuid: far.paddock_uuid,
      destination_field: String(other.fieldId),
      transaction_date: NOW,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.herds[0]).toMatchObject({
      herd_uuid: h.herd_uuid,
      field_id: other.fieldId,
      paddock_uuid: far.paddock_uuid,
    });
    expect((await herd(owner, h.herd_uuid)).field_id).toBe(other.fieldId);
  });
});

describe('POST /livestock/transaction/exit', () => {
  it('records an exit of every type, lowering count and weight', async () => {
    const { owner, fieldId } = await setup();
    const h = await herdIn(owner, fieldId, null, { animal_count: 20, weight: 8000 });
    for (const type of [1, 3, 4, 5, 6, 7]) {
      const response = await exit(owner, h.herd_uuid, { destination_type: type, animal_count: 1, weight: 400 });
      expect(response.status).toBe(200);
      expect(response.body.data.transaction).toMatchObject({ kind: 'exit', destination_type: type });
    }
    expect(await herd(owner, h.herd_uuid)).toMatchObject({ animal_count: 14, weight: 5600 });
    const history = (await call('GET', `/livestock/herd/${h.herd_uuid}/transactions`, { token: owner.token })).body
      .data;
    expect(history).toHaveLength(6);
  });

  it('type 2 moves animals and weight into the destination herd, converting units', async () => {
    const { owner, fieldId, a, b } = await setup();
    const from = await herdIn(owner, fieldId, a.paddock_uuid);
    const to = await herdIn(owner, fieldId, b.paddock_uuid, { weight: 8818.49, weight_unit: 'lb' });
    const response = await exit(owner, from.herd_uuid, {
      destination_type: 2,
      destination_herd_uuid: to.herd_uuid,
      animal_count: 3,
      weight: 1200,
    });
    expect(response.status).toBe(200);
    expect(await herd(owner, from.herd_uuid)).toMatchObject({ animal_count: 7, weight: 2800 });
    const received = await herd(owner, to.herd_uuid);
    expect(received.animal_count).toBe(13);
    expect(received.weight).toBeCloseTo(8818.49 + 1200 / 0.45359237, 2);
    expect(received.weight_unit).toBe('lb');
  });

  it('records a repeated transaction_uuid once', async () => {
    const { owner, fieldId } = await setup();
    const h = await herdIn(owner, fieldId, null);
    const transaction_uuid = uuid();
    const first = await exit(owner, h.herd_uuid, { transaction_uuid });
    const second = await exit(owner, h.herd_uuid, { transaction_uuid });
    expect(second.status).toBe(200);
    expect(second.body.data.transaction).toEqual(first.body.data.transaction);
    expect((await herd(owner, h.herd_uuid)).animal_count).toBe(8);
    expect(
      (await call('GET', `/livestock/herd/${h.herd_uuid}/transactions`, { token: owner.token })).body.data,
    ).toHaveLength(1);
  });

  it("never answers another user's transaction for a reused transaction_uuid", async () => {
    const { owner, fieldId } = await setup();
    const mine = await herdIn(owner, fieldId, null);
    const transaction_uuid = uuid();
    await exit(owner, mine.herd_uuid, { transaction_uuid });
    const stranger = await setup();
    const theirs = await herdIn(stranger.owner, stranger.fieldId, null);
    const response = await exit(stranger.owner, theirs.herd_uuid, { transaction_uuid });
    expect(response.status).toBe(200);
    expect(response.body.data.herds.map((h: any) => h.herd_uuid)).toEqual([theirs.herd_uuid]);
    expect((await herd(stranger.owner, theirs.herd_uuid)).animal_count).toBe(8);
    const probe = await exit(stranger.owner, mine.herd_uuid, { transaction_uuid });
    expect([probe.status, probe.body.code]).toEqual([404, 'HERD_NOT_FOUND']);
  });

  it('applies exactly one of two concurrent exits that together exceed the head count', async () => {
    const { owner, fieldId } = await setup();
    const h = await herdIn(owner, fieldId, null);
    const results = await Promise.all([
      exit(owner, h.herd_uuid, { animal_count: 6, weight: 2400 }),
      exit(owner, h.herd_uuid, { animal_count: 6, weight: 2400 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('NOT_ENOUGH_ANIMALS');
    expect(await herd(owner, h.herd_uuid)).toMatchObject({ animal_count: 4, weight: 1600 });
  });

  it('refuses more animals or weight than the herd has; the last animals take all the weight with them', async () => {
    const { owner, fieldId } = await setup();
    const h = await herdIn(owner, fieldId, null);
    expect((await exit(owner, h.herd_uuid, { animal_count: 11 })).body.code).toBe('NOT_ENOUGH_ANIMALS');
    expect((await exit(owner, h.herd_uuid, { animal_count: 1, weight: 5000 })).body.code).toBe('NOT_ENOUGH_WEIGHT');
    expect((await exit(owner, h.herd_uuid, { animal_count: 10, weight: 3900 })).status).toBe(200);
    expect(await herd(owner, h.herd_uuid)).toMatchObject({ animal_count: 0, weight: 0 });
  });

  it('keeps date_of_last_transaction at the latest transaction date, even for backdated ones', async () => {
    const { owner, fieldId } = await setup();
    const h = await herdIn(owner, fieldId, null);
    await exit(owner, h.herd_uuid, { transaction_date: '2026-06-01T00:00:00Z' });
    await exit(owner, h.herd_uuid, { transaction_date: '2026-01-01T00:00:00Z' });
    expect((await herd(owner, h.herd_uuid)).date_of_last_transaction).toBe('2026-06-01T00:00:00Z');
  });

  it('validates the body: exit type, integer weight, uuids', async () => {
    const { owner, fieldId } = await setup();
    const h = await herdIn(owner, fieldId, null);
    for (const extra of [{ destination_type: 8 }, { weight: 10.5 }, { transaction_uuid: 'x' }, { animal_count: 0 }]) {
      const response = await exit(owner, h.herd_uuid, extra);
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    }
    const stranger = await newUser();
    expect((await exit(stranger, h.herd_uuid)).body.code).toBe('HERD_NOT_FOUND');
  });
});

describe('livestock follows the contract', () => {
  it('puts a herd created without paddock into one: a move from origin_paddock_uuid null', async () => {
    const { owner, fieldId, a } = await setup();
    const loose = await herdIn(owner, fieldId, null);
    expect(loose.paddock_uuid).toBeNull();
    const refused = await post(owner, '/transaction/paddock', {
      origin_herd_uuid: loose.herd_uuid,
      origin_paddock_uuid: a.paddock_uuid,
      destination_paddock_uuid: a.paddock_uuid,
      transaction_date: NOW,
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    const moved = await post(owner, '/transaction/paddock', {
      origin_herd_uuid: loose.herd_uuid,
      origin_paddock_uuid: null,
      destination_paddock_uuid: a.paddock_uuid,
      transaction_date: NOW,
    });
    expect(moved.status).toBe(200);
    expect(await herd(owner, loose.herd_uuid)).toMatchObject({
      paddock_uuid: a.paddock_uuid,
      paddock_id: a.paddock_id,
      animal_count: 10,
    });
    const [paddock] = (await call('GET', `/livestock/paddock/${a.paddock_uuid}`, { token: owner.token })).body.data;
    expect(paddock.paddock_uuid).toBe(a.paddock_uuid);
    // the paddock now holds the herd: it cannot be deleted
    expect((await call('DELETE', `/livestock/paddock/${a.paddock_uuid}`, { token: owner.token })).status).toBe(409);
  });

  it('renames without a transaction when no animals are added (new_animals_count 0)', async () => {
    const { owner, fieldId, a } = await setup();
    const h = await herdIn(owner, fieldId, a.paddock_uuid);
    const response = await call('PATCH', `/livestock/herd/${h.herd_uuid}`, {
      token: owner.token,
      json: {
        type_id: 5,
        herd_name: 'Vaquillonas',
        new_animals: { new_animals_count: 0, new_animals_weight: 0, new_animals_weight_unit: 'kg' },
      },
    });
    expect(response.status).toBe(200);
    expect(await herd(owner, h.herd_uuid)).toMatchObject({
      herd_name: 'Vaquillonas',
      type_id: 5,
      animal_count: 10,
      date_of_last_transaction: null,
    });
    const history = await call('GET', `/livestock/herd/${h.herd_uuid}/transactions`, { token: owner.token });
    expect(history.body.data).toEqual([]);
    const weightWithoutAnimals = await call('PATCH', `/livestock/herd/${h.herd_uuid}`, {
      token: owner.token,
      json: {
        type_id: 5,
        herd_name: 'x',
        new_animals: { new_animals_count: 0, new_animals_weight: 10, new_animals_weight_unit: 'kg' },
      },
    });
    expect([weightWithoutAnimals.status, weightWithoutAnimals.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
  });

  it('reads weight_unit in any case and its usual spellings', async () => {
    const { owner, fieldId } = await setup();
    for (const [spelling, unit] of [
      ['KG', 'kg'],
      ['Kg', 'kg'],
      ['kgs', 'kg'],
      ['LB', 'lb'],
      ['lbs', 'lb'],
      ['T', 't'],
      ['tn', 't'],
    ] as const) {
      const h = await herdIn(owner, fieldId, null, { weight_unit: spelling, herd_name: `h ${spelling}` });
      expect(h.weight_unit, spelling).toBe(unit);
    }
    const wrong = await post(owner, '/herd', {
      type_id: 4,
      animal_count: 1,
      paddock_uuid: null,
      weight: 1,
      weight_unit: 'stone',
      herd_name: 'x',
      field_id: fieldId,
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
  });

  it("lets a tenant use a paddock or herd uuid another tenant chose, without touching the other's", async () => {
    const a = await setup();
    const b = await setup();
    const paddockUuid = uuid();
    const herdUuid = uuid();
    const mine = await post(a.owner, '/paddock', {
      field_id: a.fieldId,
      shape: square(-60.497, -33.885, 0.002),
      date: NOW,
      name: 'Mío',
      paddock_uuid: paddockUuid,
    });
    expect(mine.status).toBe(200);
    await herdIn(a.owner, a.fieldId, null, { herd_uuid: herdUuid, herd_name: 'de A' });
    const theirs = await post(b.owner, '/paddock', {
      field_id: b.fieldId,
      shape: square(-60.497, -33.885, 0.002),
      date: NOW,
      name: 'Suyo',
      paddock_uuid: paddockUuid,
    });
    expect(theirs.status).toBe(200);
    const theirHerd = await herdIn(b.owner, b.fieldId, null, { herd_uuid: herdUuid, herd_name: 'de B' });
    expect(theirHerd.herd_name).toBe('de B');
    expect((await herd(a.owner, herdUuid)).herd_name).toBe('de A');
    expect((await call('DELETE', `/livestock/herd/${herdUuid}`, { token: b.owner.token })).status).toBe(200);
    expect(await herd(a.owner, herdUuid)).toBeDefined();
    const [paddock] = (await call('GET', `/livestock/paddock/${paddockUuid}`, { token: a.owner.token })).body.data;
    expect(paddock.name).toBe('Mío');
  });
});
