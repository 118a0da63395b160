// Webhooks (lib/webhooks) against memory: where a webhook may go (SSRF), the signature, the
// subscriptions of a (user, extension) pair, the fan-out and a delivery's attempts and backoff.
import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import {
  type Delivery,
  type DeliveryJob,
  type Subscription,
  subscriptionScope,
  type WebhookEvent,
} from '../../lib/webhooks/model';
import { isPrivateAddress, urlProblem } from '../../lib/webhooks/safety';
import { DeliveryFailed, SubscriptionBusy, type WebhookRepository, webhooksService } from '../../lib/webhooks/service';
import { signatureHeader, verifySignature } from '../../lib/webhooks/signature';

const principal = (userId = 9, extensionId = 'ext') =>
  ({ user: { id: userId }, extensionId, claims: new Set(['MANAGEMENT_ZONES']) }) as unknown as Principal;

describe('where a webhook may go', () => {
  it('recognises private, loopback, link-local and reserved addresses', () => {
    for (const address of [
      '10.1.2.3',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('in production: https to a public address only, the name resolved', async () => {
    const resolve = async (host: string) =>
      host === 'hooks.example.com' ? ['93.184.215.14'] : host === 'internal.example.com' ? ['10.0.0.7'] : [];
    const production = { allowPrivate: false, resolve };
    expect(await urlProblem('https://hooks.example.com/surco', production)).toBeUndefined();
    expect(await urlProblem('http://hooks.example.com/surco', production)).toMatch(/https/);
    expect(await urlProblem('https://internal.example.com/x', production)).toMatch(/private/);
    expect(await urlProblem('https://127.0.0.1/x', production)).toMatch(/private/);
    expect(await urlProblem('https://[::1]/x', production)).toMatch(/private/);
    expect(await urlProblem('https://169.254.169.254/latest/meta-data', production)).toMatch(/private/);
    expect(await urlProblem('https://nowhere.example.com/x', production)).toMatch(/does not resolve/);
    expect(await urlProblem('https://user:pass@hooks.example.com/x', production)).toMatch(/credentials/);
    expect(await urlProblem('ftp://hooks.example.com/x', production)).toMatch(/https/);
    // locally (allowed by configuration): loopback over plain http
    expect(await urlProblem('http://127.0.0.1:4000/hook', { allowPrivate: true, resolve })).toBeUndefined();
  });
});

describe('signature', () => {
  it('is HMAC-SHA256 of timestamp and body, checked in constant time and refused when old', () => {
    const body = '{"event_name":"FIELD_CREATED.V1"}';
    const header = signatureHeader('whsec_x', 1_800_000_000, body);
    const expected = createHmac('sha256', 'whsec_x').update(`1800000000.${body}`).digest('hex');
    expect(header).toBe(`t=1800000000,v1=${expected}`);
    expect(verifySignature('whsec_x', header, body, { now: 1_800_000_010_000 })).toBe(true);
    expect(verifySignature('whsec_y', header, body, { now: 1_800_000_010_000 })).toBe(false);
    expect(verifySignature('whsec_x', header, `${body} `, { now: 1_800_000_010_000 })).toBe(false);
    expect(verifySignature('whsec_x', header, body, { now: 1_800_001_000_000 })).toBe(false);
  });
});

function memory() {
  const subscriptions = new Map<string, Subscription>();
  const deliveries = new Map<string, Delivery>();
  const queued: DeliveryJob[] = [];
  const slots = new Map<string, { holder: string; leaseUntil: number }>();
  const repository: WebhookRepository = {
    subscriptions: async (userId, extensionId) =>
      [...subscriptions.values()].filter((s) => s.userId === userId && s.extensionId === extensionId),
    subscriptionsOfUser: async (userId) => [...subscriptions.values()].filter((s) => s.userId === userId),
    // a uuid names a subscription within its user and extension (subscriptionScope)
    subscription: async (userId, extensionId, uuid) =>
      subscriptions.get(subscriptionScope({ userId, extensionId, uuid })),
    create: async (s) => {
      if (subscriptions.has(subscriptionScope(s))) return false;
      subscriptions.set(subscriptionScope(s), s);
      return true;
    },
    remove: async (s) => subscriptions.delete(subscriptionScope(s)),
    delivery: async (scope, id) => deliveries.get(`${scope}|${id}`),
    saveDelivery: async (scope, d) => void deliveries.set(`${scope}|${d.deliveryId}`, d),
    deliveries: async (scope) =>
      [...deliveries.entries()]
        .filter(([key]) => key.startsWith(`${scope}|`))
        .map(([, d]) => d)
        .reverse(),
    queueDeliveries: async (jobs) => void queued.push(...jobs),
    acquireSlot: async (uuid, holder, count, leaseUntil, now) => {
      for (let slot = 0; slot < count; slot++) {
        const held = slots.get(`${uuid}|${slot}`);
        if (held && held.leaseUntil >= now) continue;
        slots.set(`${uuid}|${slot}`, { holder, leaseUntil });
        return slot;
      }
      return undefined;
    },
    releaseSlot: async (uuid, slot, holder) => {
      if (slots.get(`${uuid}|${slot}`)?.holder === holder) slots.delete(`${uuid}|${slot}`);
    },
  };
  return { repository, subscriptions, deliveries, queued, slots };
}

const event = (userId: number, name: WebhookEvent['name'] = 'SPOT_CREATED.V1'): WebhookEvent => ({
  id: 'e1',
  name,
  user_ids: [userId],
  field_id: 4,
  occurred_at: '2026-11-24T00:00:00Z',
  data: { spot_uuid: 's1' },
});

describe('subscriptions and deliveries', () => {
  const settings = () => ({ allowPrivate: true, timeoutMs: 1000, backoffSeconds: 60, subscriptionConcurrency: 2 });

  it("a subscription belongs to its user and extension; its uuid names it there only (another's is another subscription)", async () => {
    const m = memory();
    const service = webhooksService({ repository: m.repository, settings, mayRead: async () => true });
    const made = await service.subscribe(principal(), {
      subscription_uuid: '0b8a2b9e-7c2d-4f7a-9a51-3f1f3f0c2a11',
      url: 'http://127.0.0.1:4000/x',
      events: ['SPOT_CREATED.V1'],
    });
    expect(made.secret).toMatch(/^whsec_/);
    expect(
      await service.subscribe(principal(), {
        subscription_uuid: made.subscription_uuid,
        url: 'http://127.0.0.1:4000/x',
        events: ['SPOT_CREATED.V1'],
      }),
    ).toEqual(made);
    // another user, or another extension, knows nothing of it: reading, deleting are as for a uuid nobody used
    expect(await service.list(principal(9, 'other'))).toEqual([]);
    await expect(service.remove(principal(9, 'other'), made.subscription_uuid)).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(service.deliveries(principal(10), made.subscription_uuid, 10)).rejects.toMatchObject({
      kind: 'not_found',
    });
    // and subscribing with its uuid makes their own subscription, as with any uuid nobody used
    const theirs = await service.subscribe(principal(10), {
      subscription_uuid: made.subscription_uuid,
      url: 'http://127.0.0.1:4000/theirs',
      events: ['FIELD_CREATED.V1'],
    });
    expect([theirs.subscription_uuid, theirs.url]).toEqual([made.subscription_uuid, 'http://127.0.0.1:4000/theirs']);
    expect((await service.list(principal()))[0]).toMatchObject({ url: 'http://127.0.0.1:4000/x' });
    expect((await service.list(principal()))[0]).not.toHaveProperty('secret');
    await expect(
      service.subscribe(principal(), { url: 'http://127.0.0.1:4000/x', events: ['NO_SUCH.V1'] }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    const production = webhooksService({
      repository: m.repository,
      settings: () => ({ ...settings(), allowPrivate: false }),
      mayRead: async () => true,
      resolve: async () => ['127.0.0.1'],
    });
    await expect(
      production.subscribe(principal(), { url: 'https://localhost.example/x', events: ['SPOT_CREATED.V1'] }),
    ).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('fans an event out only to the subscriptions of its users that take its name', async () => {
    const m = memory();
    const service = webhooksService({ repository: m.repository, settings, mayRead: async () => true });
    const mine = await service.subscribe(principal(9), { url: 'http://127.0.0.1:4000/a', events: ['SPOT_CREATED.V1'] });
    await service.subscribe(principal(9, 'ext2'), { url: 'http://127.0.0.1:4000/b', events: ['FIELD_CREATED.V1'] });
    await service.subscribe(principal(10), { url: 'http://127.0.0.1:4000/c', events: ['SPOT_CREATED.V1'] });
    expect(await service.fanOut(event(9))).toBe(1);
    expect(m.queued.map((j) => j.subscription_uuid)).toEqual([mine.subscription_uuid]);
    expect(m.queued[0]!.delivery_id).toBe(`e1:${mine.subscription_uuid}`);
  });

  it('a failed attempt is recorded and backed off exponentially; the last fails the delivery; a 2xx delivers it once', async () => {
    const m = memory();
    const answers = [500, 502, 200];
    const sent: Array<{ headers: Record<string, string>; body: string }> = [];
    const send = (async (_url: string, init: { headers: Record<string, string>; body: string }) => {
      sent.push(init);
      return new Response('', { status: answers.shift() ?? 200 });
    }) as unknown as typeof fetch;
    const service = webhooksService({ repository: m.repository, settings, mayRead: async () => true, send });
    const sub = await service.subscribe(principal(), { url: 'http://127.0.0.1:4000/a', events: ['SPOT_CREATED.V1'] });
    await service.fanOut(event(9));
    const job = m.queued[0]!;
    await expect(service.deliver(job, 1)).rejects.toMatchObject({ retryInSeconds: 60 });
    await expect(service.deliver(job, 2)).rejects.toBeInstanceOf(DeliveryFailed);
    await expect(service.deliver(job, 3)).resolves.toMatchObject({ state: 'delivered' });
    await expect(service.deliver(job, 4)).resolves.toMatchObject({ state: 'delivered' }); // a redelivered message sends nothing
    expect(sent).toHaveLength(3);
    expect(verifySignature(sub.secret!, sent[2]!.headers['surco-signature']!, sent[2]!.body)).toBe(true);
    const [record] = await service.deliveries(principal(), sub.subscription_uuid, 10);
    expect(record!.attempts.map((a) => a.status)).toEqual([500, 502, 200]);

    const never = memory();
    const failing = webhooksService({
      repository: never.repository,
      settings,
      mayRead: async () => true,
      send: (async () => new Response('', { status: 503 })) as unknown as typeof fetch,
    });
    const sub2 = await failing.subscribe(principal(), { url: 'http://127.0.0.1:4000/a', events: ['SPOT_CREATED.V1'] });
    await failing.fanOut(event(9));
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await failing
        .deliver(never.queued[0]!, attempt)
        .catch((error: DeliveryFailed) => delays.push(error.retryInSeconds));
    }
    expect(delays).toEqual([60, 120, 240, 480, 960]);
    expect((await failing.deliveries(principal(), sub2.subscription_uuid, 10))[0]).toMatchObject({ state: 'failed' });
  });

  it('an event the extension may no longer read is dropped, not sent', async () => {
    const m = memory();
    let sent = 0;
    const service = webhooksService({
      repository: m.repository,
      settings,
      mayRead: async () => false,
      send: (async () => {
        sent++;
        return new Response('');
      }) as unknown as typeof fetch,
    });
    const sub = await service.subscribe(principal(), { url: 'http://127.0.0.1:4000/a', events: ['SPOT_CREATED.V1'] });
    await service.fanOut(event(9));
    await expect(service.deliver(m.queued[0]!, 1)).resolves.toMatchObject({ state: 'dropped' });
    expect(sent).toBe(0);
    expect((await service.deliveries(principal(), sub.subscription_uuid, 10))[0]!.state).toBe('dropped');
  });

  it('keeps at most subscriptionConcurrency deliveries in flight to one subscription; a busy one is queued again, not attempted', async () => {
    const m = memory();
    const pending: Array<() => void> = [];
    let inFlight = 0;
    let most = 0;
    const send = (async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => pending.push(resolve));
      inFlight--;
      return new Response('');
    }) as unknown as typeof fetch;
    let clock = Date.parse('2026-11-24T10:00:00Z');
    const service = webhooksService({
      repository: m.repository,
      settings,
      mayRead: async () => true,
      send,
      now: () => new Date(clock),
    });
    const sub = await service.subscribe(principal(), { url: 'http://127.0.0.1:4000/a', events: ['SPOT_CREATED.V1'] });
    const other = await service.subscribe(principal(), { url: 'http://127.0.0.1:4000/b', events: ['SPOT_CREATED.V1'] });
    for (const id of ['e1', 'e2', 'e3']) await service.fanOut({ ...event(9), id });
    const jobs = m.queued.filter((job) => job.subscription_uuid === sub.subscription_uuid);
    const first = service.deliver(jobs[0]!, 1);
    const second = service.deliver(jobs[1]!, 1);
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    // both slots held: the third is not sent, not recorded, and comes back in 1 to 5 seconds
    const busy = await service.deliver(jobs[2]!, 1).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(SubscriptionBusy);
    expect((busy as SubscriptionBusy).retryInSeconds).toBeGreaterThanOrEqual(1);
    expect((busy as SubscriptionBusy).retryInSeconds).toBeLessThanOrEqual(5);
    expect(
      await m.repository.delivery(
        subscriptionScope({ userId: 9, extensionId: jobs[2]!.extension_id, uuid: sub.subscription_uuid }),
        jobs[2]!.delivery_id,
      ),
    ).toBeUndefined();
    // another subscription is not held up
    const elsewhere = service.deliver(m.queued.find((job) => job.subscription_uuid === other.subscription_uuid)!, 1);
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    for (const resolve of pending.splice(0)) resolve();
    await Promise.all([first, second, elsewhere]);
    expect(most).toBe(3);
    // slots given back: the third goes now
    const third = service.deliver(jobs[2]!, 1);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    for (const resolve of pending.splice(0)) resolve();
    await expect(third).resolves.toMatchObject({ state: 'delivered' });

    // a holder that died: its slots free themselves when their leases (timeout + 30 s) run out
    const scope = subscriptionScope({ userId: 9, extensionId: 'ext', uuid: sub.subscription_uuid });
    m.slots.set(`${scope}|0`, { holder: 'dead', leaseUntil: clock + 31_000 });
    m.slots.set(`${scope}|1`, { holder: 'dead', leaseUntil: clock + 31_000 });
    await service.fanOut({ ...event(9), id: 'e4' });
    const late = m.queued.filter((job) => job.subscription_uuid === sub.subscription_uuid).at(-1)!;
    await expect(service.deliver(late, 1)).rejects.toBeInstanceOf(SubscriptionBusy);
    clock += 32_000;
    const revived = service.deliver(late, 1);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    for (const resolve of pending.splice(0)) resolve();
    await expect(revived).resolves.toMatchObject({ state: 'delivered' });
  });
});
