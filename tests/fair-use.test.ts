// Fair use per extension (docs/integrations.md, Rate limits): each extension, and each
// user within it, has a rate and a burst, and the extension a quota per period, by tier; over a
// limit the caller gets 429 in the route's dialect with Retry-After, and no other extension or user
// is slowed. The test stack puts the extensions below in tiers of their own (tests/setup/stack.ts):
// test-tight (1 request/s, burst 3), test-quota (3 requests per 3 s), test-users (1 request/s per
// user, burst 2). Every other caller of the test stack is unmetered.
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, stack, tokenFor } from './helpers/api';

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

// In AWS, API Gateway's usage plans throttle each extension, and the authorizer keeps each user's
// own rate within it on the table (lib/platform/user-rate.ts), denying a request over it (the
// ACCESS_DENIED gateway response, a 429). Run here in process, as the deployed authorizer runs,
// against the stack's DynamoDB Local, with usage plans configured and the extension's key stored.
describe('fair use per user in AWS: the authorizer on the table', () => {
  const EXTENSION = 'fair-use-aws';
  const saved = { ...process.env };
  let authorize: typeof import('../lib/auth/authorizer').authorize;
  let takeUserRequest: typeof import('../lib/platform/user-rate').takeUserRequest;
  let getItem: typeof import('../lib/db/table').getItem;
  let keys: typeof import('../lib/db/keys').keys;

  beforeAll(async () => {
    const { table, endpoints, region } = stack();
    Object.assign(process.env, {
      SURCO_TABLE: table,
      SURCO_BUCKET: 'unused',
      SURCO_EVENTS_QUEUE_URL: 'http://127.0.0.1:1/000000000000/unused',
      SURCO_DYNAMODB_ENDPOINT: endpoints.dynamodb,
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      SURCO_USAGE_PLANS: JSON.stringify({ 'test-users-aws': 'plan-of-the-tier' }),
      SURCO_FAIR_USE_TIERS: JSON.stringify({
        'test-users-aws': { rate: 100, burst: 100, userRate: 1, userBurst: 2, quota: 1_000_000, quotaPeriodS: 86_400 },
      }),
      SURCO_EXTENSION_TIERS: JSON.stringify({ [EXTENSION]: 'test-users-aws' }),
      SURCO_LOG_LEVEL: 'silent',
    });
    ({ authorize } = await import('../lib/auth/authorizer'));
    ({ takeUserRequest } = await import('../lib/platform/user-rate'));
    ({ getItem } = await import('../lib/db/table'));
    ({ keys } = await import('../lib/db/keys'));
    // the extension's API key, as its first request in AWS stores it (no API Gateway call here)
    const { putItem } = await import('../lib/db/table');
    await putItem({
      ...keys.extensionApiKey('test-users-aws', EXTENSION),
      kind: 'api_key',
      value: 'key-of-the-extension',
    });
    await putItem({ ...keys.extensionApiKey('anonymous', '-'), kind: 'api_key', value: 'key-of-the-unverified' });
  });

  afterAll(() => {
    process.env = saved;
  });

  const event = (token: string) =>
    ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:us-east-1:123456789012:api1/prod/GET/livestock/herd/categories',
      headers: { Authorization: `Bearer ${token}` },
      queryStringParameters: null,
    }) as unknown as APIGatewayRequestAuthorizerEvent;
  const effect = (result: Awaited<ReturnType<typeof authorize>>) => result.policyDocument.Statement[0]!.Effect;

  it('denies a user past its burst, saying how long to wait, while another user of the extension is served', async () => {
    const first = await tokenFor((await createUser()).id, { extension_id: EXTENSION });
    const second = await tokenFor((await createUser()).id, { extension_id: EXTENSION });
    const burst = await Promise.all(Array.from({ length: 5 }, () => authorize(event(first))));
    expect(burst.filter((r) => effect(r) === 'Allow')).toHaveLength(2);
    const denied = burst.filter((r) => effect(r) === 'Deny');
    expect(denied).toHaveLength(3);
    for (const result of denied) {
      expect(Number(result.context!.retryAfter)).toBeGreaterThanOrEqual(1);
      // the usage key still counts the request against the extension, as API Gateway does
      expect(result.usageIdentifierKey).toBe('key-of-the-extension');
    }
    const other = await Promise.all(Array.from({ length: 2 }, () => authorize(event(second))));
    expect(other.map(effect)).toEqual(['Allow', 'Allow']);
    // one request a second: after the wait it is served again
    await sleep(1100);
    expect(effect(await authorize(event(first)))).toBe('Allow');
  });

  it('never denies a token that does not verify (the function answers it 401 in its dialect)', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => authorize(event('not-a-token'))));
    expect(answers.map(effect)).toEqual(Array(5).fill('Allow'));
    expect(answers[0]!.context).toMatchObject({ verified: 'false' });
    expect(answers[0]!.usageIdentifierKey).toBe('key-of-the-unverified');
  });

  it('gives a function its caller in a verified context, which the function takes without verifying the token again; an unverified context does not', async () => {
    const user = await createUser();
    const token = await tokenFor(user.id, { extension_id: EXTENSION, claims: ['SEASON_VIEW'] });
    const verdict = (await authorize(event(token))).context!;
    expect(verdict).toMatchObject({ verified: 'true', userId: String(user.id), extensionId: EXTENSION });
    expect(JSON.parse(String(verdict.claims))).toEqual(['SEASON_VIEW']);
    // a real bearer route, run in this process as Lambda runs it behind API Gateway
    const { count } = await import('../functions/notifications/inbox');
    const request = (authorization: string, authorizer: unknown) =>
      ({
        httpMethod: 'GET',
        path: '/nc/inbox/count',
        resource: '/nc/inbox/count',
        headers: { Authorization: authorization },
        queryStringParameters: null,
        pathParameters: null,
        body: null,
        isBase64Encoded: false,
        requestContext: { requestId: 'verdict-test', authorizer },
      }) as unknown as Parameters<typeof count>[0];
    const context = { awsRequestId: 'verdict-test', getRemainingTimeInMillis: () => 10_000 } as Parameters<
      typeof count
    >[1];
    // the header holds no token at all: only the authorizer's context can have named the caller
    const trusted = (await count(request('Bearer not-a-token', verdict), context)) as {
      statusCode: number;
      body: string;
    };
    expect(trusted.statusCode, trusted.body).toBe(200);
    expect(JSON.parse(trusted.body)).toEqual({ res: 'ok', data: { count: 0 } });
    // a context that says the token did not verify, or one without it: the function verifies itself
    for (const authorizer of [{ ...verdict, verified: 'false' }, { ...verdict, claims: 'not json' }, undefined]) {
      const refused = (await count(request('Bearer not-a-token', authorizer), context)) as { statusCode: number };
      expect(refused.statusCode).toBe(401);
    }
    const own = (await count(request(`Bearer ${token}`, undefined), context)) as { statusCode: number };
    expect(own.statusCode).toBe(200);
  });

  it('keeps the rate as a token bucket (GCRA) on one item that expires when idle, and a refusal writes nothing', async () => {
    const limits = { rate: 2, burst: 3 };
    const t0 = 1_900_000_000_000;
    const take = (at: number) => takeUserRequest('bucket-test', 'u1', limits, t0 + at);
    expect(await take(0)).toEqual({ ok: true });
    expect(await take(0)).toEqual({ ok: true });
    expect(await take(0)).toEqual({ ok: true });
    expect(await take(0)).toEqual({ ok: false, retryAfterS: 1 });
    const item = await getItem(keys.userRate('bucket-test', 'u1'));
    expect(item).toMatchObject({ tat: t0 + 1500 });
    expect(Number(item!.ttl)).toBeGreaterThan((t0 + 1500) / 1000);
    expect(await take(10)).toMatchObject({ ok: false });
    expect(await getItem(keys.userRate('bucket-test', 'u1'))).toMatchObject({ tat: t0 + 1500 });
    // half a second later one more request fits (2 a second), not two
    expect(await take(500)).toEqual({ ok: true });
    expect(await take(500)).toMatchObject({ ok: false });
    // after a rest the whole burst is back
    expect(await take(10_000)).toEqual({ ok: true });
    expect(await take(10_000)).toEqual({ ok: true });
    expect(await take(10_000)).toEqual({ ok: true });
    expect(await take(10_000)).toMatchObject({ ok: false });
    // another user's bucket is its own
    expect(await takeUserRequest('bucket-test', 'u2', limits, t0 + 10_000)).toEqual({ ok: true });
  });
});
