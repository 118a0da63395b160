// Fair use per extension (docs/integrations.md "Rate limits"): each extension, and each
// user within it, has a request rate and a burst, and the extension a quota per period (a day), by
// the tier (plan) of the extension. In AWS the extension's rate, burst and quota are API Gateway
// usage plans (one per tier) keyed by the API key the authorizer names (lib/auth/authorizer.ts);
// the local gateway (scripts/local/gateway.ts) enforces the same tiers with the limiter below, and
// the per-user rate too. Over a limit: 429 in the route's dialect with Retry-After.

export interface TierLimits {
  /** Requests per second of the whole extension (steady), and how many at once above it. */
  rate: number;
  burst: number;
  /** Requests per second of one user through the extension, and its burst. */
  userRate: number;
  userBurst: number;
  /** Requests per quota period of the whole extension. */
  quota: number;
  /** The quota's period in seconds (a day; API Gateway's usage plans count DAY, WEEK or MONTH). */
  quotaPeriodS: number;
}

const DAY_S = 86_400;

/** The documented defaults (docs/integrations.md); SURCO_FAIR_USE_TIERS changes or adds tiers. */
export const DEFAULT_TIERS: Readonly<Record<string, TierLimits>> = {
  free: { rate: 5, burst: 10, userRate: 2, userBurst: 5, quota: 5_000, quotaPeriodS: DAY_S },
  standard: { rate: 25, burst: 50, userRate: 10, userBurst: 20, quota: 100_000, quotaPeriodS: DAY_S },
  partner: { rate: 100, burst: 200, userRate: 25, userBurst: 50, quota: 1_000_000, quotaPeriodS: DAY_S },
  /** A user's own session (the platform's web app): no extension. */
  platform: { rate: 50, burst: 100, userRate: 20, userBurst: 40, quota: 2_000_000, quotaPeriodS: DAY_S },
  /** Callers whose token does not verify (their requests still reach the function, which answers 401). */
  anonymous: { rate: 20, burst: 40, userRate: 20, userBurst: 40, quota: 200_000, quotaPeriodS: DAY_S },
  /** No limits: development and test stacks only. */
  unmetered: {
    rate: Number.POSITIVE_INFINITY,
    burst: Number.POSITIVE_INFINITY,
    userRate: Number.POSITIVE_INFINITY,
    userBurst: Number.POSITIVE_INFINITY,
    quota: Number.POSITIVE_INFINITY,
    quotaPeriodS: DAY_S,
  },
};

/** Keys of the extension-to-tier map that are not extension ids. */
export const SESSION = '';
export const UNVERIFIED = '-';

export interface FairUseConfig {
  tiers: Record<string, TierLimits>;
  /** Tier by extension id ('' a user's own session, '-' an unverified caller). */
  extensionTiers: Record<string, string>;
  /** Tier of an extension the map does not name. */
  defaultTier: string;
}

type Environment = Record<string, string | undefined>;

const parseJson = (name: string, raw: string | undefined): unknown => {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`${name} is not JSON`);
  }
};

/**
 * The tiers and who is in which, from SURCO_FAIR_USE_TIERS (JSON: tier -> limits, merged over the
 * defaults), SURCO_EXTENSION_TIERS (JSON: extension id -> tier) and SURCO_DEFAULT_TIER (standard).
 */
export function fairUseConfig(env: Environment = process.env): FairUseConfig {
  const tiers: Record<string, TierLimits> = { ...DEFAULT_TIERS };
  const overrides = parseJson('SURCO_FAIR_USE_TIERS', env.SURCO_FAIR_USE_TIERS) ?? {};
  for (const [name, limits] of Object.entries(overrides as Record<string, Partial<TierLimits>>)) {
    const merged = { ...(tiers[name] ?? DEFAULT_TIERS.standard!), ...limits };
    for (const [key, value] of Object.entries(merged))
      if (typeof value !== 'number' || !(value > 0))
        throw new Error(`SURCO_FAIR_USE_TIERS: ${name}.${key} must be > 0`);
    tiers[name] = merged;
  }
  const extensionTiers: Record<string, string> = {
    [SESSION]: 'platform',
    [UNVERIFIED]: 'anonymous',
    ...(parseJson('SURCO_EXTENSION_TIERS', env.SURCO_EXTENSION_TIERS) as Record<string, string> | undefined),
  };
  const defaultTier = env.SURCO_DEFAULT_TIER || 'standard';
  for (const tier of [defaultTier, ...Object.values(extensionTiers)])
    if (!tiers[tier]) throw new Error(`unknown fair-use tier ${JSON.stringify(tier)}`);
  return { tiers, extensionTiers, defaultTier };
}

/** The tier of an extension ('' a user's own session, '-' an unverified caller). */
export const tierOf = (config: FairUseConfig, extensionId: string): string =>
  config.extensionTiers[extensionId] ?? config.defaultTier;

export type Verdict = { ok: true } | { ok: false; limit: 'rate' | 'user_rate' | 'quota'; retryAfterS: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets (an extension's, a user's within it) and a fixed-window quota per extension,
 * counted as API Gateway counts them: a refused request takes nothing from any of them. The clock
 * is injectable (tests); quota windows start at multiples of the period since the epoch (a day's
 * at 00:00 UTC, as usage plans reset).
 */
export class FairUse {
  private readonly buckets = new Map<string, Bucket>();
  private readonly quotas = new Map<string, { window: number; used: number }>();

  constructor(
    private readonly config: FairUseConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request of `userId` through `extensionId` (or refuses it, saying when to retry). */
  take(extensionId: string, userId: string): Verdict {
    const tierName = tierOf(this.config, extensionId);
    const tier = this.config.tiers[tierName]!;
    const now = this.now();
    const periodMs = tier.quotaPeriodS * 1000;
    const window = Math.floor(now / periodMs);
    const quotaKey = `${tierName}|${extensionId}`;
    const quota = this.quotas.get(quotaKey);
    const used = quota && quota.window === window ? quota.used : 0;
    if (used >= tier.quota)
      return { ok: false, limit: 'quota', retryAfterS: Math.max(1, Math.ceil(((window + 1) * periodMs - now) / 1000)) };
    const extension = this.fill(`e|${quotaKey}`, tier.rate, tier.burst, now);
    const user = this.fill(`u|${quotaKey}|${userId}`, tier.userRate, tier.userBurst, now);
    if (extension.tokens < 1) return { ok: false, limit: 'rate', retryAfterS: wait(extension, tier.rate) };
    if (user.tokens < 1) return { ok: false, limit: 'user_rate', retryAfterS: wait(user, tier.userRate) };
    extension.tokens -= 1;
    user.tokens -= 1;
    this.quotas.set(quotaKey, { window, used: used + 1 });
    if (this.buckets.size > 50_000) this.prune(now);
    return { ok: true };
  }

  private fill(key: string, rate: number, burst: number, now: number): Bucket {
    if (!Number.isFinite(burst)) return { tokens: Number.POSITIVE_INFINITY, at: now }; // unmetered
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: burst, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
      bucket.at = now;
    }
    return bucket;
  }

  /** Forgets buckets idle long enough to be full again (they start full). */
  private prune(now: number) {
    for (const [key, bucket] of this.buckets) if (now - bucket.at > 60_000) this.buckets.delete(key);
  }
}

/** Whole seconds until a bucket holds one token again (at least 1, as Retry-After counts). */
const wait = (bucket: Bucket, rate: number): number => Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
