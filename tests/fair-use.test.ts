// Fair use per extension (docs/integrations.md, Rate limits): each extension, and each
// user within it, has a rate and a burst, and the extension a quota per period, by tier; over a
// limit the caller gets 429 in the route's dialect with Retry-After, and no other extension or user
// is slowed. The test stack puts the extensions below in tiers of their own (tests/setup/stack.ts):
// test-tight (1 request/s, burst 3), test-quota (3 requests per 3 s), test-users (1 request/s per
// user, burst 2). Every other caller of the test stack is unmetered.
import { describe, expect, it } from 'vitest';
import { call, createUser, tokenFor } from './helpers/api';

const PATH = '/livestock/herd/categories'; // a cheap bearer route, livestock dialect
const get = (token: string) => call('GET', PATH, { token });

async function tokenOf(extension: string) {
  const user = await createUser();
  return tokenFor(user.id, { extension_id: extension });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fair use per extension', () => {
  it("answers an extension over its rate 429 with Retry-After, in the route's dialect, while a second extension's calls all succeed", async () => {
    const a = await tokenOf('fair-use-a');
    const b = await tokenOf('fair-use-b');
    // ten at once against a burst of 3 (1 request/s): the burst passes, the rest are refused
    const burst = await Promise.all(Array.from({ length: 10 }, () => get(a)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(6);
    for (const r of refused) {
      expect(r.body).toEqual({ res: 'error', code: 'TOO_MANY_REQUESTS', info: expect.stringMatching(/extension/) });
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3);
      // browsers may read it
      expect(r.headers.get('access-control-expose-headers')).toMatch(/Retry-After/i);
    }
    // the other extension, in the same tier, is not slowed: its burst all succeeds
    const other = await Promise.all(Array.from({ length: 3 }, () => get(b)));
    expect(other.map((r) => r.status)).toEqual([200, 200, 200]);
    // an unmetered extension neither
    const free = await Promise.all(Array.from({ length: 10 }, async () => get(await tokenOf('test-extension'))));
    expect(free.every((r) => r.status === 200)).toBe(true);
    // and once the bucket refills (Retry-After), the first extension is served again
    await sleep(Number(refused[0]!.headers.get('retry-after')) * 1000 + 100);
    expect((await get(a)).status).toBe(200);
  });

  it("answers 429 in each area's dialect", async () => {
    // a tier of one request per 100 s: after the first, every request is refused
    const token = await tokenOf('fair-use-dialects');
    expect((await get(token)).status).toBe(200);
    const answers = {
      sensors: await call('GET', '/sensors/v2/providers/variablegroups', { token }),
      general: await call('GET', '/api/webhooks/deliveries', { token, query: { subscription_uuid: 'x' } }),
      spots: await call('GET', '/api/utils/units', { token }),
      storage: await call('POST', '/api/mktplace/storage/users', { token, query: { operation: 'GET' }, json: {} }),
      labours: await call('GET', '/api/activities/labour', { token }),
    };
    for (const answer of Object.values(answers)) {
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(90);
    }
    expect(answers.sensors.body).toMatchObject({ res: 'error', code: 'TOO_MANY_REQUESTS' });
    expect(answers.general.body).toMatchObject({ error_code: 'TOO_MANY_REQUESTS' });
    expect(answers.spots.body).toEqual({ code: -1, info: expect.any(String) });
    expect(answers.storage.body).toEqual({ info: { code: -1, message: expect.any(String) } });
    expect(answers.labours.body).toEqual({ res: 'error', code: -1, info: expect.any(String) });
  });

  it('limits each user within an extension: one user over its rate does not slow another user of the same extension', async () => {
    const first = await tokenOf('fair-use-users');
    const second = await tokenOf('fair-use-users');
    const burst = await Promise.all(Array.from({ length: 5 }, () => get(first)));
    const refused = burst.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused[0]!.body.info).toMatch(/user/);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await Promise.all(Array.from({ length: 2 }, () => get(second)));
    expect(other.map((r) => r.status)).toEqual([200, 200]);
  });

  it('refuses an extension whose quota is used up until the period ends, then serves it again', async () => {
    const token = await tokenOf('fair-use-quota');
    // start at the beginning of a 3-second period, so that three requests fit in it
    const periodMs = 3_000;
    await sleep(periodMs - (Date.now() % periodMs) + 50);
    for (let i = 0; i < 3; i++) expect((await get(token)).status).toBe(200);
    const over = await get(token);
    expect(over.status).toBe(429);
    expect(over.body.info).toMatch(/quota/);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    // another user of the same extension shares the extension's quota
    expect((await get(await tokenOf('fair-use-quota'))).status).toBe(429);
    await sleep(periodMs - (Date.now() % periodMs) + 100);
    expect((await get(token)).status).toBe(200);
  });
});
