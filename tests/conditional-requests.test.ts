// No lost updates (docs/integrations.md, ETags): every record's GET carries an ETag (its
// revision); PATCH, PUT and DELETE honour If-Match (412 in the route's dialect, nothing written);
// creates by client uuid honour If-None-Match: *; without the headers, behaviour is the spec's.
// One mechanism (lib/http/conditional.ts, lib/db/revision.ts) serves every kind of record: the
// labour is proved in full, the other kinds through the same steps.
import { randomUUID } from 'node:crypto';
import { v1 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { call, createField, createUser, internal, newUser, square, type TestUser, tokenFor } from './helpers/api';

const labourPath = (uuid: string) => `/api/activities/labour/${uuid}`;

async function newLabour(user: TestUser, fieldId: number, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await call('POST', '/api/activities/labour', {
    token: user.token,
    json: { labour_type_id: 1, yeargroup: 2026, date: '2026-11-20', field_id: fieldId, surface: 10, ...extra },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.data.uuid;
}

const etag = (response: { headers: Headers }) => response.headers.get('etag');

describe('ETag and If-Match on labours', () => {
  it('two clients read a labour; one changes it; the other, with the old ETag, gets 412 and the first change stays', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await newLabour(owner, fieldId);
    // a second client: another token of a user the owner shared the field with (edit)
    const colleague = await newUser();
    await internal('/internal/shares', { user_id: colleague.id, field_id: fieldId, permission: 'edit' });

    const readA = await call('GET', labourPath(uuid), { token: owner.token });
    const readB = await call('GET', labourPath(uuid), { token: colleague.token });
    expect(readA.status).toBe(200);
    const tag = etag(readA);
    expect(tag).toMatch(/^"[0-9a-z_-]+"$/i);
    expect(etag(readB)).toBe(tag);
    // the ETag is exposed to browsers
    expect(readA.headers.get('access-control-expose-headers')).toMatch(/ETag/i);

    const first = await call('PATCH', labourPath(uuid), {
      token: owner.token,
      json: { surface: 20 },
      headers: { 'if-match': tag! },
    });
    expect(first.status, first.text).toBe(200);
    const newTag = etag(first);
    expect(newTag).toMatch(/^".+"$/);
    expect(newTag).not.toBe(tag);

    const stale = await call('PATCH', labourPath(uuid), {
      token: colleague.token,
      json: { surface: 30 },
      headers: { 'if-match': tag! },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ res: 'error', code: -1, info: expect.stringMatching(/changed/) });

    const after = await call('GET', labourPath(uuid), { token: colleague.token });
    expect(after.body.data.surface).toBe(20);
    expect(etag(after)).toBe(newTag);

    // with the current ETag the change is made; a list of tags matches any of them
    const fresh = await call('PATCH', labourPath(uuid), {
      token: colleague.token,
      json: { surface: 30 },
      headers: { 'if-match': `"nope", ${newTag}` },
    });
    expect(fresh.status, fresh.text).toBe(200);
    expect((await call('GET', labourPath(uuid), { token: owner.token })).body.data.surface).toBe(30);
  });

  it('lets exactly one of many concurrent PATCHes with the same ETag win (the check and the write are one)', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await newLabour(owner, fieldId);
    const tag = etag(await call('GET', labourPath(uuid), { token: owner.token }))!;
    const answers = await Promise.all(
      [11, 12, 13, 14, 15].map((surface) =>
        call('PATCH', labourPath(uuid), { token: owner.token, json: { surface }, headers: { 'if-match': tag } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    const read = await call('GET', labourPath(uuid), { token: owner.token });
    expect(etag(read)).toBe(etag(winner));
    expect([11, 12, 13, 14, 15]).toContain(read.body.data.surface);
  });

  it('keeps the spec behaviour without the headers: a change without If-Match is made, and changes the ETag', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await newLabour(owner, fieldId);
    const before = etag(await call('GET', labourPath(uuid), { token: owner.token }));
    const changed = await call('PATCH', labourPath(uuid), { token: owner.token, json: { surface: 40 } });
    expect(changed.status).toBe(200);
    const after = etag(await call('GET', labourPath(uuid), { token: owner.token }));
    expect(after).not.toBe(before);
    expect(etag(changed)).toBe(after);
  });

  it('DELETE with a stale If-Match answers 412 and deletes nothing; with the current one it deletes', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await newLabour(owner, fieldId);
    const old = etag(await call('GET', labourPath(uuid), { token: owner.token }))!;
    await call('PATCH', labourPath(uuid), { token: owner.token, json: { surface: 22 } });
    const refused = await call('DELETE', labourPath(uuid), { token: owner.token, headers: { 'if-match': old } });
    expect(refused.status).toBe(412);
    expect(refused.body.res).toBe('error');
    const still = await call('GET', labourPath(uuid), { token: owner.token });
    expect(still.status).toBe(200);
    const done = await call('DELETE', labourPath(uuid), { token: owner.token, headers: { 'if-match': etag(still)! } });
    expect(done.status).toBe(200);
    expect((await call('GET', labourPath(uuid), { token: owner.token })).status).toBe(404);
  });

  it('If-Match: * changes an existing record; a GET with a stale If-Match is 412', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await newLabour(owner, fieldId);
    const old = etag(await call('GET', labourPath(uuid), { token: owner.token }))!;
    const any = await call('PATCH', labourPath(uuid), {
      token: owner.token,
      json: { surface: 23 },
      headers: { 'if-match': '*' },
    });
    expect(any.status).toBe(200);
    const get = await call('GET', labourPath(uuid), { token: owner.token, headers: { 'if-match': old } });
    expect(get.status).toBe(412);
  });

  it('refuses a malformed If-Match, and If-None-Match other than * on a write, with the dialect 400', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await newLabour(owner, fieldId);
    const malformed: Record<string, string>[] = [{ 'if-match': 'no-quotes' }, { 'if-none-match': '"abc"' }];
    for (const headers of malformed) {
      const response = await call('PATCH', labourPath(uuid), { token: owner.token, json: { surface: 5 }, headers });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ res: 'error', code: -4 });
    }
    expect((await call('GET', labourPath(uuid), { token: owner.token })).body.data.surface).toBe(10);
    // a weak tag never matches (If-Match compares strongly)
    const tag = etag(await call('GET', labourPath(uuid), { token: owner.token }))!;
    const weak = await call('PATCH', labourPath(uuid), {
      token: owner.token,
      json: { surface: 6 },
      headers: { 'if-match': `W/${tag}` },
    });
    expect(weak.status).toBe(412);
  });

  it('If-None-Match: * creates once by client uuid: a repeat answers 412 instead of the labour it made', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = randomUUID();
    const body = { uuid, labour_type_id: 1, yeargroup: 2026, date: '2026-11-20', field_id: fieldId, surface: 10 };
    const headers = { 'if-none-match': '*' };
    const created = await call('POST', '/api/activities/labour', { token: owner.token, json: body, headers });
    expect(created.status, created.text).toBe(200);
    expect(etag(created)).toMatch(/^".+"$/);
    const repeated = await call('POST', '/api/activities/labour', { token: owner.token, json: body, headers });
    expect(repeated.status).toBe(412);
    expect(repeated.body).toMatchObject({ res: 'error', code: -1 });
    // without the header, the spec's idempotent answer
    const plain = await call('POST', '/api/activities/labour', { token: owner.token, json: body });
    expect([plain.status, plain.body.data.uuid]).toEqual([200, uuid]);
  });

  it("answers another tenant's labour with If-Match exactly as a uuid that exists nowhere", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await newLabour(owner, fieldId);
    const tag = etag(await call('GET', labourPath(uuid), { token: owner.token }))!;
    const stranger = await newUser();
    for (const header of [tag, '"0"', '*']) {
      const theirs = await call('PATCH', labourPath(uuid), {
        token: stranger.token,
        json: { surface: 1 },
        headers: { 'if-match': header },
      });
      const nowhereUuid = randomUUID();
      const nowhere = await call('PATCH', labourPath(nowhereUuid), {
        token: stranger.token,
        json: { surface: 1 },
        headers: { 'if-match': header },
      });
      const named = (body: unknown, id: string) => JSON.stringify(body).replaceAll(id, '<uuid>');
      expect([theirs.status, named(theirs.body, uuid)]).toEqual([nowhere.status, named(nowhere.body, nowhereUuid)]);
      expect(theirs.status).toBe(404);
    }
    expect((await call('GET', labourPath(uuid), { token: owner.token })).body.data.surface).toBe(10);
  });
});

// The other kinds: read the ETag, let someone change the record, then a stale If-Match is 412 in
// the area's dialect and the record keeps the other change.
describe('ETag and If-Match on the other kinds of records', () => {
  it('paddocks (livestock dialect)', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: square(-60.5, -33.9, 0.02) });
    const created = await call('POST', '/livestock/paddock', {
      token: owner.token,
      json: { field_id: fieldId, shape: square(-60.499, -33.899, 0.008), date: '2026-05-10T12:00:00Z', name: 'P1' },
    });
    expect(created.status, created.text).toBe(200);
    const path = `/livestock/paddock/${created.body.data.paddock_uuid}`;
    const tag = etag(await call('GET', path, { token: owner.token }))!;
    expect(tag).toMatch(/^".+"$/);
    expect((await call('PATCH', path, { token: owner.token, json: { name: 'P2' } })).status).toBe(200);
    const stale = await call('PATCH', path, { token: owner.token, json: { name: 'P3' }, headers: { 'if-match': tag } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ res: 'error', code: 'PRECONDITION_FAILED', info: expect.any(String) });
    const read = await call('GET', path, { token: owner.token });
    expect(read.body.data[0].name).toBe('P2');
    const gone = await call('DELETE', path, { token: owner.token, headers: { 'if-match': tag } });
    expect(gone.status).toBe(412);
    expect((await call('GET', path, { token: owner.token })).status).toBe(200);
  });

  it('herds (the one herd of a list carries its ETag; a PATCH answers the new one)', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const created = await call('POST', '/livestock/herd', {
      token: owner.token,
      json: {
        type_id: 4,
        animal_count: 10,
        paddock_uuid: null,
        weight: 4000,
        weight_unit: 'kg',
        herd_name: 'N1',
        field_id: fieldId,
      },
    });
    expect(created.status, created.text).toBe(200);
    const herdUuid = created.body.data.herd_uuid;
    const listed = await call('GET', '/livestock/herd', { token: owner.token });
    const tag = etag(listed)!;
    expect(tag).toBe(etag(created));
    const change = (name: string) => ({
      type_id: 4,
      herd_name: name,
      new_animals: { new_animals_count: 1, new_animals_weight: 400, new_animals_weight_unit: 'kg' },
    });
    const changed = await call('PATCH', `/livestock/herd/${herdUuid}`, { token: owner.token, json: change('N2') });
    expect(changed.status, changed.text).toBe(200);
    expect(etag(changed)).not.toBe(tag);
    const stale = await call('PATCH', `/livestock/herd/${herdUuid}`, {
      token: owner.token,
      json: change('N3'),
      headers: { 'if-match': tag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    const [kept] = (await call('GET', '/livestock/herd', { token: owner.token })).body.data;
    expect([kept.herd_name, kept.animal_count]).toEqual(['N2', 11]);
  });

  it('spots (spots dialect), and If-None-Match: * on a spot created by uuid', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = v1();
    const body = { uuid, field_id: fieldId, shape: 'POINT(-60.499 -33.895)', name: 'Antes' };
    const created = await call('POST', '/api/spots/spot', {
      token: owner.token,
      json: body,
      headers: { 'if-none-match': '*' },
    });
    expect(created.status, created.text).toBe(200);
    const tag = etag(created)!;
    const again = await call('POST', '/api/spots/spot', {
      token: owner.token,
      json: body,
      headers: { 'if-none-match': '*' },
    });
    expect(again.status).toBe(412);
    expect(again.body).toEqual({ code: expect.any(Number), info: expect.any(String) });
    const listed = await call('GET', '/api/spots/spot', { token: owner.token, query: { uuid } });
    expect(etag(listed)).toBe(tag);
    expect((await call('PATCH', '/api/spots/spot', { token: owner.token, json: { uuid, name: 'Uno' } })).status).toBe(
      200,
    );
    const stale = await call('PATCH', '/api/spots/spot', {
      token: owner.token,
      json: { uuid, name: 'Dos' },
      headers: { 'if-match': tag },
    });
    expect(stale.status).toBe(412);
    const [spot] = (await call('GET', '/api/spots/spot', { token: owner.token, query: { uuid } })).body.data;
    expect(spot.spot_name).toBe('Uno');
    const deleted = await call('DELETE', '/api/spots/spot', {
      token: owner.token,
      query: { uuid },
      headers: { 'if-match': tag },
    });
    expect(deleted.status).toBe(412);
    expect((await call('GET', '/api/spots/spot', { token: owner.token, query: { uuid } })).body.data).toHaveLength(1);
  });

  it('work orders (PUT and DELETE)', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const labour = await newLabour(owner, fieldId);
    const uuid = randomUUID();
    const order = (name: string) => ({ uuid, labours: [labour], date: '2026-12-04', yeargroup: 2026, name });
    const created = await call('POST', '/api/work_orders', { token: owner.token, json: order('A') });
    expect(created.status, created.text).toBe(200);
    const listed = await call('GET', '/api/work_orders', { token: owner.token, query: { yeargroup: 2026 } });
    const tag = etag(listed)!;
    expect(tag).toMatch(/^".+"$/);
    const { uuid: _, ...replacement } = order('B');
    expect((await call('PUT', `/api/work_orders/${uuid}`, { token: owner.token, json: replacement })).status).toBe(200);
    const stale = await call('PUT', `/api/work_orders/${uuid}`, {
      token: owner.token,
      json: { ...replacement, name: 'C' },
      headers: { 'if-match': tag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ res: 'error', code: -1 });
    const gone = await call('DELETE', `/api/work_orders/${uuid}`, { token: owner.token, headers: { 'if-match': tag } });
    expect(gone.status).toBe(412);
    const now = await call('GET', '/api/work_orders', { token: owner.token, query: { yeargroup: 2026 } });
    expect(now.body.data.map((o: { name: string }) => o.name)).toEqual(['B']);
  });

  it('sensor groups (sensors dialect)', async () => {
    const user = await createUser();
    const token = await tokenFor(user.id, { claims: ['*'], extension_id: 'weather-station' });
    const created = await call('POST', '/sensors/v2/providers/variablegroups', { token, json: { group_name: 'G1' } });
    expect(created.status, created.text).toBe(200);
    const group = created.body.data.group_uuid;
    const tag = etag(created)!;
    expect(etag(await call('GET', '/sensors/v2/providers/variablegroups', { token }))).toBe(tag);
    const patch = (name: string, headers: Record<string, string> = {}) =>
      call('PATCH', '/sensors/v2/providers/variablegroups', {
        token,
        json: { group_uuid: group, group_name: name },
        headers,
      });
    expect((await patch('G2')).status).toBe(200);
    const stale = await patch('G3', { 'if-match': tag });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ res: 'error', code: 'PRECONDITION_FAILED' });
    const [listed] = (await call('GET', '/sensors/v2/providers/variablegroups', { token })).body.data;
    expect(listed.group_name).toBe('G2');
  });

  it('extension storage values (storage dialect)', async () => {
    const owner = await newUser();
    const kv = (operation: string, json: unknown, headers: Record<string, string> = {}) =>
      call('POST', '/api/mktplace/storage/users', { token: owner.token, query: { operation }, json, headers });
    expect((await kv('PUT', { id: owner.id, key: 'notes', data: { v: 1 } })).status).toBe(200);
    const read = await kv('GET', { ids: [owner.id], keys: ['notes'] });
    const tag = etag(read)!;
    expect(tag).toMatch(/^".+"$/);
    const overwrite = (v: number, headers: Record<string, string> = {}) =>
      kv('PUT', { id: owner.id, key: 'notes', data: { v }, overwrite: true }, headers);
    expect((await overwrite(2)).status).toBe(200);
    const stale = await overwrite(3, { 'if-match': tag });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ info: { code: -1 } });
    const now = await kv('GET', { ids: [owner.id], keys: ['notes'] });
    expect(JSON.stringify(now.body)).toContain('"v":2');
    // with the current ETag, the change is made
    expect((await overwrite(4, { 'if-match': etag(now)! })).status).toBe(200);
    // If-None-Match: * creates only a key that does not exist
    const create = (key: string) =>
      kv('PUT', { id: owner.id, key, data: { v: 1 }, overwrite: true }, { 'if-none-match': '*' });
    expect((await create('fresh')).status).toBe(200);
    expect((await create('notes')).status).toBe(412);
    expect(JSON.stringify((await kv('GET', { ids: [owner.id], keys: ['notes'] })).body)).toContain('"v":4');
  });
});
