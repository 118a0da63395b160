// Authentication and claims (issue "Foundation" section 3): bearer JWTs, the general codes -3/-2,
// and what an extension may do: the user's plan features intersected with its claimset.
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { call, createUser, internal, newUser, square, tokenFor, unique } from './helpers/api';

const createFieldWith = (token: string | undefined, headers: Record<string, string> = {}) =>
  call('POST', '/api/agregarlote', {
    token,
    headers,
    form: { nombre: unique('f'), shape: square(-60, -34), nombrecampo: unique('farm').slice(0, 40) },
  });

describe('bearer tokens', () => {
  it('answers 401 {res:error, code:-3} without a token', async () => {
    const response = await call('GET', '/api/getfields');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ res: 'error', code: -3, info: expect.any(String) });
  });

  it('answers -3 for a malformed token, another scheme, a forged signature and a tampered payload', async () => {
    const user = await newUser();
    const [header, payload, signature] = user.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    // another user's id (the test's own user may be user 1 when this file runs alone on a fresh stack)
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: String(Number(claims.sub) + 1) })).toString('base64url')}.${signature}`;
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: JSON.parse(Buffer.from(header!, 'base64url').toString()).kid })
      .sign(privateKey);
    for (const [scheme, value] of [
      ['Bearer', 'not-a-jwt'],
      ['Basic', user.token],
      ['Bearer', tampered],
      ['Bearer', forged],
    ]) {
      const response = await call('GET', '/api/getfields', { headers: { authorization: `${scheme} ${value}` } });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe(-3);
    }
  });

  it('answers 401 code -2 for an expired token', async () => {
    const user = await createUser();
    const expired = await tokenFor(user.id, { ttl_s: -60 });
    const response = await call('GET', '/api/getfields', { token: expired });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ res: 'error', code: -2, info: expect.any(String) });
  });

  it("accepts the user's own session (no extension)", async () => {
    const user = await createUser();
    const response = await internal('/internal/tokens', { user_id: user.id, claims: ['*'] });
    const token = response.body.data.access_token;
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).ext).toBeUndefined();
    const created = await createFieldWith(token);
    expect(created.status).toBe(200);
  });
});

describe('claims: plan features intersected with the extension claimset', () => {
  it('refuses field creation without FIELDS_CREATE in the claimset: code 7', async () => {
    const user = await newUser({ claims: ['SEASON_VIEW'] });
    const response = await createFieldWith(user.token);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ res: 'error', code: 7, info: expect.any(String) });
  });

  it("refuses it when the claimset has it but the user's plan does not", async () => {
    const user = await newUser({ features: ['SEASON_VIEW'], claims: ['*'] });
    const response = await createFieldWith(user.token);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(7);
  });

  it('allows it when both grant it', async () => {
    const user = await newUser({ features: ['FIELDS_CREATE'], claims: ['FIELDS_CREATE'] });
    const response = await createFieldWith(user.token);
    expect(response.status).toBe(200);
  });
});
