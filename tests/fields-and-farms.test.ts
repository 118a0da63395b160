// Spec 2, "Fields": POST /api/agregarlote, GET /api/getfields, GET /api/borrarlotes, with every
// code of the field-creation table that can arise, shares, supervisions and quotas.
import { describe, expect, it } from 'vitest';
import {
  call,
  createField,
  createUser,
  internal,
  newUser,
  square,
  type TestUser,
  tokenFor,
  unique,
} from './helpers/api';

import { ellipsoidRectangleHectares, relative } from './helpers/geodesy';

const round = (value: number) => Number(value.toFixed(9));
const coordinates = (wkt: string) =>
  [...wkt.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m) => [round(Number(m[1])), round(Number(m[2]))]);

const agregar = (user: TestUser, form: Record<string, string | number | undefined>) =>
  call('POST', '/api/agregarlote', { token: user.token, form });

const getfields = (user: TestUser) => call('GET', '/api/getfields', { token: user.token });

const fieldOf = (listing: any, fieldId: number) => {
  for (const farm of Object.values(listing.user.farms) as any[]) {
    if (farm.fields[String(fieldId)]) return { farm, field: farm.fields[String(fieldId)] };
  }
  return undefined;
};

describe('POST /api/agregarlote', () => {
  it('creates a field in a new farm and answers id_lote (string) and id_campo (integer)', async () => {
    const user = await newUser();
    const response = await agregar(user, {
      nombre: 'Lote 1',
      shape: square(-60.5, -33.9),
      nombrecampo: unique('Estancia').slice(0, 40),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      res: 'ok',
      code: 0,
      info: expect.stringContaining(response.body.id_lote),
      id_lote: expect.stringMatching(/^\d+$/),
      id_campo: expect.any(Number),
    });
    expect(Number.isInteger(response.body.id_campo)).toBe(true);
  });

  it('measures the field: area in hectares, centroid, bounding box, creation date, country', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(-60.5, -33.9, 0.02) });
    const { field } = fieldOf((await getfields(user)).body, fieldId)!;
    const current = field.shapes.current;
    expect(relative(current.area, ellipsoidRectangleHectares(-33.9, 0.02))).toBeLessThan(0.0001);
    expect(current.centroid).toBe('POINT(-60.49 -33.89)');
    expect(current.bbox).toBe('POLYGON((-60.5 -33.9,-60.48 -33.9,-60.48 -33.88,-60.5 -33.88,-60.5 -33.9))');
    expect(coordinates(current.polygon)).toEqual(coordinates(square(-60.5, -33.9, 0.02)));
    expect(current.start_date).toBe(new Date().toISOString().slice(0, 10));
    expect(current.end_date).toBe('current');
    expect(field.country).toBe('AR');
  });

  it('joins the farm of the same name (case-insensitive) or the farm given by idcampo', async () => {
    const user = await newUser();
    const farmName = unique('Campo').slice(0, 40);
    const first = await createField(user, { farmName, shape: square(-60.5, -33.9) });
    const second = await createField(user, { farmName: farmName.toUpperCase(), shape: square(-60.4, -33.8) });
    const third = await createField(user, { farmId: first.farmId, shape: square(-60.3, -33.7) });
    expect(second.farmId).toBe(first.farmId);
    expect(third.farmId).toBe(first.farmId);
    const farm = (await getfields(user)).body.user.farms[String(first.farmId)];
    expect(Object.keys(farm.fields).sort()).toEqual([first.fieldId, second.fieldId, third.fieldId].map(String).sort());
    expect(farm.bbox).toBe('POLYGON((-60.5 -33.9,-60.29 -33.9,-60.29 -33.69,-60.5 -33.69,-60.5 -33.9))');
  });

  it('ignores nombrecampo when idcampo is sent', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const response = await agregar(user, {
      nombre: 'x',
      shape: square(-60, -34),
      idcampo: farmId,
      nombrecampo: 'A'.repeat(80),
    });
    expect(response.status).toBe(200);
    expect(response.body.id_campo).toBe(farmId);
  });

  it('code 4: the field name is repeated in the farm (case- and space-insensitive)', async () => {
    const user = await newUser();
    const { farmId } = await createField(user, { name: 'Lote Norte' });
    const response = await agregar(user, { nombre: '  lote   NORTE ', shape: square(-60, -34), idcampo: farmId });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ res: 'error', code: 4, info: expect.any(String) });
    const otherFarm = await createField(user, { name: 'Lote Norte' });
    expect(otherFarm.farmId).not.toBe(farmId);
  });

  it('code 6: the farm name has more than 50 or fewer than 2 characters', async () => {
    const user = await newUser();
    for (const name of ['A'.repeat(51), 'A', '🌾'.repeat(51), '🌾']) {
      const response = await agregar(user, { nombre: 'x', shape: square(-60, -34), nombrecampo: name });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(6);
    }
    // characters are code points: 26 emoji (52 UTF-16 units) are 26 characters
    for (const name of [
      unique('B').padEnd(50, 'b').slice(0, 50),
      'Ab',
      `${'🌾'.repeat(26)}${unique('').slice(-6)}`,
      '🌾🐄',
    ]) {
      const response = await agregar(user, { nombre: unique('x'), shape: square(-60, -34), nombrecampo: name });
      expect(response.status).toBe(200);
    }
  });

  it('code 9: missing parameters', async () => {
    const user = await newUser();
    for (const form of [
      { shape: square(-60, -34), nombrecampo: 'Farm' },
      { nombre: 'x', nombrecampo: 'Farm' },
      { nombre: 'x', shape: square(-60, -34) },
      { nombre: '   ', shape: square(-60, -34), nombrecampo: 'Farm' },
    ]) {
      const response = await agregar(user, form);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(9);
    }
  });

  it('code 2: the shape is not a readable polygon', async () => {
    const user = await newUser();
    for (const shape of [
      'garbage',
      'POINT(-60 -34)',
      'LINESTRING(0 0,1 1)',
      'POLYGON((0 0,1 0',
      'SRID=3857;POLYGON((0 0,1 0,1 1,0 0))',
    ]) {
      const response = await agregar(user, { nombre: 'x', shape, nombrecampo: 'Farm' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(2);
    }
  });

  it('reads a MULTIPOLYGON of one part as that polygon; one of several parts is code 2', async () => {
    const user = await newUser();
    const polygon = square(-60.5, -33.9, 0.01);
    const single = `MULTIPOLYGON((${polygon.slice('POLYGON('.length, -1)}))`;
    const created = await agregar(user, { nombre: unique('multi'), shape: single, nombrecampo: 'Farm' });
    expect(created.status).toBe(200);
    const { field } = fieldOf((await getfields(user)).body, Number(created.body.id_lote))!;
    expect(field.shapes.current.polygon).toMatch(/^POLYGON\(\(/);
    expect(coordinates(field.shapes.current.polygon)).toEqual(coordinates(polygon));
    const two = `MULTIPOLYGON((${polygon.slice('POLYGON('.length, -1)}),(${square(-60.3, -33.9, 0.01).slice('POLYGON('.length, -1)}))`;
    const refused = await agregar(user, { nombre: unique('multi'), shape: two, nombrecampo: 'Farm' });
    expect([refused.status, refused.body.code]).toEqual([400, 2]);
  });

  it('code 10: the polygon is invalid (self-intersecting, open ring, outside EPSG 4326, empty)', async () => {
    const user = await newUser();
    for (const shape of [
      'POLYGON((-60 -34,-59.99 -33.99,-59.99 -34,-60 -33.99,-60 -34))',
      'POLYGON((-60 -34,-59.99 -34,-59.99 -33.99,-60 -33.99))',
      'POLYGON((500 -34,501 -34,501 -33,500 -34))',
      'POLYGON EMPTY',
    ]) {
      const response = await agregar(user, { nombre: 'x', shape, nombrecampo: 'Farm' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10);
    }
  });

  it('code -4: idcampo is not an integer', async () => {
    const user = await newUser();
    const response = await agregar(user, { nombre: 'x', shape: square(-60, -34), idcampo: 'abc' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(-4);
  });

  it('code 11: the field exceeds the admitted hectares', async () => {
    const user = await newUser();
    const response = await agregar(user, { nombre: 'x', shape: square(-61, -35, 0.5), nombrecampo: 'Farm' });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(11);
  });

  it('code 11: a sliver of 7.5 ha whose bounding box is 0.75 degrees a side (its imagery grid would pass the bound); nothing is created', async () => {
    const user = await newUser();
    const sliver = 'POLYGON((-61 -34,-60.25 -33.25,-60.25 -33.24999,-61 -33.99999,-61 -34))';
    const response = await agregar(user, { nombre: 'Franja', shape: sliver, nombrecampo: 'Franjas' });
    expect([response.status, response.body.code]).toEqual([403, 11]);
    expect(response.body.info).toMatch(/imagery grid would pass 4000000 pixels/);
    const fields = await call('GET', '/api/getfields', { token: user.token });
    expect(JSON.stringify(fields.body)).not.toContain('Franja');
  });

  it("code 12: idcampo is unknown or a farm the user cannot add fields to (another user's, or shared read-only)", async () => {
    const owner = await newUser();
    const { farmId } = await createField(owner);
    const stranger = await newUser();
    for (const idcampo of [farmId, 99_999_999]) {
      const response = await agregar(stranger, { nombre: 'x', shape: square(-60, -34), idcampo });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(12);
    }
    await internal('/internal/shares', { user_id: stranger.id, farm_id: farmId, permission: 'read' });
    const readOnly = await agregar(stranger, { nombre: 'x', shape: square(-60, -34), idcampo: farmId });
    expect(readOnly.body.code).toBe(12);
  });

  it('lets a user with an "add" share create fields in the farm, owned by the farm owner', async () => {
    const owner = await newUser();
    const { farmId } = await createField(owner);
    const helper = await newUser();
    await internal('/internal/shares', { user_id: helper.id, farm_id: farmId, permission: 'add' });
    const response = await agregar(helper, { nombre: unique('added'), shape: square(-60.2, -34), idcampo: farmId });
    expect(response.status).toBe(200);
    const ownerView = fieldOf((await getfields(owner)).body, Number(response.body.id_lote));
    expect(ownerView?.field.role).toBe(1);
  });

  it("code 13: the hectares consumed would exceed the user's availability; deleting gives them back", async () => {
    const user = await newUser({ hectare_quota: 150 });
    const first = await agregar(user, { nombre: 'a', shape: square(-60.5, -33.9), nombrecampo: 'Quota' });
    expect(first.status).toBe(200);
    const second = await agregar(user, { nombre: 'b', shape: square(-60.4, -33.9), nombrecampo: 'Quota' });
    expect(second.status).toBe(403);
    expect(second.body.code).toBe(13);
    const small = await newUser({ hectare_quota: 50 });
    const tooBig = await agregar(small, { nombre: 'a', shape: square(-60.5, -33.9), nombrecampo: 'Quota' });
    expect(tooBig.body.code).toBe(13);
    const deleted = await call('GET', '/api/borrarlotes', { token: user.token, query: { lote: first.body.id_lote } });
    expect(deleted.status).toBe(200);
    const retry = await agregar(user, { nombre: 'b', shape: square(-60.4, -33.9), nombrecampo: 'Quota' });
    expect(retry.status).toBe(200);
  });

  it("code 8: the workspace quota (its administrator's) would be exceeded by its members together", async () => {
    const admin = await createUser({ hectare_quota: 150 });
    const member = await newUser({ space_id: admin.space_id });
    const first = await agregar(member, { nombre: 'a', shape: square(-60.5, -33.9), nombrecampo: 'Space' });
    expect(first.status).toBe(200);
    const second = await agregar(member, { nombre: 'b', shape: square(-60.4, -33.9), nombrecampo: 'Space' });
    expect(second.status).toBe(403);
    expect(second.body.code).toBe(8);
  });

  it('counts quota atomically: of concurrent creations only those that fit succeed', async () => {
    const user = await newUser({ hectare_quota: 250 });
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        agregar(user, { nombre: `c${i}`, shape: square(-60.5 + i * 0.1, -33.9), nombrecampo: 'Race' }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 403 && r.body.code === 13)).toHaveLength(2);
  });

  it('never creates two fields of one name under concurrent requests', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const results = await Promise.all(
      [0, 1, 2].map(() => agregar(user, { nombre: 'Same', shape: square(-60, -34), idcampo: farmId })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const farm = (await getfields(user)).body.user.farms[String(farmId)];
    expect(Object.values(farm.fields).filter((f: any) => f.name === 'Same')).toHaveLength(1);
  });

  it('allocates integer ids that grow', async () => {
    const user = await newUser();
    const a = await createField(user);
    const b = await createField(user);
    expect(b.fieldId).toBeGreaterThan(a.fieldId);
    expect(b.farmId).toBeGreaterThan(a.farmId);
  });
});

describe('GET /api/getfields', () => {
  it("groups the caller's farms and fields by id strings, with role and permissions (220 for the owner)", async () => {
    const user = await newUser();
    const { fieldId, farmId } = await createField(user);
    const response = await getfields(user);
    expect(response.status).toBe(200);
    expect(response.body.code).toBe(0);
    expect(response.body.user).toMatchObject({ uid: user.uid, user_name: user.user_name });
    const farm = response.body.user.farms[String(farmId)];
    expect(farm).toMatchObject({ id: farmId, role: 1, tags: null, tags_names: [] });
    expect(farm.permissions).toContain(220);
    expect(farm.fields[String(fieldId)]).toMatchObject({ id: fieldId, role: 1, farm: farm.name });
    expect(response.body.supervised).toEqual({});
  });

  it("never shows another user's fields", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const other = await newUser();
    const listing = (await getfields(other)).body;
    expect(fieldOf(listing, fieldId)).toBeUndefined();
    expect(listing.user.farms).toEqual({});
  });

  it("shows shared farms and fields with the share's role and permissions", async () => {
    const owner = await newUser();
    const a = await createField(owner, { farmName: unique('Shared').slice(0, 40) });
    const b = await createField(owner, { farmId: a.farmId, shape: square(-60.3, -33.9) });
    const c = await createField(owner);
    const guest = await newUser();
    await internal('/internal/shares', { user_id: guest.id, farm_id: a.farmId, permission: 'edit' });
    await internal('/internal/shares', { user_id: guest.id, field_id: c.fieldId, permission: 'read' });
    const listing = (await getfields(guest)).body;
    const shared = listing.user.farms[String(a.farmId)];
    expect(Object.keys(shared.fields).sort()).toEqual([a.fieldId, b.fieldId].map(String).sort());
    expect(shared.role).toBe(3);
    expect(shared.permissions).toEqual(expect.arrayContaining([100, 110, 200, 220]));
    expect(shared.permissions).not.toContain(210);
    const single = listing.user.farms[String(c.farmId)];
    expect(Object.keys(single.fields)).toEqual([String(c.fieldId)]);
    expect(single.fields[String(c.fieldId)].permissions).toEqual([100]);
  });

  it('lists supervised users under `supervised`, keyed by user id, with their farms', async () => {
    const supervisor = await newUser();
    const supervised = await newUser();
    const { fieldId, farmId } = await createField(supervised);
    await internal('/internal/supervisions', {
      supervisor_id: supervisor.id,
      user_id: supervised.id,
      permission: 'read',
    });
    const listing = (await getfields(supervisor)).body;
    expect(listing.user.farms).toEqual({});
    const entry = listing.supervised[String(supervised.id)];
    expect(entry).toMatchObject({ uid: supervised.uid, user_name: supervised.user_name });
    expect(entry.farms[String(farmId)].fields[String(fieldId)].permissions).toEqual([100]);
    expect(entry.farms[String(farmId)].role).toBe(7);
  });
});

describe('GET /api/borrarlotes', () => {
  it('deletes the field; it disappears for the owner and for those it was shared with', async () => {
    const owner = await newUser();
    const { fieldId, farmId } = await createField(owner, { name: 'Gone' });
    const guest = await newUser();
    await internal('/internal/shares', { user_id: guest.id, field_id: fieldId, permission: 'read' });
    const response = await call('GET', '/api/borrarlotes', { token: owner.token, query: { lote: fieldId } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ res: 'ok', code: 0, info: expect.any(String), id_lote: String(fieldId) });
    expect(fieldOf((await getfields(owner)).body, fieldId)).toBeUndefined();
    expect(fieldOf((await getfields(guest)).body, fieldId)).toBeUndefined();
    // the name is free again in the farm
    const again = await agregar(owner, { nombre: 'Gone', shape: square(-60, -34), idcampo: farmId });
    expect(again.status).toBe(200);
    const twice = await call('GET', '/api/borrarlotes', { token: owner.token, query: { lote: fieldId } });
    expect([twice.status, twice.body.code]).toEqual([404, 1]);
  });

  it("refuses another user's field (404 code 1) and a read share (403 code 7); an admin share may delete", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const stranger = await newUser();
    const hidden = await call('GET', '/api/borrarlotes', { token: stranger.token, query: { lote: fieldId } });
    expect([hidden.status, hidden.body.code]).toEqual([404, 1]);
    await internal('/internal/shares', { user_id: stranger.id, field_id: fieldId, permission: 'read' });
    const readOnly = await call('GET', '/api/borrarlotes', { token: stranger.token, query: { lote: fieldId } });
    expect([readOnly.status, readOnly.body.code]).toEqual([403, 7]);
    await internal('/internal/shares', { user_id: stranger.id, field_id: fieldId, permission: 'admin' });
    const admin = await call('GET', '/api/borrarlotes', { token: stranger.token, query: { lote: fieldId } });
    expect(admin.status).toBe(200);
  });

  it('answers code 9 without lote and -4 for a non-numeric lote', async () => {
    const user = await newUser();
    const missing = await call('GET', '/api/borrarlotes', { token: user.token });
    expect([missing.status, missing.body.code]).toEqual([400, 9]);
    const bad = await call('GET', '/api/borrarlotes', { token: user.token, query: { lote: 'abc' } });
    expect([bad.status, bad.body.code]).toEqual([400, -4]);
  });

  it('needs a valid token', async () => {
    const user = await createUser();
    const expired = await tokenFor(user.id, { ttl_s: 0 });
    const response = await call('GET', '/api/borrarlotes', { token: expired, query: { lote: 1 } });
    expect([response.status, response.body.code]).toEqual([401, -2]);
  });
});
