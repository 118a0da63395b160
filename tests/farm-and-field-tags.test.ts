// Spec 2, "Farm tags" (/api/tags_campos/tag, /api/tags_campos/asociar) and "Field tags"
// (/api/fields/v2/tag): bodies, random colour, colour format, per-user unique names, error codes.
import { describe, expect, it } from 'vitest';
import { call, createField, internal, newUser, type TestUser, unique } from './helpers/api';

const TAG = '/api/tags_campos/tag';
const LINK = '/api/tags_campos/asociar';
const HEX = /^[0-9A-F]{6}$/;

const createTag = (user: TestUser, query: Record<string, string | number | undefined>) =>
  call('POST', TAG, { token: user.token, query });
const farmOf = async (user: TestUser, farmId: number) =>
  (await call('GET', '/api/getfields', { token: user.token })).body.user.farms[String(farmId)];

describe('POST /api/tags_campos/tag', () => {
  it("creates a tag: {color, res:'creado', tag, id_tag, id_campo}", async () => {
    const user = await newUser();
    const response = await createTag(user, { desc: 'Alquilado', color: 'ff0000' });
    expect(
      (await call('GET', TAG, { token: user.token, query: { id_tag: response.body.id_tag } })).body.result[
        response.body.id_tag
      ].color,
    ).toBe('ff0000');
    expect(response.status).toBe(200);
    // the color comes back exactly as sent (it was upper-cased)
    expect(response.body).toEqual({
      color: 'ff0000',
      res: 'creado',
      tag: 'Alquilado',
      id_tag: expect.any(Number),
      id_campo: null,
    });
  });

  it('gives a random colour when none is sent', async () => {
    const user = await newUser();
    const colors = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const response = await createTag(user, { desc: `t${i}` });
      expect(response.body.color).toMatch(HEX);
      colors.add(response.body.color);
    }
    expect(colors.size).toBeGreaterThan(1);
  });

  it('code 2 for a colour that is not 6 hexadecimal characters without #', async () => {
    const user = await newUser();
    for (const color of ['#FF0000', 'GGGGGG', 'FFF']) {
      const response = await createTag(user, { desc: unique('t'), color });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ info: expect.any(String), res: 'err', code: 2 });
    }
  });

  it('code 3 when the user already has a tag of that name; another user may use it', async () => {
    const user = await newUser();
    await createTag(user, { desc: 'Propio' });
    const again = await createTag(user, { desc: ' propio ' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ res: 'err', code: 3 });
    const other = await newUser();
    expect((await createTag(other, { desc: 'Propio' })).status).toBe(200);
  });

  it('code 1 without desc; parameters may also come in a JSON body', async () => {
    const user = await newUser();
    expect((await createTag(user, {})).body).toMatchObject({ res: 'err', code: 1 });
    const response = await call('POST', TAG, { token: user.token, json: { desc: 'En el cuerpo', color: '00FF00' } });
    expect(response.body).toMatchObject({ res: 'creado', tag: 'En el cuerpo', color: '00FF00' });
  });

  it('attaches the new tag to a farm with id_campo; getfields shows tags and tags_names', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const response = await createTag(user, { desc: 'Norte', id_campo: farmId });
    expect(response.body.id_campo).toBe(farmId);
    const farm = await farmOf(user, farmId);
    expect(farm.tags).toEqual([response.body.id_tag]);
    expect(farm.tags_names).toEqual(['Norte']);
  });

  it('answers in Spanish, in the dialect, without a token', async () => {
    const response = await call('POST', TAG, { query: { desc: 'x' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ info: expect.stringMatching(/autenticaci/), res: 'err', code: -3 });
  });
});

describe('PATCH /api/tags_campos/tag', () => {
  it("changes the text, with a random colour when none is sent: {color, id_usuario, tag, id_tag, res:'modificado'}", async () => {
    const user = await newUser();
    const { id_tag } = (await createTag(user, { desc: 'Viejo', color: '000000' })).body;
    const response = await call('PATCH', TAG, { token: user.token, query: { id_tag, desc: 'Nuevo' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      color: expect.stringMatching(HEX),
      id_usuario: user.id,
      tag: 'Nuevo',
      id_tag,
      res: 'modificado',
    });
    const colorOnly = await call('PATCH', TAG, { token: user.token, query: { id_tag, color: 'ABCDEF' } });
    expect(colorOnly.body).toMatchObject({ tag: 'Nuevo', color: 'ABCDEF' });
    // the old name is free again
    expect((await createTag(user, { desc: 'Viejo' })).status).toBe(200);
  });

  it('code 1 without desc and color, 2 for a bad colour, 3 for an unknown tag, -6 for a name in use', async () => {
    const user = await newUser();
    const a = (await createTag(user, { desc: 'A' })).body.id_tag;
    await createTag(user, { desc: 'B' });
    const cases: Array<[Record<string, string | number>, number]> = [
      [{ id_tag: a }, 1],
      [{ id_tag: a, color: 'red' }, 2],
      [{ id_tag: 99_999_999, desc: 'x' }, 3],
      [{ id_tag: a, desc: 'b' }, -6],
    ];
    for (const [query, code] of cases) {
      const response = await call('PATCH', TAG, { token: user.token, query });
      expect(response.body).toMatchObject({ res: 'err', code });
    }
  });

  it("cannot change another user's tag (code 3)", async () => {
    const owner = await newUser();
    const { id_tag } = (await createTag(owner, { desc: 'Mío' })).body;
    const other = await newUser();
    const response = await call('PATCH', TAG, { token: other.token, query: { id_tag, desc: 'Robado' } });
    expect(response.body.code).toBe(3);
  });
});

describe('GET /api/tags_campos/tag', () => {
  it("answers {filter, result} for one tag, a farm's tags and all the user's tags", async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const one = (await createTag(user, { desc: 'Uno', color: '111111', id_campo: farmId })).body.id_tag;
    const two = (await createTag(user, { desc: 'Dos', color: '222222' })).body.id_tag;
    const info = await call('GET', TAG, { token: user.token, query: { id_tag: one } });
    expect(info.body).toEqual({ filter: 'tag info', result: { [one]: { color: '111111', tag: 'Uno' } } });
    const farm = await call('GET', TAG, { token: user.token, query: { id_campo: farmId } });
    expect(farm.body).toEqual({ filter: 'farm tags', result: { [one]: { color: '111111', tag: 'Uno' } } });
    const all = await call('GET', TAG, { token: user.token });
    expect(all.body).toEqual({
      filter: 'user tags',
      result: { [one]: { color: '111111', tag: 'Uno' }, [two]: { color: '222222', tag: 'Dos' } },
    });
  });

  it("does not show another user's tags", async () => {
    const owner = await newUser();
    const { id_tag } = (await createTag(owner, { desc: 'Privado' })).body;
    const other = await newUser();
    expect((await call('GET', TAG, { token: other.token, query: { id_tag } })).body.code).toBe(3);
    expect((await call('GET', TAG, { token: other.token })).body.result).toEqual({});
  });
});

describe('DELETE /api/tags_campos/tag', () => {
  it("deletes the tag and its links: {res:'eliminado', id_tag}", async () => {
    const user = await newUser();
    const { farmId, fieldId } = await createField(user);
    const { id_tag } = (await createTag(user, { desc: 'Borrar', id_campo: farmId })).body;
    await call('POST', '/api/fields/v2/tag', { token: user.token, json: { field_id: fieldId, tag_id: id_tag } });
    const response = await call('DELETE', TAG, { token: user.token, query: { id_tag } });
    expect(response.body).toEqual({ res: 'eliminado', id_tag });
    expect((await farmOf(user, farmId)).tags).toBeNull();
    const again = await call('DELETE', TAG, { token: user.token, query: { id_tag } });
    expect(again.body).toMatchObject({ res: 'err', code: 3 });
    // its name can be used again
    expect((await createTag(user, { desc: 'Borrar' })).status).toBe(200);
  });
});

describe('/api/tags_campos/asociar', () => {
  it('attaches and detaches, answering every tag now on the farm', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const a = (await createTag(user, { desc: 'A', color: 'AAAAAA' })).body.id_tag;
    const b = (await createTag(user, { desc: 'B', color: 'BBBBBB' })).body.id_tag;
    await call('POST', LINK, { token: user.token, query: { id_tag: a, id_campo: farmId } });
    const both = await call('POST', LINK, { token: user.token, query: { id_tag: b, id_campo: farmId } });
    expect(both.body).toEqual({ [a]: { tag: 'A', color: 'AAAAAA' }, [b]: { tag: 'B', color: 'BBBBBB' } });
    const left = await call('DELETE', LINK, { token: user.token, query: { id_tag: a, id_campo: farmId } });
    expect(left.body).toEqual({ [b]: { tag: 'B', color: 'BBBBBB' } });
    expect((await farmOf(user, farmId)).tags_names).toEqual(['B']);
  });

  it('code 1 for missing parameters; code 3 for a farm the user cannot reach', async () => {
    const user = await newUser();
    const { id_tag } = (await createTag(user, { desc: 'X' })).body;
    expect((await call('POST', LINK, { token: user.token, query: { id_tag } })).body).toMatchObject({
      res: 'err',
      code: 1,
    });
    expect((await call('DELETE', LINK, { token: user.token, query: {} })).body).toMatchObject({ res: 'err', code: 1 });
    const owner = await newUser();
    const { farmId } = await createField(owner);
    expect((await call('POST', LINK, { token: user.token, query: { id_tag, id_campo: farmId } })).body.code).toBe(3);
  });

  it('lets a user label a shared farm with its own tags, unseen by the owner', async () => {
    const owner = await newUser();
    const { farmId } = await createField(owner);
    const guest = await newUser();
    await internal('/internal/shares', { user_id: guest.id, farm_id: farmId, permission: 'read' });
    const { id_tag } = (await createTag(guest, { desc: 'Vecino' })).body;
    expect((await call('POST', LINK, { token: guest.token, query: { id_tag, id_campo: farmId } })).status).toBe(200);
    expect((await farmOf(guest, farmId)).tags_names).toEqual(['Vecino']);
    expect((await farmOf(owner, farmId)).tags).toBeNull();
  });
});

describe('/api/fields/v2/tag', () => {
  it("attaches a tag by field_uuid or field_id: {CODE:'OK', data:[tags of the field]}", async () => {
    const user = await newUser();
    const { fieldId, farmId } = await createField(user);
    const uuid = (await farmOf(user, farmId)).fields[fieldId].uuid;
    const a = (await createTag(user, { desc: 'A', color: 'AAAAAA' })).body.id_tag;
    const b = (await createTag(user, { desc: 'B', color: 'BBBBBB' })).body.id_tag;
    const first = await call('POST', '/api/fields/v2/tag', {
      token: user.token,
      json: { field_uuid: uuid, tag_id: a },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ CODE: 'OK', data: [{ id_tag: a, tag: 'A', color: 'AAAAAA' }] });
    const second = await call('POST', '/api/fields/v2/tag', {
      token: user.token,
      json: { field_id: fieldId, tag_id: b },
    });
    expect(second.body.data.map((t: any) => t.id_tag)).toEqual([a, b]);
    const removed = await call('DELETE', '/api/fields/v2/tag', {
      token: user.token,
      query: { field_uuid: uuid, tag_id: a },
    });
    expect(removed.body).toEqual({ CODE: 'OK', data: [{ id_tag: b, tag: 'B', color: 'BBBBBB' }] });
  });

  it('400 for both or neither field reference or an unknown tag; 401 without token; 403 without permission', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const { id_tag } = (await createTag(user, { desc: 'T' })).body;
    for (const json of [
      { tag_id: id_tag },
      { field_id: fieldId, field_uuid: '6f1c0b1e-3c53-4d2b-9f4e-2f1d2a3b4c5d', tag_id: id_tag },
      { field_id: fieldId, tag_id: 99_999_999 },
      { field_id: fieldId },
    ]) {
      const response = await call('POST', '/api/fields/v2/tag', { token: user.token, json });
      expect(response.status).toBe(400);
      expect(response.body.CODE).toBe('BAD_REQUEST');
    }
    const anonymous = await call('POST', '/api/fields/v2/tag', { json: { field_id: fieldId, tag_id: id_tag } });
    expect([anonymous.status, anonymous.body.CODE]).toEqual([401, 'UNAUTHORIZED']);
    const stranger = await newUser();
    const theirs = (await createTag(stranger, { desc: 'S' })).body.id_tag;
    const refused = await call('POST', '/api/fields/v2/tag', {
      token: stranger.token,
      json: { field_id: fieldId, tag_id: theirs },
    });
    expect([refused.status, refused.body.CODE]).toEqual([403, 'FORBIDDEN']);
  });
});
