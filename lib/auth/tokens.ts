// Access tokens: JWTs for one user and (optionally) one extension version. Tokens minted here are
// signed with an Ed25519 key derived from a secret seed; its public key is published in the table
// so that every function can verify without reading the secret. Tokens issued by the platform
// itself verify against its JWKS (SURCO_JWKS_URL) when configured.
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import {
  calculateJwkThumbprint,
  createRemoteJWKSet,
  exportJWK,
  type FlattenedJWSInput,
  importJWK,
  type JWK,
  type JWSHeaderParameters,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
} from 'jose';
import * as z from 'zod/mini';
import { secretValue } from '../aws/secrets';
import { config } from '../config';
import { keys } from '../db/keys';
import { getItem, putItem } from '../db/table';
import { ExpiredToken, InvalidToken } from '../errors';
import { newUuid } from '../util/uuid';

export const ISSUER = 'surco';
const ALGORITHM = 'EdDSA';
export const DEFAULT_TTL_SECONDS = 30 * 24 * 3600;

export const TokenClaimsSchema = z.object({
  sub: z.string().check(z.regex(/^\d+$/)),
  uid: z.string(),
  locale: z.string(),
  ext: z.optional(z.string()),
  ext_ver: z.optional(z.string()),
  claims: z.array(z.string()),
});
export type TokenClaims = z.infer<typeof TokenClaimsSchema>;

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: JWK;
}

let signingKeyPromise: Promise<SigningKey> | undefined;
let published = false;

// PKCS#8 prefix of an Ed25519 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export async function deriveSigningKey(seed: string): Promise<SigningKey> {
  const raw = createHash('sha256').update(seed).digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, raw]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicJwk = await exportJWK(createPublicKey(privateKey));
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, privateKey, publicJwk: { ...publicJwk, kid, alg: ALGORITHM, use: 'sig' } };
}

function signingKey(): Promise<SigningKey> {
  if (!signingKeyPromise) {
    signingKeyPromise = secretValue(config().signingSeed, 'signing seed').then(deriveSigningKey);
    signingKeyPromise.catch(() => (signingKeyPromise = undefined));
  }
  return signingKeyPromise;
}

async function publishPublicKey(key: SigningKey): Promise<void> {
  if (published) return;
  await putItem({ ...keys.signingKey(key.kid), kind: 'jwk', jwk: key.publicJwk });
  published = true;
}

export interface MintInput {
  userId: number;
  uid: string;
  locale: string;
  extensionId?: string;
  extensionVersion?: string;
  claims: string[];
  ttlSeconds?: number;
}

export async function mintToken(input: MintInput): Promise<{ token: string; expiresAt: Date }> {
  const key = await signingKey();
  await publishPublicKey(key);
  const now = Math.floor(Date.now() / 1000);
  const exp = now + (input.ttlSeconds ?? DEFAULT_TTL_SECONDS);
  const payload: Omit<TokenClaims, 'sub'> = {
    uid: input.uid,
    locale: input.locale,
    claims: input.claims,
    ...(input.extensionId ? { ext: input.extensionId } : {}),
    ...(input.extensionVersion ? { ext_ver: input.extensionVersion } : {}),
  };
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(String(input.userId))
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .setJti(newUuid())
    .sign(key.privateKey);
  return { token, expiresAt: new Date(exp * 1000) };
}

// --- verification -------------------------------------------------------------------------

const publicKeys = new Map<string, Promise<KeyObject | Uint8Array | undefined>>();
let remoteJwks: ReturnType<typeof createRemoteJWKSet> | undefined;

function ownPublicKey(kid: string) {
  let pending = publicKeys.get(kid);
  if (!pending) {
    pending = getItem<{ jwk: JWK }>(keys.signingKey(kid)).then((item) =>
      item ? (importJWK(item.jwk, ALGORITHM) as Promise<KeyObject | Uint8Array>) : undefined,
    );
    pending.catch(() => publicKeys.delete(kid));
    publicKeys.set(kid, pending);
  }
  return pending;
}

async function resolveKey(header: JWSHeaderParameters, token: FlattenedJWSInput) {
  if (header.kid) {
    const own = await ownPublicKey(header.kid);
    if (own) return own;
    publicKeys.delete(header.kid); // allow a key published later to be found
  }
  const url = config().jwksUrl;
  if (url) {
    remoteJwks ??= createRemoteJWKSet(new URL(url));
    return remoteJwks(header, token);
  }
  throw new InvalidToken('Invalid authentication token: unknown signing key');
}

/**
 * Verifies signature, issuer-independent claims and expiry; throws InvalidToken/ExpiredToken for
 * a token that does not verify. A failure to verify for another reason (the table or the issuer's
 * key set unreachable) is not the token's fault: it propagates, and the caller gets a 500 with a
 * request id, never a 401 that would make a client throw away a good token.
 */
export async function verifyToken(token: string): Promise<TokenClaims & JWTPayload> {
  let payload: JWTPayload;
  try {
    const result = await jwtVerify(token, resolveKey);
    payload = result.payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new ExpiredToken();
    if (error instanceof InvalidToken) throw error;
    if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) throw new InvalidToken();
    throw error;
  }
  const parsed = TokenClaimsSchema.safeParse(payload);
  if (!parsed.success) throw new InvalidToken('Invalid authentication token: unexpected claims');
  return { ...payload, ...parsed.data };
}
