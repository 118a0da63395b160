// the fair-use tiers and limiter (lib/platform/fair-use.ts), with an injected clock.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIERS, FairUse, fairUseConfig, tierOf } from '../../lib/platform/fair-use';

const config = fairUseConfig({
  SURCO_FAIR_USE_TIERS: JSON.stringify({
    tight: { rate: 2, burst: 4, userRate: 1, userBurst: 2, quota: 10, quotaPeriodS: 60 },
  }),
  SURCO_EXTENSION_TIERS: JSON.stringify({ small: 'tight', big: 'partner' }),
});

describe('fair-use configuration', () => {
  it('documents defaults, merges overrides and maps extensions to tiers', () => {
    expect(DEFAULT_TIERS.standard).toMatchObject({ rate: 25, burst: 50, quota: 100_000, quotaPeriodS: 86_400 });
    expect(tierOf(config, 'small')).toBe('tight');
    expect(tierOf(config, 'big')).toBe('partner');
    expect(tierOf(config, 'unknown')).toBe('standard');
    expect(tierOf(config, '')).toBe('platform');
    expect(tierOf(config, '-')).toBe('anonymous');
    expect(() => fairUseConfig({ SURCO_EXTENSION_TIERS: '{"x":"nope"}' })).toThrow(/unknown fair-use tier/);
    expect(() => fairUseConfig({ SURCO_FAIR_USE_TIERS: '{"t":{"rate":0}}' })).toThrow(/> 0/);
    expect(() => fairUseConfig({ SURCO_FAIR_USE_TIERS: 'x' })).toThrow(/JSON/);
  });
});

describe('the limiter', () => {
  it('lets a burst through, then the rate; a refusal takes nothing and says when to retry', () => {
    let now = 1_000_000;
    const limiter = new FairUse(config, () => now);
    // user rate 1/s burst 2 binds before the extension's 2/s burst 4
    expect(limiter.take('small', 'u1')).toEqual({ ok: true });
    expect(limiter.take('small', 'u1')).toEqual({ ok: true });
    expect(limiter.take('small', 'u1')).toEqual({ ok: false, limit: 'user_rate', retryAfterS: 1 });
    // another user of the extension has its own bucket, within the extension's
    expect(limiter.take('small', 'u2')).toEqual({ ok: true });
    expect(limiter.take('small', 'u2')).toEqual({ ok: true });
    expect(limiter.take('small', 'u3')).toEqual({ ok: false, limit: 'rate', retryAfterS: 1 });
    // another extension is not touched
    expect(limiter.take('big', 'u1')).toEqual({ ok: true });
    now += 500; // the extension gained one token, u1 half of one
    expect(limiter.take('small', 'u1')).toMatchObject({ ok: false, limit: 'user_rate' });
    expect(limiter.take('small', 'u3')).toEqual({ ok: true });
  });

  it('counts a quota per period, reset when the period turns', () => {
    let now = 60_000 * 1000; // the start of a 60 s period
    const limiter = new FairUse(config, () => now);
    for (let i = 0; i < 10; i++) {
      expect(limiter.take('small', `user${i}`)).toEqual({ ok: true });
      now += 1_000;
    }
    expect(limiter.take('small', 'another')).toEqual({ ok: false, limit: 'quota', retryAfterS: 50 });
    now += 49_999;
    expect(limiter.take('small', 'another')).toMatchObject({ ok: false, limit: 'quota', retryAfterS: 1 });
    now += 1;
    expect(limiter.take('small', 'another')).toEqual({ ok: true });
  });

  it('never limits the unmetered tier', () => {
    const limiter = new FairUse(fairUseConfig({ SURCO_DEFAULT_TIER: 'unmetered' }), () => 5);
    for (let i = 0; i < 10_000; i++) expect(limiter.take('any', 'u').ok).toBe(true);
  });
});
