// Access tokens: JWTs for one user and (optionally) one extension version. Tokens minted here are
// signed with an Ed25519 key derived from a secret seed; its public key is published in the table
// so that every function can verify without reading the secret. Tokens issued by the platform
// itself verify against its JWKS (SURCO_JWKS_URL) when configured. Verification trusts nothing in
// a token's header: the `kid` is bounded and checked before any lookup, and each key verifies
// only the algorithm it is for (docs/adr/0004-tokens.md).
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import {
  calculateJwkThumbprint,
  createRemoteJWKSet,
  decodeProtectedHeader,
  exportJWK,
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

/** The longest `kid` looked up (ours are 43 characters; a remote issuer's are short too). */
export const KID_MAX_CHARS = 128;
/** A key id as RFC 7638 makes ours: the base64url SHA-256 thumbprint of the public key. */
const OWN_KID = /^[A-Za-z0-9_-]{43}$/;
/** A key id worth asking a remote key set for: printable ASCII, bounded. */
const REMOTE_KID = new RegExp(`^[\\x21-\\x7e]{1,${KID_MAX_CHARS}}$`);
/**
 * What the platform's own issuer (SURCO_JWKS_URL) may sign with: asymmetric algorithms only, each
 * verified against a key of its type (never a symmetric HS*, never `none`).
 */
export const REMOTE_ALGORITHMS = [
  'EdDSA',
  'Ed25519',
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
];

const invalid = (why: string) => new InvalidToken(`Invalid authentication token: ${why}`);

/** The token's protected header, read without trusting it: its `alg` and `kid`, checked for shape. */
function headerOf(token: string): { alg: string; kid?: string } {
  let header: JWSHeaderParameters;
  try {
    header = decodeProtectedHeader(token) as JWSHeaderParameters;
  } catch {
    throw invalid('unreadable header');
  }
  const { alg, kid } = header;
  if (typeof alg !== 'string' || !alg) throw invalid('no algorithm');
  if (kid === undefined) return { alg }; // only a remote key set may pick a key without one
  if (typeof kid !== 'string' || !REMOTE_KID.test(kid)) throw invalid('no usable key id');
  return { alg, kid };
}

/** Verifies with the platform's own key of `kid` (EdDSA only); undefined when the key is not ours. */
async function verifyOwn(token: string, kid: string) {
  const key = await ownPublicKey(kid);
  if (!key) {
    publicKeys.delete(kid); // allow a key published later to be found
    return undefined;
  }
  return jwtVerify(token, key, { algorithms: [ALGORITHM] });
}

/** Verifies against the issuer's key set, when one is configured. */
function verifyRemote(token: string) {
  const url = config().jwksUrl;
  if (!url) throw invalid('unknown signing key');
  remoteJwks ??= createRemoteJWKSet(new URL(url));
  return jwtVerify(token, remoteJwks, { algorithms: REMOTE_ALGORITHMS });
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
    const { alg, kid } = headerOf(token);
    // the table is read only for a kid of our form on a token of our algorithm
    const own = alg === ALGORITHM && kid && OWN_KID.test(kid) ? await verifyOwn(token, kid) : undefined;
    payload = (own ?? (await verifyRemote(token))).payload;
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
