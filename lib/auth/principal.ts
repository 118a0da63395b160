// The authenticated caller: a user, acting through an extension version or in its own session.
import { InvalidToken } from '../errors';
import type { Locale, User } from '../platform/model';
import { LOCALES } from '../platform/model';
import { getUser } from '../platform/users';
import { onFirstUse } from '../util/first-use';
import { type Claim, effectiveClaims } from './claims';

/** Token verification (jose and the signing keys): loaded by the first request the authorizer did not verify. */
const tokens = /* @__PURE__ */ onFirstUse(() => import('./tokens'));

export interface Principal {
  user: User;
  /** Absent when the user acts in its own session (the platform's web app). */
  extensionId?: string;
  extensionVersion?: string;
  claims: ReadonlySet<Claim>;
  locale: Locale;
}

export async function principalFromToken(token: string): Promise<Principal> {
  const claims = await (await tokens()).verifyToken(token);
  return principalOf({
    userId: Number(claims.sub),
    ext: claims.ext,
    extVer: claims.ext_ver,
    claims: claims.claims,
    locale: claims.locale,
  });
}

/** What a verified token says of its caller. */
interface VerifiedCaller {
  userId: number;
  ext?: string | undefined;
  extVer?: string | undefined;
  claims: readonly string[];
  locale: string;
}

async function principalOf(token: VerifiedCaller): Promise<Principal> {
  const user = await getUser(token.userId);
  if (!user) throw new InvalidToken('Invalid authentication token: unknown user');
  const locale = (LOCALES as readonly string[]).includes(token.locale) ? (token.locale as Locale) : user.locale;
  return {
    user,
    ...(token.ext ? { extensionId: token.ext } : {}),
    ...(token.extVer ? { extensionVersion: token.extVer } : {}),
    claims: effectiveClaims(token.claims, user.features),
    locale,
  };
}

/**
 * The caller of a request the API's authorizer verified (API Gateway's `requestContext.authorizer`,
 * which no client can set; lib/auth/authorizer.ts): the token's user, extension and claims as the
 * authorizer read them, the user read as for a token. Undefined when the context is not a verified
 * one (no authorizer, a token that did not verify, a context of another shape): the function then
 * verifies the token itself.
 */
export function principalFromVerdict(context: unknown): Promise<Principal> | undefined {
  const c = context as Record<string, unknown> | null | undefined;
  if (c?.verified !== 'true' || typeof c.userId !== 'string' || !/^\d+$/.test(c.userId)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(String(c.claims));
  } catch {
    return undefined;
  }
  if (!Array.isArray(claims) || !claims.every((claim) => typeof claim === 'string')) return undefined;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return principalOf({
    userId: Number(c.userId),
    // the user's own session is '' in the context
    ext: text(c.extensionId),
    extVer: text(c.extensionVersion),
    claims,
    locale: typeof c.locale === 'string' ? c.locale : '',
  });
}

export const hasClaims = (principal: Principal, required: readonly Claim[]): boolean =>
  required.every((claim) => principal.claims.has(claim));
