// Authentication and claims (issue "Foundation" section 3): bearer JWTs, the general codes -3/-2,
// and what an extension may do: the user's plan features intersected with its claimset.
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { call, createUser, internal, newUser, square, stack, tokenFor, unique } from './helpers/api';

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

/** One route of each error dialect (and the stream): a forged token must get what a garbage token gets there. */
const ROUTE_PER_DIALECT: ReadonlyArray<{
  method: string;
  path: string;
  query?: Record<string, string>;
  json?: unknown;
}> = [
  { method: 'GET', path: '/api/getfields' },
  { method: 'GET', path: '/sensors/v2/providers/variablegroups' },
  { method: 'GET', path: '/livestock/herd' },
  { method: 'GET', path: '/spots/tags' },
  { method: 'GET', path: '/api/tags_campos/tag' },
  { method: 'POST', path: '/api/fields/v2/tag', json: { field_id: 1, tag_id: 1 } },
  { method: 'GET', path: '/api/farms/metadata' },
  { method: 'GET', path: '/api/sampling', query: { field_id: '1' } },
  { method: 'GET', path: '/api/users/me/maps' },
  { method: 'GET', path: '/api/fields/v2/shape/limits', query: { field_id: '1' } },
  { method: 'POST', path: '/api/mktplace/storage/users', query: { operation: 'GET' }, json: { keys: [] } },
  { method: 'POST', path: '/api/mktplace/filestorage/users', query: { operation: 'GET' }, json: { keys: [] } },
  { method: 'GET', path: '/api/layers/scale_template' },
  { method: 'GET', path: '/api/webhooks' },
  { method: 'GET', path: '/nc/stream' },
  { method: 'GET', path: '/activities/labour', query: { yeargroup: '2026' } },
];

/** A body's shape and codes: free texts (which say why) and the request id left out. */
const withoutRequestId = (body: unknown): unknown => {
  if (!body || typeof body !== 'object') return body;
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>)
      .filter(([key]) => key !== 'request_id')
      .map(([key, value]) => [
        key,
        typeof value === 'string' && /^(info|msg|message|detail)$/.test(key) ? 'text' : withoutRequestId(value),
      ]),
  );
};

describe('forged algorithms and long key ids', () => {
  it("answers 401 in each area's shape, as for a garbage token, to HS256/RS256/PS256 tokens naming the real kid and to a kid of 1,100 characters", async () => {
    const user = await newUser();
    const [header, payload] = user.token.split('.');
    const { kid } = JSON.parse(Buffer.from(header!, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const { privateKey: ed } = generateKeyPairSync('ed25519');
    // the kid is what a forger sees of the platform's key (tests/unit/forged-tokens.test.ts also keys HS256 with the public key)
    const forge = (alg: string, key: Parameters<SignJWT['sign']>[0], keyId: string = kid) =>
      new SignJWT(claims).setProtectedHeader({ alg, kid: keyId, typ: 'JWT' }).sign(key);
    const forged = {
      HS256: await forge('HS256', new TextEncoder().encode(kid)),
      RS256: await forge('RS256', rsa),
      PS256: await forge('PS256', rsa),
      longKid: await forge('EdDSA', ed, 'k'.repeat(1_100)),
    };
    for (const route of ROUTE_PER_DIALECT) {
      const send = (token: string) =>
        route.path === '/nc/stream'
          ? fetch(new URL(route.path, stack().baseUrl), { headers: { authorization: `Bearer ${token}` } }).then(
              async (r) => ({ status: r.status, body: JSON.parse(await r.text()) }),
            )
          : call(route.method, route.path, { token, query: route.query, json: route.json });
      const garbage = await send('not-a-jwt');
      expect(garbage.status, route.path).toBe(401);
      for (const [name, token] of Object.entries(forged)) {
        const started = performance.now();
        const response = await send(token);
        expect([route.path, name, response.status]).toEqual([route.path, name, 401]);
        expect(withoutRequestId(response.body), `${route.path} ${name}`).toEqual(withoutRequestId(garbage.body));
        expect(performance.now() - started).toBeLessThan(2_000);
      }
    }
    // and the general dialect's code is -3
    const general = await call('GET', '/api/getfields', { token: forged.HS256 });
    expect(general.body).toEqual({ res: 'error', code: -3, info: expect.any(String) });
  });
});
