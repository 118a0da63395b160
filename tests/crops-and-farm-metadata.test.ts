// Spec 3: crops (GET /getcultivos, and crops registered by users) and farm metadata
// (GET/PATCH /api/farms/metadata, its 400 body, 401 and 403).
import { describe, expect, it } from 'vitest';
import { call, createField, internal, newUser, type TestUser, unique } from './helpers/api';

describe('GET /getcultivos', () => {
  it("lists the platform's crops with their varieties, with and without /api", async () => {
    const user = await newUser();
    const response = await call('GET', '/getcultivos', { token: user.token });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body.length).toBeGreaterThan(20);
    const soy = response.body.find((c: any) => c.crop_id === 1);
    expect(soy).toMatchObject({ crop_name: 'Soja', user_crop: false });
    expect(soy.varieties[0]).toEqual({ variety_id: 101, variety_name: 'DM 4612' });
    expect((await call('GET', '/api/getcultivos', { token: user.token })).body).toEqual(response.body);
  });

  it('adds the crops the user registered, and only to that user', async () => {
    const user = await newUser();
    const name = unique('Quinoa');
    const registered = await call('POST', '/api/crops', { token: user.token, json: { name } });
    expect(registered.status).toBe(200);
    const crop = registered.body.data;
    expect(crop).toEqual({ crop_id: expect.any(Number), crop_name: name, user_crop: true, varieties: [] });
    expect(crop.crop_id).toBeGreaterThan(10_000);
    expect((await call('GET', '/getcultivos', { token: user.token })).body).toContainEqual(crop);
    const other = await newUser();
    expect((await call('GET', '/getcultivos', { token: other.token })).body).not.toContainEqual(crop);
    // usable in rotations
    const { fieldId } = await createField(user);
    const rotation = await call('POST', '/rotations', {
      token: user.token,
      json: [
        {
          field_id: fieldId,
          crop_id: crop.crop_id,
          yeargroup: 2026,
          start_date: '2026-01-01T00:00:00Z',
          end_date: '2026-06-01T00:00:00Z',
        },
      ],
    });
    expect(rotation.body.data.created_ones[0].crop_name).toBe(name);
  });

  it("refuses a repeated name (409), also one of the platform's crops", async () => {
    const user = await newUser();
    await call('POST', '/api/crops', { token: user.token, json: { name: 'Mi Cultivo' } });
    expect((await call('POST', '/api/crops', { token: user.token, json: { name: 'mi cultivo' } })).status).toBe(409);
    expect((await call('POST', '/crops', { token: user.token, json: { name: 'soja' } })).status).toBe(409);
    expect((await call('POST', '/api/crops', { token: user.token, json: { name: '  ' } })).body.code).toBe(-4);
  });

  it('needs a token', async () => {
    expect((await call('GET', '/getcultivos')).status).toBe(401);
  });
});

const patch = (user: TestUser, json: unknown) => call('PATCH', '/api/farms/metadata', { token: user.token, json });
const get = (user: TestUser, query: Record<string, string> = {}) =>
  call('GET', '/api/farms/metadata', { token: user.token, query });

describe('/api/farms/metadata', () => {
  it('merges keys on PATCH (null removes one) and answers the updated metadata', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const first = await patch(user, { farm_id: farmId, metadata: { owner: 'Ana', soil: { ph: 6.5 } } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { metadata: { owner: 'Ana', soil: { ph: 6.5 } } } });
    expect((await patch(user, { farm_id: farmId, metadata: { irrigated: true } })).body.data.metadata).toEqual({
      owner: 'Ana',
      soil: { ph: 6.5 },
      irrigated: true,
    });
    expect((await patch(user, { farm_id: farmId, metadata: { owner: null } })).body.data.metadata).toEqual({
      soil: { ph: 6.5 },
      irrigated: true,
    });
  });

  it('GET answers the given farms, or every accessible farm, keyed by farm id', async () => {
    const user = await newUser();
    const a = await createField(user);
    const b = await createField(user);
    await patch(user, { farm_id: a.farmId, metadata: { k: 'a' } });
    const owner = await newUser();
    const shared = await createField(owner);
    await patch(owner, { farm_id: shared.farmId, metadata: { k: 'shared' } });
    await internal('/internal/shares', { user_id: user.id, farm_id: shared.farmId, permission: 'read' });
    const one = await get(user, { farms_id: String(a.farmId) });
    expect(one.body).toEqual({ data: { [a.farmId]: { metadata: { k: 'a' } } } });
    const all = await get(user);
    expect(all.body).toEqual({
      data: {
        [a.farmId]: { metadata: { k: 'a' } },
        [b.farmId]: { metadata: {} },
        [shared.farmId]: { metadata: { k: 'shared' } },
      },
    });
  });

  it("answers 400 {info:'Error could not update metadata'} for invalid input", async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    for (const json of [
      { farm_id: farmId },
      { metadata: {} },
      { farm_id: farmId, metadata: 'x' },
      { farm_id: farmId, metadata: { big: 'x'.repeat(70_000) } },
    ]) {
      const response = await patch(user, json);
      expect(response.status).toBe(400);
      expect(response.body.info).toBe('Error could not update metadata');
    }
    const malformed = await call('PATCH', '/api/farms/metadata', {
      token: user.token,
      body: '{"farm_id":',
      headers: { 'content-type': 'application/json' },
    });
    expect([malformed.status, malformed.body.info]).toEqual([400, 'Error could not update metadata']);
    expect((await get(user, { farms_id: 'abc' })).status).toBe(400);
  });

  it('bounds key shape and depth explicitly: an empty key or 40 levels is 400, 16 levels is kept, nothing is stored on error', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const nest = (levels: number): Record<string, unknown> => (levels === 1 ? { leaf: 1 } : { n: nest(levels - 1) });
    const kept = await patch(user, { farm_id: farmId, metadata: { deep: nest(15) } });
    expect(kept.status).toBe(200);
    for (const metadata of [
      { '': 1 },
      { a: { '': 1 } },
      { a: [{ '': 1 }] },
      { deep: nest(40) },
      { deep: nest(16) },
      { ['k'.repeat(201)]: 1 },
    ]) {
      const response = await patch(user, { farm_id: farmId, metadata });
      expect([response.status, response.body.info], JSON.stringify(metadata).slice(0, 60)).toEqual([
        400,
        'Error could not update metadata',
      ]);
    }
    expect((await get(user, { farms_id: String(farmId) })).body.data[farmId].metadata).toEqual({ deep: nest(15) });
  });

  it('reads an empty farms_id as absent: every accessible farm', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const response = await get(user, { farms_id: '' });
    expect([response.status, response.body.data]).toEqual([200, { [farmId]: { metadata: {} } }]);
  });

  it('answers 401 without a token and 403 for farms the user cannot change or reach', async () => {
    const owner = await newUser();
    const { farmId } = await createField(owner);
    const anonymous = await call('PATCH', '/api/farms/metadata', { json: { farm_id: farmId, metadata: {} } });
    expect([anonymous.status, anonymous.body.info]).toEqual([401, 'unauthorized']);
    const stranger = await newUser();
    const refused = await patch(stranger, { farm_id: farmId, metadata: { x: 1 } });
    expect([refused.status, refused.body.info]).toEqual([403, 'access denied']);
    expect((await get(stranger, { farms_id: String(farmId) })).status).toBe(403);
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, farm_id: farmId, permission: 'read' });
    expect((await patch(reader, { farm_id: farmId, metadata: { x: 1 } })).status).toBe(403);
    expect((await get(reader, { farms_id: String(farmId) })).status).toBe(200);
  });

  it('never loses a key under concurrent PATCHes', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => patch(user, { farm_id: farmId, metadata: { [`k${i}`]: i } })),
    );
    const stored = (await get(user, { farms_id: String(farmId) })).body.data[farmId].metadata;
    expect(Object.keys(stored).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
  });
});
