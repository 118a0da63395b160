// Forged and malformed token headers: a token whose header names another
// algorithm with the platform's real key id (HS256 keyed with the public key, RS256, PS256), a key
// id of 1,100 characters, a key id that is not text. Each is 401 -3, decided from the header alone:
// the real handler of GET /api/getcultivos runs here against a DynamoDB endpoint that refuses
// connections (tests/helpers/unreachable-table.ts), so a token that made the verifier read the table
// would answer 500 instead.
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { handlerWithUnreachableTable } from '../helpers/unreachable-table';

const CLAIMS = { uid: 'u', locale: 'es', claims: ['*'] };

let call: Awaited<ReturnType<typeof handlerWithUnreachableTable>>['call'];
let kid: string;
let publicX: Uint8Array;
let ownKey: import('node:crypto').KeyObject;

const signed = (header: Record<string, unknown>, key: Parameters<SignJWT['sign']>[0]) =>
  new SignJWT(CLAIMS)
    .setProtectedHeader(header as { alg: string })
    .setSubject('1')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);

/** A token of an arbitrary header, with a signature of nothing in particular. */
const raw = (header: unknown) =>
  `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: '1', ...CLAIMS })).toString('base64url')}.c2ln`;

beforeAll(async () => {
  const loaded = await handlerWithUnreachableTable();
  call = loaded.call;
  kid = loaded.key.kid;
  ownKey = loaded.key.privateKey;
  publicX = Buffer.from(String(loaded.key.publicJwk.x), 'base64url');
});

const answer = async (token: string) => {
  const response = await call(`Bearer ${token}`);
  return { status: response.statusCode, body: JSON.parse(response.body) };
};

describe('forged algorithms and key ids', () => {
  it('answers 401 -3 to HS256 (keyed with the public key), RS256 and PS256 tokens naming the real kid, without reading the table', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const tokens = [
      await signed({ alg: 'HS256', kid, typ: 'JWT' }, publicX),
      await signed({ alg: 'HS512', kid }, new TextEncoder().encode('x'.repeat(64))),
      await signed({ alg: 'RS256', kid }, rsa),
      await signed({ alg: 'PS256', kid }, rsa),
    ];
    for (const token of tokens)
      expect(await answer(token), token.slice(0, 40)).toMatchObject({
        status: 401,
        body: { res: 'error', code: -3 },
      });
  });

  it('answers 401 -3 to a kid of 1,100 characters, a kid that is not text and a header without an algorithm', async () => {
    const tokens = [
      await signed({ alg: 'EdDSA', kid: 'k'.repeat(1_100) }, ownKey),
      await signed({ alg: 'EdDSA', kid: `${kid}${'A'.repeat(1_057)}` }, ownKey),
      raw({ alg: 'EdDSA', kid: 12 }),
      raw({ alg: 'EdDSA', kid: { $ne: 1 } }),
      raw({ alg: 'EdDSA', kid: 'with space' }),
      raw({ alg: 'EdDSA', kid: 'ünïcode' }),
      raw({ kid }),
      raw({ alg: 'none', kid }),
      raw({ alg: 'EdDSA' }),
      'e30.e30.e30',
      '%%%.%%%.%%%',
    ];
    for (const token of tokens)
      expect(await answer(token), token.slice(0, 60)).toMatchObject({
        status: 401,
        body: { res: 'error', code: -3 },
      });
  });

  it('reads the table only for an EdDSA token naming a kid of the platform’s form (here: unreachable, 500)', async () => {
    expect((await answer(await signed({ alg: 'EdDSA', kid }, ownKey))).status).toBe(500);
  });
});
