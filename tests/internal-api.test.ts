// The platform's internal API (issue "Foundation" section 4; docs/internal-api.md): users,
// supervisions, shares, tokens, all behind x-internal-key.
import { describe, expect, it } from 'vitest';
import { call, createField, createUser, internal, newUser, stack, tokenFor, unique } from './helpers/api';

describe('x-internal-key', () => {
  it('refuses a call without the key: HTTP 401 {code: -3, info}', async () => {
    const response = await internal('/internal/users', { user_name: 'x' }, '');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: -3, info: expect.any(String) });
  });

  it('refuses a wrong key the same way', async () => {
    const response = await internal('/internal/users', { user_name: 'x' }, 'not-the-key');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(-3);
  });

  it('refuses a bearer token in place of the key', async () => {
    const user = await newUser();
    const response = await call('POST', '/internal/users', { token: user.token, json: { user_name: 'x' } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(-3);
  });
});

describe('POST /internal/users', () => {
  it('creates a user in a new workspace with locale es by default', async () => {
    const name = unique('ana');
    const response = await internal('/internal/users', { user_name: name });
    expect(response.status).toBe(200);
    expect(response.body.code).toBe(0);
    const data = response.body.data;
    expect(data).toEqual({
      id: expect.any(Number),
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_name: name,
      locale: 'es',
      space_id: expect.any(Number),
    });
    expect(Number.isInteger(data.id)).toBe(true);
    const other = await createUser();
    expect(other.space_id).not.toBe(data.space_id);
    expect(other.id).toBeGreaterThan(data.id);
  });

  it('joins an existing workspace with space_id and keeps the locale sent', async () => {
    const admin = await createUser();
    const member = await createUser({ space_id: admin.space_id, locale: 'pt' });
    expect(member.space_id).toBe(admin.space_id);
    expect(member.locale).toBe('pt');
  });

  it('answers 404 code 1 for an unknown workspace', async () => {
    const response = await internal('/internal/users', { user_name: 'x', space_id: 99_999_999 });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe(1);
  });

  it('answers 400 code -4 for a missing user_name, a bad locale or malformed JSON', async () => {
    for (const body of [{}, { user_name: 'x', locale: 'fr' }, { user_name: 'x', hectare_quota: -1 }]) {
      const response = await internal('/internal/users', body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(-4);
      expect(response.body.info).toEqual(expect.any(String));
    }
    const malformed = await call('POST', '/internal/users', {
      body: '{"user_name": ',
      headers: { 'content-type': 'application/json', 'x-internal-key': stack().internalKey },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(-4);
  });
});

describe('POST /internal/supervisions', () => {
  it('records a supervision and answers it back', async () => {
    const supervisor = await createUser();
    const user = await createUser();
    const response = await internal('/internal/supervisions', {
      supervisor_id: supervisor.id,
      user_id: user.id,
      permission: 'edit',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: 0,
      data: { supervisor_id: supervisor.id, user_id: user.id, permission: 'edit' },
    });
  });

  it('refuses supervising oneself (400 code 2), unknown users (404 code 1) and other levels (400 -4)', async () => {
    const user = await createUser();
    const self = await internal('/internal/supervisions', {
      supervisor_id: user.id,
      user_id: user.id,
      permission: 'read',
    });
    expect([self.status, self.body.code]).toEqual([400, 2]);
    const unknown = await internal('/internal/supervisions', {
      supervisor_id: user.id,
      user_id: 99_999_999,
      permission: 'read',
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 1]);
    const level = await internal('/internal/supervisions', {
      supervisor_id: user.id,
      user_id: user.id + 1,
      permission: 'admin',
    });
    expect([level.status, level.body.code]).toEqual([400, -4]);
  });
});

describe('POST /internal/shares', () => {
  it('shares a field, and the user then reaches it', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const guest = await newUser();
    const response = await internal('/internal/shares', { user_id: guest.id, field_id: fieldId, permission: 'read' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: 0, data: { user_id: guest.id, field_id: fieldId, permission: 'read' } });
    const listing = await call('GET', '/api/getfields', { token: guest.token });
    const farms = Object.values(listing.body.user.farms) as any[];
    expect(farms.flatMap((farm) => Object.keys(farm.fields))).toEqual([String(fieldId)]);
  });

  it('needs exactly one of farm_id and field_id, and a known level', async () => {
    const user = await createUser();
    for (const body of [
      { user_id: user.id, permission: 'read' },
      { user_id: user.id, farm_id: 1, field_id: 1, permission: 'read' },
      { user_id: user.id, farm_id: 1, permission: 'owner' },
    ]) {
      const response = await internal('/internal/shares', body);
      expect([response.status, response.body.code]).toEqual([400, -4]);
    }
  });

  it('refuses unknown records (404 code 1) and sharing with the owner (400 code 2)', async () => {
    const owner = await newUser();
    const { farmId } = await createField(owner);
    const missing = await internal('/internal/shares', { user_id: owner.id, farm_id: 99_999_999, permission: 'read' });
    expect([missing.status, missing.body.code]).toEqual([404, 1]);
    const missingUser = await internal('/internal/shares', {
      user_id: 99_999_999,
      farm_id: farmId,
      permission: 'read',
    });
    expect([missingUser.status, missingUser.body.code]).toEqual([404, 1]);
    const toOwner = await internal('/internal/shares', { user_id: owner.id, farm_id: farmId, permission: 'read' });
    expect([toOwner.status, toOwner.body.code]).toEqual([400, 2]);
  });
});

describe('POST /internal/tokens', () => {
  it('mints a JWT for the user and extension, valid about 30 days by default', async () => {
    const user = await createUser();
    const response = await internal('/internal/tokens', {
      user_id: user.id,
      extension_id: 'ext-a',
      extension_version: '2.1.0',
      claims: ['FIELDS_CREATE'],
    });
    expect(response.status).toBe(200);
    const { access_token, expires_at } = response.body.data;
    expect(access_token.split('.')).toHaveLength(3);
    const days = (Date.parse(expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    const payload = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({
      sub: String(user.id),
      uid: user.uid,
      locale: user.locale,
      ext: 'ext-a',
      ext_ver: '2.1.0',
      claims: ['FIELDS_CREATE'],
    });
  });

  it('mints an already expired token with ttl_s 0, refused with -2', async () => {
    const user = await createUser();
    const token = await tokenFor(user.id, { ttl_s: 0 });
    const response = await call('GET', '/api/getfields', { token });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(-2);
  });

  it('refuses unknown claim names (400 -4) and unknown users (404 code 1)', async () => {
    const user = await createUser();
    const claim = await internal('/internal/tokens', { user_id: user.id, claims: ['FLY'] });
    expect([claim.status, claim.body.code]).toEqual([400, -4]);
    const unknown = await internal('/internal/tokens', { user_id: 99_999_999, claims: ['*'] });
    expect([unknown.status, unknown.body.code]).toEqual([404, 1]);
  });
});
