// Spec 2, "Rotations": GET /api/rotations (filters and their priority), GET one, POST (partial
// success), PATCH, varieties; cicle_id and crop_order; metadata validation; the Campaign claim.
import { describe, expect, it } from 'vitest';
import { call, createField, internal, newUser, square, type TestUser } from './helpers/api';

const YEAR = 2026;
const rotation = (fieldId: number, extra: Record<string, unknown> = {}) => ({
  field_id: fieldId,
  crop_id: 1,
  yeargroup: YEAR,
  start_date: `${YEAR}-10-01T00:00:00Z`,
  end_date: `${YEAR + 1}-03-31T00:00:00Z`,
  ...extra,
});
const create = (user: TestUser, items: unknown[], path = '/rotations') =>
  call('POST', path, { token: user.token, json: items });
const list = (user: TestUser, query: Record<string, string | number> = {}, path = '/api/rotations') =>
  call('GET', path, { token: user.token, query });
const createOne = async (user: TestUser, item: Record<string, unknown>) => {
  const response = await create(user, [item]);
  if (response.body.data?.created_ones?.length !== 1) throw new Error(`not created: ${response.text}`);
  return response.body.data.created_ones[0];
};

describe('the Campaign claim', () => {
  it('refuses every rotation endpoint without it, with -11', async () => {
    const user = await newUser({ claims: ['FIELDS_CREATE'] });
    const { fieldId } = await createField(user);
    for (const [method, path, json] of [
      ['GET', '/api/rotations', undefined],
      ['POST', '/rotations', [rotation(fieldId)]],
      ['GET', '/rotations/6f1c0b1e-3c53-4d2b-9f4e-2f1d2a3b4c5d', undefined],
      ['PATCH', '/rotations/6f1c0b1e-3c53-4d2b-9f4e-2f1d2a3b4c5d', { ha: 1 }],
      ['GET', '/rotations/variety/6f1c0b1e-3c53-4d2b-9f4e-2f1d2a3b4c5d', undefined],
    ] as const) {
      const response = await call(method, path, { token: user.token, json });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ res: 'error', code: -11, info: 'User is not allowed to perform this action' });
    }
  });
});

describe('POST /rotations', () => {
  it('creates rotations and answers them with every key', async () => {
    const user = await newUser();
    const { fieldId, farmId } = await createField(user, { name: 'Lote R' });
    const response = await create(user, [rotation(fieldId, { yield_crop: 3.2 })]);
    expect(response.status).toBe(200);
    const [created] = response.body.data.created_ones;
    expect(response.body.data.unabled_to_be_created).toEqual([]);
    expect(created).toEqual({
      rotation_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      farm_uuid: expect.any(String),
      field_uuid: expect.any(String),
      farm_id: farmId,
      field_id: fieldId,
      field_name: 'Lote R',
      crop_id: 1,
      crop_name: 'Soja',
      yeargroup: YEAR,
      start_date: `${YEAR}-10-01T00:00:00Z`,
      end_date: `${YEAR + 1}-03-31T00:00:00Z`,
      cicle_id: expect.any(Number),
      crop_order: 1,
      ha: expect.any(Number),
      yield_crop: 3.2,
      map_id: null,
      varieties: null,
      surface_unit: null,
      metadata: null,
    });
    // ha defaults to the field's area
    const listedField = (await call('GET', '/api/getfields', { token: user.token })).body.user.farms[farmId].fields[
      fieldId
    ];
    expect(created.ha).toBeCloseTo(listedField.shapes.current.area, 2);
    // the list (by farm: no field named) shows the field as the creation did, from the rotation's item
    const listed = await call('GET', '/rotations', { token: user.token, query: { yeargroup: YEAR } });
    expect(listed.body.data).toEqual([created]);
  });

  it('shares one cicle_id per field and yeargroup, and orders rotations by start date', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const late = await createOne(user, rotation(fieldId, { crop_id: 2, start_date: `${YEAR}-12-01T00:00:00Z` }));
    const early = await createOne(
      user,
      rotation(fieldId, { crop_id: 3, start_date: `${YEAR}-06-01T00:00:00Z`, end_date: `${YEAR}-11-30T00:00:00Z` }),
    );
    const next = await createOne(
      user,
      rotation(fieldId, {
        yeargroup: YEAR + 1,
        start_date: `${YEAR + 1}-10-01T00:00:00Z`,
        end_date: `${YEAR + 2}-03-01T00:00:00Z`,
      }),
    );
    expect(late.cicle_id).toBe(early.cicle_id);
    expect(next.cicle_id).not.toBe(late.cicle_id);
    const listed = (await list(user, { fields_id: fieldId, yeargroup: YEAR })).body.data;
    expect(listed.map((r: any) => [r.crop_id, r.crop_order])).toEqual([
      [3, 1],
      [2, 2],
    ]);
  });

  it('answers in the creation response the positions a list shows, for a batch given out of order', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const response = await create(user, [
      rotation(fieldId, { crop_id: 1, start_date: `${YEAR}-12-01T00:00:00Z` }),
      rotation(fieldId, { crop_id: 2, start_date: `${YEAR}-11-01T00:00:00Z` }),
      rotation(fieldId, { crop_id: 3, start_date: `${YEAR}-10-01T00:00:00Z` }),
    ]);
    const created = response.body.data.created_ones.map((r: any) => [r.crop_id, r.crop_order]);
    expect(created).toEqual([
      [1, 3],
      [2, 2],
      [3, 1],
    ]);
    const listed = (await list(user, { fields_id: fieldId })).body.data.map((r: any) => [r.crop_id, r.crop_order]);
    expect(listed.sort()).toEqual(created.sort());
  });

  it('refuses dates that are not real calendar dates (February 30, April 31, February 29 of 2027) and keeps a real leap day', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const bad = [
      { start_date: '2025-02-30T00:00:00Z' },
      { end_date: '2027-04-31T00:00:00Z' },
      { end_date: '2027-02-29T00:00:00Z' },
      { metadata: { cover_date: '2025-02-30' } },
      { metadata: { flooding_date: '2026-04-31' } },
    ];
    const response = await create(
      user,
      bad.map((extra) => rotation(fieldId, extra)),
    );
    expect(response.body.data.created_ones).toEqual([]);
    expect(response.body.data.unabled_to_be_created.map((r: any) => r.reason.error_code)).toEqual([-4, -4, -4, -4, -4]);
    const leap = await createOne(
      user,
      rotation(fieldId, {
        yeargroup: 2028,
        start_date: '2028-02-29T00:00:00Z',
        end_date: '2028-06-01T00:00:00Z',
        metadata: { cover_date: '2028-02-29' },
      }),
    );
    expect([leap.start_date, leap.metadata.cover_date]).toEqual(['2028-02-29T00:00:00Z', '2028-02-29']);
    const path = `/rotations/${leap.rotation_uuid}`;
    for (const json of [{ start_date: '2028-02-30T00:00:00Z' }, { end_date: '2028-04-31T00:00:00Z' }]) {
      const patched = await call('PATCH', path, { token: user.token, json });
      expect([patched.status, patched.body.code]).toEqual([400, -4]);
    }
    const [stored] = (await list(user, { fields_id: fieldId })).body.data;
    expect([stored.start_date, stored.end_date]).toEqual(['2028-02-29T00:00:00Z', '2028-06-01T00:00:00Z']);
  });

  it('creates what it can and lists the rest with reason codes', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const stranger = await newUser();
    const theirs = await createField(stranger);
    const response = await create(user, [
      rotation(fieldId),
      rotation(fieldId, { crop_id: 999 }),
      rotation(theirs.fieldId),
      rotation(fieldId, { end_date: `${YEAR - 1}-01-01T00:00:00Z` }),
      rotation(fieldId, { start_date: 'yesterday' }),
      rotation(fieldId, { ha: 100_000 }),
      'not an object',
    ]);
    expect(response.status).toBe(200);
    expect(response.body.data.created_ones).toHaveLength(1);
    const reasons = response.body.data.unabled_to_be_created.map((r: any) => r.reason.error_code);
    expect(reasons).toEqual([-12, -11, -13, -4, -14, -4]);
    const refused = response.body.data.unabled_to_be_created[1];
    expect(refused).toMatchObject({
      field_id: theirs.fieldId,
      crop_id: 1,
      reason: { error_code: -11, error_msg: 'User is not allowed to perform this action' },
    });
  });

  it('refuses a read-only share with -11 and accepts an edit share', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    expect((await create(reader, [rotation(fieldId)])).body.data.unabled_to_be_created[0].reason.error_code).toBe(-11);
    const editor = await newUser();
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    expect((await create(editor, [rotation(fieldId)])).body.data.created_ones).toHaveLength(1);
  });

  it('is idempotent with a client rotation_uuid', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const uuid = '5e7f3f0a-8a51-4a8e-9d55-0d3c9a1b2c3d';
    const first = await create(user, [rotation(fieldId, { rotation_uuid: uuid })]);
    const second = await create(user, [rotation(fieldId, { rotation_uuid: uuid })]);
    expect(first.body.data.created_ones[0].rotation_uuid).toBe(uuid);
    expect(second.body.data.created_ones[0]).toEqual(first.body.data.created_ones[0]);
    expect((await list(user, { fields_id: fieldId })).body.data).toHaveLength(1);
  });

  it('validates the metadata keys and their enumerations', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const good = {
      cover_type: 2,
      production_type: 2,
      utilization: [1, 3],
      plant_spacing_value: 4,
      plant_spacing_unit: 'm',
      cover_date: '2026-05-01',
    };
    expect((await create(user, [rotation(fieldId, { metadata: good })])).body.data.created_ones[0].metadata).toEqual(
      good,
    );
    for (const metadata of [
      { cover_type: 6 },
      { production_type: 3 },
      { plant_spacing_unit: 'ft' },
      { color: 'red' },
      { DGC: '1234567890123456' },
      { cover_date: '01/05/2026' },
    ]) {
      const response = await create(user, [rotation(fieldId, { metadata })]);
      expect(response.body.data.unabled_to_be_created[0]?.reason.error_code).toBe(-4);
    }
    // DGC (16 digits) is for fields in Spain
    const spain = await createField(user, { shape: square(-3.7, 40.4) });
    const dgc = await create(user, [rotation(spain.fieldId, { metadata: { DGC: '1234567890123456' } })]);
    expect(dgc.body.data.created_ones[0].metadata).toEqual({ DGC: '1234567890123456' });
  });

  it('answers 400 -4 for a body that is not an array', async () => {
    const user = await newUser();
    const response = await call('POST', '/rotations', { token: user.token, json: { field_id: 1 } });
    expect([response.status, response.body.code]).toEqual([400, -4]);
  });
});

describe('GET /api/rotations', () => {
  it('filters by fields_id, else fields_uuid, else farms_id, else farms_uuid, and by yeargroup', async () => {
    const user = await newUser();
    const a = await createField(user, { farmName: 'Farm A' });
    const b = await createField(user, { farmName: 'Farm B', shape: square(-60.3, -33.9) });
    const ra = await createOne(user, rotation(a.fieldId));
    const rb = await createOne(user, rotation(b.fieldId));
    const rb2 = await createOne(
      user,
      rotation(b.fieldId, {
        yeargroup: YEAR - 1,
        start_date: `${YEAR - 1}-10-01T00:00:00Z`,
        end_date: `${YEAR}-03-01T00:00:00Z`,
      }),
    );
    const uuids = async (query: Record<string, string | number>) =>
      (await list(user, query)).body.data.map((r: any) => r.rotation_uuid).sort();
    expect(await uuids({})).toEqual([ra.rotation_uuid, rb.rotation_uuid, rb2.rotation_uuid].sort());
    expect(await uuids({ fields_id: a.fieldId, farms_id: b.farmId })).toEqual([ra.rotation_uuid]);
    expect(await uuids({ fields_uuid: ra.field_uuid, farms_id: b.farmId })).toEqual([ra.rotation_uuid]);
    expect(await uuids({ farms_id: `${b.farmId}`, farms_uuid: ra.farm_uuid })).toEqual(
      [rb.rotation_uuid, rb2.rotation_uuid].sort(),
    );
    expect(await uuids({ farms_uuid: ra.farm_uuid })).toEqual([ra.rotation_uuid]);
    expect(await uuids({ farms_id: b.farmId, yeargroup: YEAR - 1 })).toEqual([rb2.rotation_uuid]);
    expect(await uuids({ fields_id: `${a.fieldId},${b.fieldId}`, yeargroup: YEAR })).toEqual(
      [ra.rotation_uuid, rb.rotation_uuid].sort(),
    );
  });

  it("includes shared fields and never another user's", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const shared = await createOne(owner, rotation(fieldId));
    const hidden = await createField(owner);
    await createOne(owner, rotation(hidden.fieldId));
    const guest = await newUser();
    await internal('/internal/shares', { user_id: guest.id, field_id: fieldId, permission: 'read' });
    expect((await list(guest)).body.data.map((r: any) => r.rotation_uuid)).toEqual([shared.rotation_uuid]);
    expect((await list(await newUser())).body.data).toEqual([]);
  });

  it('answers the same without the /api prefix and 400 -4 for malformed filters', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    await createOne(user, rotation(fieldId));
    expect((await list(user, {}, '/rotations')).body).toEqual((await list(user)).body);
    const bad = await list(user, { fields_id: 'abc' });
    expect([bad.status, bad.body.code]).toEqual([400, -4]);
  });

  it('checks only the filter it applies: a malformed filter below it in the priority is ignored', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const created = await createOne(user, rotation(fieldId));
    const only = async (query: Record<string, string | number>) => {
      const response = await list(user, query);
      expect(response.status, JSON.stringify(query)).toBe(200);
      return response.body.data.map((r: any) => r.rotation_uuid);
    };
    expect(await only({ fields_id: fieldId, fields_uuid: 'x', farms_id: 'not-ids', farms_uuid: '1' })).toEqual([
      created.rotation_uuid,
    ]);
    expect(await only({ fields_uuid: created.field_uuid, farms_id: 'not-ids', farms_uuid: 'x' })).toEqual([
      created.rotation_uuid,
    ]);
    expect(await only({ farms_id: created.farm_id, farms_uuid: 'x' })).toEqual([created.rotation_uuid]);
    // the filter applied is still checked
    for (const query of [
      { fields_id: 'x', farms_id: 1 },
      { fields_uuid: 'x', farms_id: 1 },
      { farms_id: 'x' },
      { farms_uuid: 'x' },
    ] as Array<Record<string, string | number>>) {
      const response = await list(user, query);
      expect([response.status, response.body.code], JSON.stringify(query)).toEqual([400, -4]);
    }
  });

  it('reads an empty filter value (fields_id=) as absent', async () => {
    const user = await newUser();
    const { fieldId, farmId } = await createField(user);
    const created = await createOne(user, rotation(fieldId));
    for (const query of [
      { fields_id: '' },
      { farms_id: '' },
      { fields_id: '', farms_id: farmId },
      { yeargroup: '' },
    ] as Array<Record<string, string | number>>) {
      const response = await list(user, query);
      expect([response.status, response.body.data?.map((r: any) => r.rotation_uuid)], JSON.stringify(query)).toEqual([
        200,
        [created.rotation_uuid],
      ]);
    }
  });
});

describe('GET /api/rotations/<uuid>', () => {
  it('answers one rotation as data, ignoring filters; 404 when unknown or not readable', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const created = await createOne(user, rotation(fieldId));
    const one = await call('GET', `/api/rotations/${created.rotation_uuid}`, {
      token: user.token,
      query: { yeargroup: 1999, fields_id: 1 },
    });
    expect(one.body).toEqual({ data: created });
    expect((await call('GET', `/rotations/${created.rotation_uuid}`, { token: user.token })).body).toEqual({
      data: created,
    });
    const stranger = await newUser();
    expect((await call('GET', `/api/rotations/${created.rotation_uuid}`, { token: stranger.token })).status).toBe(404);
    expect(
      (await call('GET', '/api/rotations/6f1c0b1e-3c53-4d2b-9f4e-2f1d2a3b4c5d', { token: user.token })).status,
    ).toBe(404);
    expect((await call('GET', '/api/rotations/not-a-uuid', { token: user.token })).body.code).toBe(-4);
  });
});

describe('PATCH /rotations/<uuid>', () => {
  it('changes ha, crop_id and dates, ignores other keys, and answers the spec keys', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const created = await createOne(user, rotation(fieldId));
    const response = await call('PATCH', `/rotations/${created.rotation_uuid}`, {
      token: user.token,
      json: { ha: 50, crop_id: 2, start_date: `${YEAR}-09-01T00:00:00Z`, yeargroup: 1999, field_id: 1 },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      crop_variety_id: null,
      crop_variety_name: null,
      crop_order: 1,
      end_date: created.end_date,
      yeargroup: YEAR,
      field_id: fieldId,
      crop_id: 2,
      crop_name: 'Maíz',
      cicle_id: created.cicle_id,
      rotation_uuid: created.rotation_uuid,
      ha: 50,
      start_date: `${YEAR}-09-01T00:00:00Z`,
    });
  });

  it('refuses an end before the start (-13), a read share (-11) and unknown crops (-12)', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const created = await createOne(owner, rotation(fieldId));
    const path = `/rotations/${created.rotation_uuid}`;
    const dates = await call('PATCH', path, { token: owner.token, json: { end_date: `${YEAR - 1}-01-01T00:00:00Z` } });
    expect([dates.status, dates.body.code]).toEqual([400, -13]);
    const crop = await call('PATCH', path, { token: owner.token, json: { crop_id: 999 } });
    expect([crop.status, crop.body.code]).toEqual([400, -12]);
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    const refused = await call('PATCH', path, { token: reader.token, json: { ha: 1 } });
    expect([refused.status, refused.body.code]).toEqual([403, -11]);
  });
});

describe('/rotations/variety/<uuid>', () => {
  it("lists the crop's varieties, assigns and removes them", async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const created = await createOne(user, rotation(fieldId));
    const path = `/rotations/variety/${created.rotation_uuid}`;
    const available = await call('GET', path, { token: user.token });
    expect(available.body.varieties.length).toBeGreaterThan(2);
    expect(available.body.varieties[0]).toEqual({ variety_id: 101, variety_name: 'DM 4612', selected: false });
    const added = await call('POST', `/api${path}`, { token: user.token, json: { varieties: [101, 102] } });
    expect(added.body.varieties.filter((v: any) => v.selected).map((v: any) => v.variety_id)).toEqual([101, 102]);
    const shown = (await call('GET', `/rotations/${created.rotation_uuid}`, { token: user.token })).body.data.varieties;
    expect(shown).toEqual([
      { crop_variety_id: 101, id: 101, crop_variety_name: 'DM 4612' },
      { crop_variety_id: 102, id: 102, crop_variety_name: 'DM 46i20 IPRO STS' },
    ]);
    const removed = await call('DELETE', path, { token: user.token, query: { variety_id: 101 } });
    expect(removed.body.varieties.filter((v: any) => v.selected).map((v: any) => v.variety_id)).toEqual([102]);
  });

  it('refuses varieties of another crop (400 -4); a change of crop drops them', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const created = await createOne(user, rotation(fieldId));
    const path = `/rotations/variety/${created.rotation_uuid}`;
    const wrong = await call('POST', path, { token: user.token, json: { varieties: [201] } });
    expect([wrong.status, wrong.body.code]).toEqual([400, -4]);
    await call('POST', path, { token: user.token, json: { varieties: [101] } });
    await call('PATCH', `/rotations/${created.rotation_uuid}`, { token: user.token, json: { crop_id: 2 } });
    const after = (await call('GET', `/rotations/${created.rotation_uuid}`, { token: user.token })).body.data;
    expect(after.varieties).toBeNull();
  });
});

describe('tenants and client uuids', () => {
  it("lets a tenant use a rotation uuid another tenant chose, without touching the other's", async () => {
    const a = await newUser();
    const b = await newUser();
    const fa = await createField(a);
    const fb = await createField(b);
    const uuid = '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b';
    const mine = await createOne(a, rotation(fa.fieldId, { rotation_uuid: uuid, yield_crop: 1 }));
    const theirs = await createOne(b, rotation(fb.fieldId, { rotation_uuid: uuid, yield_crop: 2 }));
    expect([mine.rotation_uuid, theirs.rotation_uuid]).toEqual([uuid, uuid]);
    expect((await call('GET', `/rotations/${uuid}`, { token: a.token })).body.data).toMatchObject({
      field_id: fa.fieldId,
      yield_crop: 1,
    });
    expect((await call('GET', `/rotations/${uuid}`, { token: b.token })).body.data).toMatchObject({
      field_id: fb.fieldId,
      yield_crop: 2,
    });
    const stranger = await newUser();
    const probe = await call('GET', `/rotations/${uuid}`, { token: stranger.token });
    const nothing = await call('GET', '/rotations/2f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b', { token: stranger.token });
    expect([probe.status, probe.body]).toEqual([
      nothing.status,
      { ...nothing.body, info: nothing.body.info.replace('2f2e', '1f2e') },
    ]);
  });
});
