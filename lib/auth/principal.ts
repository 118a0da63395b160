// The authenticated caller: a user, acting through an extension version or in its own session.
import { InvalidToken } from '../errors';
import type { Locale, User } from '../platform/model';
import { LOCALES } from '../platform/model';
import { getUser } from '../platform/users';
import { type Claim, effectiveClaims } from './claims';
import { verifyToken } from './tokens';

export interface Principal {
  user: User;
  /** Absent when the user acts in its own session (the platform's web app). */
  extensionId?: string;
  extensionVersion?: string;
  claims: ReadonlySet<Claim>;
  locale: Locale;
}

export async function principalFromToken(token: string): Promise<Principal> {
  const claims = await verifyToken(token);
  const user = await getUser(Number(claims.sub));
  if (!user) throw new InvalidToken('Invalid authentication token: unknown user');
  const locale = (LOCALES as readonly string[]).includes(claims.locale) ? (claims.locale as Locale) : user.locale;
  return {
    user,
    ...(claims.ext ? { extensionId: claims.ext } : {}),
    ...(claims.ext_ver ? { extensionVersion: claims.ext_ver } : {}),
    claims: effectiveClaims(claims.claims, user.features),
    locale,
  };
}

export const hasClaims = (principal: Principal, required: readonly Claim[]): boolean =>
  required.every((claim) => principal.claims.has(claim));
