// Spec 3, "Key-value storage": POST /api/mktplace/storage/{users|fields|farms}?operation=...,
// its info.code tables, the scope access rules and the isolation of each extension's storage.
import { describe, expect, it } from 'vitest';
import { call, createField, createUser, internal, newUser, type TestUser, tokenFor, unique } from './helpers/api';

type Scope = 'users' | 'fields' | 'farms';

const kv = (token: string | undefined, scope: Scope, operation: string, json?: unknown) =>
  call('POST', `/api/mktplace/storage/${scope}`, {
    token,
    query: { operation },
    ...(json === undefined ? {} : { json }),
  });

const put = (user: { token: string }, scope: Scope, id: unknown, key: string, data: unknown, extra: object = {}) =>
  kv(user.token, scope, 'PUT', { id, key, data, ...extra });
const get = (user: { token: string }, scope: Scope, ids: unknown[] | undefined, keys: string[]) =>
  kv(user.token, scope, 'GET', { ...(ids ? { ids } : {}), keys });

const share = (userId: number, target: { farm_id?: number; field_id?: number }, permission: string) =>
  internal('/internal/shares', { user_id: userId, ...target, permission });
const supervise = (supervisorId: number, userId: number, permission: 'read' | 'edit') =>
  internal('/internal/supervisions', { supervisor_id: supervisorId, user_id: userId, permission });

/** A user (with a token of another extension too) and a field in a farm of theirs. */
async function owner() {
  const user = await newUser();
  const { fieldId, farmId } = await createField(user);
  return { user, fieldId, farmId };
}

const asUser = async (user: { id: number }, extension = 'test-extension') => ({
  token: await tokenFor(user.id, { extension_id: extension }),
});

describe('key-value storage: operations', () => {
  it('PUT stores an object that GET returns; a second PUT answers 5 unless overwrite', async () => {
    const { user, fieldId } = await owner();
    const first = await put(user, 'fields', fieldId, 'notes', { crop: 'soy', plots: [1, 2] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ info: { code: 0 } });
    const read = await get(user, 'fields', [fieldId], ['notes']);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ info: { code: 0, objects: { [fieldId]: { notes: { crop: 'soy', plots: [1, 2] } } } } });

    const again = await put(user, 'fields', fieldId, 'notes', { crop: 'maize' });
    expect(again.status).toBe(409);
    expect(again.body.info).toMatchObject({ code: 5, message: expect.stringContaining('overwrite') });
    expect((await get(user, 'fields', [fieldId], ['notes'])).body.info.objects[fieldId].notes.crop).toBe('soy');

    expect((await put(user, 'fields', fieldId, 'notes', { crop: 'maize' }, { overwrite: true })).body).toEqual({
      info: { code: 0 },
    });
    expect((await get(user, 'fields', [fieldId], ['notes'])).body.info.objects[fieldId].notes).toEqual({
      crop: 'maize',
    });
  });

  it('accepts the object as data or as value (data wins when both are sent)', async () => {
    const { user, fieldId } = await owner();
    await kv(user.token, 'fields', 'PUT', { id: fieldId, key: 'a', value: { from: 'value' } });
    await kv(user.token, 'fields', 'PUT', { id: fieldId, key: 'b', value: { from: 'value' }, data: { from: 'data' } });
    await kv(user.token, 'fields', 'PATCH', { id: fieldId, key: 'a', value: { patched: true }, append: true });
    const read = await get(user, 'fields', [fieldId], ['a', 'b']);
    expect(read.body.info.objects[fieldId]).toEqual({ a: { from: 'value', patched: true }, b: { from: 'data' } });
  });

  it('keeps deep and unusual JSON exactly as sent', async () => {
    const { user } = await owner();
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 40; i++) deep = { [`level${i}`]: deep };
    const data = {
      deep,
      empty: '',
      nothing: null,
      big: 12345678901234,
      float: 0.1,
      list: [[], {}, [1, 'a', null]],
      unicode: 'ñandú 🐄',
    };
    expect((await put(user, 'users', user.id, 'odd', data)).body.info.code).toBe(0);
    expect((await get(user, 'users', [user.id], ['odd'])).body.info.objects[user.id].odd).toEqual(data);
  });

  it('answers the codes of PUT: 1 data missing, 2 key invalid, 6 too large, -4 wrong format', async () => {
    const { user, fieldId } = await owner();
    const code = async (json: unknown) => {
      const response = await kv(user.token, 'fields', 'PUT', json);
      return [response.status, response.body.info.code];
    };
    expect(await code({ id: fieldId, key: 'k' })).toEqual([400, 1]);
    expect(await code({ id: fieldId, data: { a: 1 } })).toEqual([400, 1]);
    expect(await code({ key: 'k', data: { a: 1 } })).toEqual([400, 1]);
    expect(await code({ id: fieldId, key: 'k', data: 'text' })).toEqual([400, 1]);
    expect(await code({ id: fieldId, key: 'k', data: [1, 2] })).toEqual([400, 1]);
    expect(await code({ id: fieldId, key: 'bad-key', data: { a: 1 } })).toEqual([400, 2]);
    expect(await code({ id: fieldId, key: 'espacio no', data: { a: 1 } })).toEqual([400, 2]);
    expect(await code({ id: fieldId, key: '', data: { a: 1 } })).toEqual([400, 2]);
    expect(await code({ id: fieldId, key: 'k'.repeat(201), data: { a: 1 } })).toEqual([400, 2]);
    expect(await code({ id: fieldId, key: 'k', data: { a: 1 }, overwrite: 'maybe' })).toEqual([400, -4]);
    expect(await code({ id: fieldId, key: 'big', data: { text: 'x'.repeat(360 * 1024) } })).toEqual([400, 6]);
    const noBody = await call('POST', '/api/mktplace/storage/fields', {
      token: user.token,
      query: { operation: 'PUT' },
    });
    expect([noBody.status, noBody.body.info.code]).toEqual([400, 1]);
    const malformed = await call('POST', '/api/mktplace/storage/fields', {
      token: user.token,
      query: { operation: 'PUT' },
      body: '{"id":',
      headers: { 'content-type': 'application/json' },
    });
    expect([malformed.status, malformed.body.info.code]).toEqual([400, -4]);
    // nothing was stored by the refused requests
    expect((await get(user, 'fields', [fieldId], [])).body.info.objects[fieldId]).toEqual({});
  });

  it('answers -4 for an unknown operation or scope; the operation is case-insensitive', async () => {
    const { user } = await owner();
    const unknownOperation = await kv(user.token, 'users', 'POST', { id: user.id, key: 'k', data: {} });
    expect([unknownOperation.status, unknownOperation.body.info.code]).toEqual([400, -4]);
    const unknownScope = await call('POST', '/api/mktplace/storage/herds', {
      token: user.token,
      query: { operation: 'GET' },
      json: { keys: [] },
    });
    expect([unknownScope.status, unknownScope.body.info.code]).toEqual([400, -4]);
    const lower = await kv(user.token, 'users', 'put', { id: user.id, key: 'k', data: { a: 1 } });
    expect(lower.body).toEqual({ info: { code: 0 } });
  });

  it('PATCH replaces, or with append combines: objects merge, arrays concatenate, the rest is replaced', async () => {
    const { user, farmId } = await owner();
    const patch = (json: object) => kv(user.token, 'farms', 'PATCH', { id: farmId, key: 'plan', ...json });
    const absent = await patch({ data: { a: 1 } });
    expect([absent.status, absent.body.info.code]).toEqual([409, 5]);
    expect(
      (await patch({ data: { a: 1, tags: ['x'], nested: { keep: true, list: [1] }, n: 1 }, create: true })).body,
    ).toEqual({ info: { code: 0 } });
    expect(
      (await patch({ data: { tags: ['y'], nested: { list: [2], added: 'z' }, n: 2, fresh: null }, append: true })).body
        .info.code,
    ).toBe(0);
    const read = async () => (await get(user, 'farms', [farmId], ['plan'])).body.info.objects[farmId].plan;
    expect(await read()).toEqual({
      a: 1,
      tags: ['x', 'y'],
      nested: { keep: true, list: [1, 2], added: 'z' },
      n: 2,
      fresh: null,
    });
    // an array replacing an object, an object replacing a scalar
    await patch({ data: { nested: ['now', 'a', 'list'], n: { now: 'object' } }, append: true });
    expect(await read()).toMatchObject({ nested: ['now', 'a', 'list'], n: { now: 'object' } });
    // without append the stored object is replaced
    await patch({ data: { only: 'this' } });
    expect(await read()).toEqual({ only: 'this' });
    // the codes PATCH shares with PUT
    expect((await patch({ append: true })).body.info.code).toBe(1);
    expect((await kv(user.token, 'farms', 'PATCH', { id: farmId, key: 'no-way', data: {} })).body.info.code).toBe(2);
  });

  it('loses no write when PATCHes with append race, and lets only one of racing PUTs create a key', async () => {
    const { user, fieldId } = await owner();
    await put(user, 'fields', fieldId, 'log', { entries: [] });
    const patches = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        kv(user.token, 'fields', 'PATCH', { id: fieldId, key: 'log', data: { entries: [i] }, append: true }),
      ),
    );
    expect(patches.map((r) => r.body.info.code)).toEqual(Array(8).fill(0));
    const entries = (await get(user, 'fields', [fieldId], ['log'])).body.info.objects[fieldId].log.entries;
    expect([...entries].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

    const puts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => put(user, 'fields', fieldId, 'once', { writer: i })),
    );
    const codes = puts.map((r) => r.body.info.code).sort();
    expect(codes).toEqual([0, 5, 5, 5, 5, 5]);
    const winner = puts.findIndex((r) => r.body.info.code === 0);
    expect((await get(user, 'fields', [fieldId], ['once'])).body.info.objects[fieldId].once).toEqual({
      writer: winner,
    });
  });

  it('GET reads every key for every id; empty keys read every key; empty ids every readable resource', async () => {
    const { user, fieldId, farmId } = await owner();
    const second = await createField(user, { farmId });
    const third = await createField(user, { farmId });
    await put(user, 'fields', fieldId, 'a', { v: 1 });
    await put(user, 'fields', fieldId, 'b', { v: 2 });
    await put(user, 'fields', second.fieldId, 'a', { v: 3 });
    const both = await get(user, 'fields', [fieldId, second.fieldId, third.fieldId], ['a', 'b', 'missing']);
    expect(both.body.info.objects).toEqual({
      [fieldId]: { a: { v: 1 }, b: { v: 2 } },
      [second.fieldId]: { a: { v: 3 } },
      [third.fieldId]: {},
    });
    expect((await get(user, 'fields', [fieldId], [])).body.info.objects).toEqual({
      [fieldId]: { a: { v: 1 }, b: { v: 2 } },
    });
    // every readable field (those without any of the keys are left out), shared ones too
    const friend = await owner();
    await share(user.id, { field_id: friend.fieldId }, 'read');
    await put(friend.user, 'fields', friend.fieldId, 'a', { v: 'friend' });
    const all = await get(user, 'fields', [], ['a']);
    expect(all.body.info.objects).toEqual({
      [fieldId]: { a: { v: 1 } },
      [second.fieldId]: { a: { v: 3 } },
      [friend.fieldId]: { a: { v: 'friend' } },
    });
    expect((await get(user, 'fields', undefined, ['a'])).body.info.objects).toEqual(all.body.info.objects);
  });

  it('answers the codes of GET: 1 keys missing, 2 a key invalid, 3 a resource not readable (existing or not), 5 a ref that is no id', async () => {
    const { user, fieldId } = await owner();
    const stranger = await owner();
    const code = async (json: unknown) => (await kv(user.token, 'fields', 'GET', json)).body.info.code;
    expect(await code({ ids: [fieldId] })).toBe(1);
    expect(await code({ ids: [fieldId], keys: ['ok', 'not ok'] })).toBe(2);
    expect(await code({ ids: [fieldId, stranger.fieldId], keys: ['a'] })).toBe(3);
    // a field nobody has is answered exactly as another tenant's: nothing tells them apart
    expect(await code({ ids: [fieldId, 999_999_999], keys: ['a'] })).toBe(3);
    const nowhere = await kv(user.token, 'fields', 'GET', { ids: [999_999_999], keys: ['a'] });
    const foreign = await kv(user.token, 'fields', 'GET', { ids: [stranger.fieldId], keys: ['a'] });
    expect([nowhere.status, nowhere.text.replace('999999999', '<id>')]).toEqual([
      foreign.status,
      foreign.text.replace(String(stranger.fieldId), '<id>'),
    ]);
    expect(await code({ ids: [fieldId, { id: 1 }], keys: ['a'] })).toBe(5);
    expect(await code({ ids: [fieldId, 'not-an-id'], keys: ['a'] })).toBe(5);
    const refused = await kv(user.token, 'fields', 'GET', { ids: [stranger.fieldId], keys: ['a'] });
    expect(refused.status).toBe(403);
  });

  it('DELETE removes keys (absent ones are fine) and answers 1, 2 and 3 as specified', async () => {
    const { user, fieldId } = await owner();
    await put(user, 'fields', fieldId, 'a', { v: 1 });
    await put(user, 'fields', fieldId, 'b', { v: 2 });
    const del = (json: unknown) => kv(user.token, 'fields', 'DELETE', json);
    expect((await del({ id: fieldId })).body.info.code).toBe(1);
    expect((await del({ id: fieldId, keys: [] })).body.info.code).toBe(1);
    expect((await del({ id: fieldId, keys: ['a', 'b-c'] })).body.info.code).toBe(2);
    expect((await del({ id: fieldId, keys: ['a', 'never'] })).body).toEqual({ info: { code: 0 } });
    expect((await get(user, 'fields', [fieldId], [])).body.info.objects[fieldId]).toEqual({ b: { v: 2 } });
    const stranger = await owner();
    const refused = await kv(stranger.user.token, 'fields', 'DELETE', { id: fieldId, keys: ['b'] });
    expect([refused.status, refused.body.info.code]).toEqual([403, 3]);
    expect((await get(user, 'fields', [fieldId], [])).body.info.objects[fieldId]).toEqual({ b: { v: 2 } });
  });

  it('names resources by integer id or by their opaque ids (uid, field and farm uuid)', async () => {
    const { user, fieldId, farmId } = await owner();
    const listing = (await call('GET', '/api/getfields', { token: user.token })).body;
    const farm = listing.user.farms[farmId];
    const field = farm.fields[fieldId];
    expect(listing.user.uid).toBe(user.uid);
    expect((await put(user, 'fields', field.uuid, 'by_uuid', { ok: 1 })).body.info.code).toBe(0);
    expect((await put(user, 'farms', farm.uuid, 'by_uuid', { ok: 2 })).body.info.code).toBe(0);
    expect((await put(user, 'users', user.uid, 'by_uid', { ok: 3 })).body.info.code).toBe(0);
    expect((await get(user, 'fields', [String(fieldId)], ['by_uuid'])).body.info.objects[fieldId]).toEqual({
      by_uuid: { ok: 1 },
    });
    expect((await get(user, 'farms', [farm.uuid], ['by_uuid'])).body.info.objects[farm.uuid]).toEqual({
      by_uuid: { ok: 2 },
    });
    expect((await get(user, 'users', [user.id], ['by_uid'])).body.info.objects[user.id]).toEqual({ by_uid: { ok: 3 } });
  });
});

describe('key-value storage: the extension', () => {
  it('answers 4 without an extension, without the Storage claim, or when the plan lacks Storage', async () => {
    const { user, fieldId } = await owner();
    const session = await internal('/internal/tokens', { user_id: user.id, claims: ['*'] });
    const noClaim = await tokenFor(user.id, { claims: ['CAMPAIGN'] });
    const planless = await createUser({ features: ['CAMPAIGN'] });
    const planlessToken = await tokenFor(planless.id, { claims: ['*'] });
    const cases: Array<[string, Scope, number]> = [
      [session.body.data.access_token, 'fields', fieldId],
      [noClaim, 'fields', fieldId],
      [planlessToken, 'users', planless.id],
    ];
    for (const [token, scope, id] of cases) {
      for (const operation of ['PUT', 'PATCH', 'GET', 'DELETE']) {
        const response = await kv(token, scope, operation, { id, ids: [id], key: 'k', keys: ['k'], data: { a: 1 } });
        expect([operation, response.status, response.body.info.code]).toEqual([operation, 403, 4]);
      }
    }
  });

  it("keeps each extension's keys apart", async () => {
    const { user, fieldId } = await owner();
    const other = await asUser(user, unique('other-ext'));
    await put(user, 'fields', fieldId, 'shared_name', { by: 'first' });
    expect((await get(other, 'fields', [fieldId], ['shared_name'])).body.info.objects[fieldId]).toEqual({});
    expect((await get(other, 'fields', [fieldId], [])).body.info.objects[fieldId]).toEqual({});
    expect((await put(other, 'fields', fieldId, 'shared_name', { by: 'second' })).body.info.code).toBe(0);
    await kv(other.token, 'fields', 'DELETE', { id: fieldId, keys: ['shared_name'] });
    expect((await get(user, 'fields', [fieldId], ['shared_name'])).body.info.objects[fieldId]).toEqual({
      shared_name: { by: 'first' },
    });
  });

  it('answers the general negative codes for a missing, invalid or expired token', async () => {
    const { user } = await owner();
    const missing = await kv(undefined, 'users', 'GET', { keys: [] });
    expect([missing.status, missing.body.info.code]).toEqual([401, -3]);
    const invalid = await kv('not.a.token', 'users', 'GET', { keys: [] });
    expect([invalid.status, invalid.body.info.code]).toEqual([401, -3]);
    const expired = await tokenFor(user.id, { ttl_s: 0 });
    const late = await kv(expired, 'users', 'GET', { keys: [] });
    expect([late.status, late.body.info.code]).toEqual([401, -2]);
  });
});

/** What a caller may do on one resource: [create, retrieve, delete] as booleans. */
async function abilities(caller: { token: string }, scope: Scope, id: number): Promise<[boolean, boolean, boolean]> {
  const key = unique('probe').replace(/-/g, '_');
  const created = (await put(caller, scope, id, key, { probe: true })).body.info.code === 0;
  const retrieved = (await get(caller, scope, [id], [key])).body.info.code === 0;
  const deleted = (await kv(caller.token, scope, 'DELETE', { id, keys: [key] })).body.info.code === 0;
  return [created, retrieved, deleted];
}

describe('key-value storage: scope access rules', () => {
  it('users scope: the user and the space administrator; supervisors read (read) or create too (edit); all of them delete', async () => {
    const admin = await newUser();
    const member = await newUser({ space_id: admin.space_id });
    const readSupervisor = await newUser();
    const editSupervisor = await newUser();
    const stranger = await newUser();
    const colleague = await newUser({ space_id: admin.space_id });
    await supervise(readSupervisor.id, member.id, 'read');
    await supervise(editSupervisor.id, member.id, 'edit');
    expect(await abilities(member, 'users', member.id)).toEqual([true, true, true]);
    expect(await abilities(admin, 'users', member.id)).toEqual([true, true, true]);
    expect(await abilities(editSupervisor, 'users', member.id)).toEqual([true, true, true]);
    expect(await abilities(readSupervisor, 'users', member.id)).toEqual([false, true, true]);
    expect(await abilities(stranger, 'users', member.id)).toEqual([false, false, false]);
    expect(await abilities(colleague, 'users', member.id)).toEqual([false, false, false]);
    expect(await abilities(member, 'users', admin.id)).toEqual([false, false, false]);
    // what the administrator stored is the member's: the member reads it
    await put(admin, 'users', member.id, 'from_admin', { hello: 1 });
    expect((await get(member, 'users', undefined, ['from_admin'])).body.info.objects).toEqual({
      [member.id]: { from_admin: { hello: 1 } },
    });
    // a read supervisor is refused creating with code 3 and HTTP 403
    const refused = await put(readSupervisor, 'users', member.id, 'nope', { a: 1 });
    expect([refused.status, refused.body.info.code]).toEqual([403, 3]);
  });

  it('fields scope: owners, edit/add/admin shares create and retrieve; read shares retrieve; owners and admin shares delete', async () => {
    const { user, fieldId, farmId } = await owner();
    const users = await Promise.all(
      ['edit', 'add', 'admin', 'read'].map(async (level) => [level, await newUser()] as const),
    );
    for (const [level, guest] of users) await share(guest.id, { farm_id: farmId }, level);
    const fieldReader = await newUser();
    await share(fieldReader.id, { field_id: fieldId }, 'read');
    const supervisor = await newUser();
    await supervise(supervisor.id, user.id, 'edit');
    const stranger = await newUser();
    const byLevel = Object.fromEntries(users) as Record<string, TestUser>;
    expect(await abilities(user, 'fields', fieldId)).toEqual([true, true, true]);
    expect(await abilities(byLevel.admin!, 'fields', fieldId)).toEqual([true, true, true]);
    expect(await abilities(byLevel.edit!, 'fields', fieldId)).toEqual([true, true, false]);
    expect(await abilities(byLevel.add!, 'fields', fieldId)).toEqual([true, true, false]);
    expect(await abilities(byLevel.read!, 'fields', fieldId)).toEqual([false, true, false]);
    expect(await abilities(fieldReader, 'fields', fieldId)).toEqual([false, true, false]);
    expect(await abilities(supervisor, 'fields', fieldId)).toEqual([true, true, false]);
    expect(await abilities(stranger, 'fields', fieldId)).toEqual([false, false, false]);
  });

  it('farms scope: owners, edit/add/admin shares create and retrieve; any permission retrieves; owners and admin shares delete', async () => {
    const { user, fieldId, farmId } = await owner();
    const users = await Promise.all(
      ['edit', 'add', 'admin', 'read'].map(async (level) => [level, await newUser()] as const),
    );
    for (const [level, guest] of users) await share(guest.id, { farm_id: farmId }, level);
    const fieldGuest = await newUser();
    await share(fieldGuest.id, { field_id: fieldId }, 'edit');
    const stranger = await newUser();
    const byLevel = Object.fromEntries(users) as Record<string, TestUser>;
    expect(await abilities(user, 'farms', farmId)).toEqual([true, true, true]);
    expect(await abilities(byLevel.admin!, 'farms', farmId)).toEqual([true, true, true]);
    expect(await abilities(byLevel.edit!, 'farms', farmId)).toEqual([true, true, false]);
    expect(await abilities(byLevel.add!, 'farms', farmId)).toEqual([true, true, false]);
    expect(await abilities(byLevel.read!, 'farms', farmId)).toEqual([false, true, false]);
    // a share on one field of the farm is a permission on the farm: it retrieves
    expect(await abilities(fieldGuest, 'farms', farmId)).toEqual([false, true, false]);
    expect(await abilities(stranger, 'farms', farmId)).toEqual([false, false, false]);
    // the readable farms of an empty ids include the one reached through a field share
    await put(user, 'farms', farmId, 'visible', { yes: true });
    expect((await get(fieldGuest, 'farms', [], ['visible'])).body.info.objects).toEqual({
      [farmId]: { visible: { yes: true } },
    });
  });

  it('refuses a resource that does not exist with 3 (PUT, PATCH, DELETE)', async () => {
    const { user } = await owner();
    for (const operation of ['PUT', 'PATCH', 'DELETE']) {
      const response = await kv(user.token, 'fields', operation, {
        id: 999_999_999,
        key: 'k',
        keys: ['k'],
        data: { a: 1 },
        create: true,
      });
      expect([operation, response.body.info.code]).toEqual([operation, 3]);
    }
  });
});

describe('POST /api/mktplace/storage: the scope in the query or the body', () => {
  it('serves the same operations and codes as the scope paths, the scope from the query or the body', async () => {
    const { user, fieldId, farmId } = await owner();
    const viaQuery = await call('POST', '/api/mktplace/storage', {
      token: user.token,
      query: { scope: 'fields', operation: 'PUT' },
      json: { id: fieldId, key: 'k', data: { a: 1 } },
    });
    expect([viaQuery.status, viaQuery.body]).toEqual([200, { info: { code: 0 } }]);
    const viaBody = await call('POST', '/api/mktplace/storage', {
      token: user.token,
      query: { operation: 'PUT' },
      json: { scope: 'farms', id: farmId, key: 'k', data: { b: 2 } },
    });
    expect([viaBody.status, viaBody.body]).toEqual([200, { info: { code: 0 } }]);
    // what each stored is what the scope paths read
    expect((await get(user, 'fields', [fieldId], ['k'])).body.info.objects).toEqual({ [fieldId]: { k: { a: 1 } } });
    expect((await get(user, 'farms', [farmId], ['k'])).body.info.objects).toEqual({ [farmId]: { k: { b: 2 } } });
    const read = await call('POST', '/api/mktplace/storage', {
      token: user.token,
      query: { operation: 'GET' },
      json: { scope: 'fields', ids: [fieldId], keys: ['k'] },
    });
    expect(read.body).toEqual({ info: { code: 0, objects: { [fieldId]: { k: { a: 1 } } } } });
    // the same codes: 5 for a key that exists, 3 for a resource of another user
    const again = await call('POST', '/api/mktplace/storage', {
      token: user.token,
      query: { scope: 'fields', operation: 'PUT' },
      json: { id: fieldId, key: 'k', data: {} },
    });
    expect([again.status, again.body.info.code]).toEqual([409, 5]);
    const stranger = await newUser();
    const refused = await call('POST', '/api/mktplace/storage', {
      token: stranger.token,
      query: { scope: 'fields', operation: 'PUT' },
      json: { id: fieldId, key: 'k', data: {} },
    });
    expect([refused.status, refused.body.info.code]).toEqual([403, 3]);
    const noScope = await call('POST', '/api/mktplace/storage', {
      token: user.token,
      query: { operation: 'GET' },
      json: { keys: [] },
    });
    expect(noScope.status).toBe(400);
  });
});
