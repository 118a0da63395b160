// One user's request rate within an extension, in AWS (docs/integrations.md, "Rate limits").
// API Gateway's usage plans throttle per API key, so per extension; a user's own share of it is
// kept here, on one item of the table per (extension, user), by GCRA (the generic cell rate
// algorithm: a token bucket kept as one instant, the "theoretical arrival time" of the next
// request). A request is one conditional update (two while a burst is being spent); a refused one
// writes nothing. The authorizer asks before every request (lib/auth/authorizer.ts); the local
// gateway enforces the same limits in memory (lib/platform/fair-use.ts).
import { keys } from '../db/keys';
import { updateCounter } from '../db/table';

export type UserRateVerdict = { ok: true } | { ok: false; retryAfterS: number };

/** Items of users idle this long after their bucket filled again expire (the table's TTL). */
const IDLE_S = 3600;

/**
 * Takes one request of `userId` through `extensionId` at `rate` requests a second with `burst` at
 * once, or refuses it with the whole seconds until one is allowed again (at least 1).
 */
export async function takeUserRequest(
  extensionId: string,
  userId: string,
  limits: { rate: number; burst: number },
  now = Date.now(),
): Promise<UserRateVerdict> {
  if (!Number.isFinite(limits.burst) || !Number.isFinite(limits.rate)) return { ok: true };
  const interval = 1000 / limits.rate;
  // how far ahead of now the next arrival may be and still be served: the burst's worth
  const tolerance = (Math.max(1, limits.burst) - 1) * interval;
  const key = keys.userRate(extensionId, userId);
  const ttl = (at: number) => Math.ceil(at / 1000) + IDLE_S;
  // a bucket at rest (full): the next arrival is one interval from now
  const rested = await updateCounter(
    key,
    {
      expression: 'SET tat = :next, #ttl = :ttl',
      condition: 'attribute_not_exists(tat) OR tat < :now',
      values: { ':next': now + interval, ':now': now, ':ttl': ttl(now + interval) },
      names: { '#ttl': 'ttl' },
    },
    ['tat'],
  );
  if (rested.updated) return { ok: true };
  const tat = rested.old.tat ?? now;
  if (tat - now <= tolerance) {
    // within the burst: one interval more, if no other request took the room meanwhile
    const spent = await updateCounter(
      key,
      {
        expression: 'SET tat = tat + :interval, #ttl = :ttl',
        condition: 'tat <= :limit',
        values: { ':interval': interval, ':limit': now + tolerance, ':ttl': ttl(tat + interval) },
        names: { '#ttl': 'ttl' },
      },
      ['tat'],
    );
    if (spent.updated) return { ok: true };
    return refused(spent.old.tat ?? tat, tolerance, now);
  }
  return refused(tat, tolerance, now);
}

const refused = (tat: number, tolerance: number, now: number): UserRateVerdict => ({
  ok: false,
  retryAfterS: Math.max(1, Math.ceil((tat - tolerance - now) / 1000)),
});
