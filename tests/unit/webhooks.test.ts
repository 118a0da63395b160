// Webhooks (lib/webhooks) against memory: where a webhook may go (SSRF), the signature, the
// subscriptions of a (user, extension) pair, the fan-out and a delivery's attempts and backoff.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import type { Delivery, DeliveryJob, Subscription, WebhookEvent } from '../../lib/webhooks/model';
import {
  type CheckedTarget,
  checkTarget,
  isPrivateAddress,
  type Poster,
  postToTarget,
  type Resolver,
  type TargetRequest,
  targetRequestOptions,
  urlProblem,
} from '../../lib/webhooks/safety';
import {
  DeliveryFailed,
  SubscriptionBusy,
  type SubscriptionRef,
  type WebhookRepository,
  webhooksService,
} from '../../lib/webhooks/service';
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

describe('webhook targets in AWS mode: resolved once, checked with ipaddr.js, connected to as checked', () => {
  const aws = (resolve: Resolver = async () => []) => ({ allowPrivate: false, resolve });

  it('refuses every mapped, compatible, embedded and special IPv6 form and every spelling of a private IPv4', async () => {
    for (const url of [
      'https://[::ffff:169.254.169.254]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://[::127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[0:0:0:0:0:ffff:a9fe:a9fe]/latest/meta-data',
      'https://[::ffff:0:127.0.0.1]/',
      'https://[64:ff9b::127.0.0.1]/',
      'https://[64:ff9b:1::a00:1]/',
      'https://[2002:7f00:1::]/',
      'https://[2001::1]/',
      'https://[2001:db8::1]/',
      'https://[fe80::1]/',
      'https://[fc00::1]/',
      'https://[ff02::1]/',
      'https://[::]/',
      'https://[::1]/',
      'https://127.0.0.1/',
      'https://127.1/',
      'https://0x7f.0.0.1/',
      'https://0177.0.0.1/',
      'https://2130706433/',
      'https://0/',
      'https://169.254.169.254/',
      'https://100.64.0.1/',
      'https://192.0.0.1/',
      'https://198.18.0.1/',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
    ]) {
      const checked = await checkTarget(url, aws());
      expect(checked, url).toEqual({ problem: expect.stringMatching(/private|not a URL/) });
      expect(await urlProblem(url, aws()), url).toBeDefined();
    }
    // the forms getaddrinfo itself may answer
    for (const address of ['::ffff:127.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1', '::ffff:0177.0.0.1', '127.1'])
      expect(isPrivateAddress(address), address).toBe(true);
  });

  it('refuses a host name that resolves to a private address (or to any among public ones), and accepts public ones', async () => {
    const names: Record<string, string[]> = {
      'internal.example.com': ['10.0.0.7'],
      'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
      'mapped.example.com': ['::ffff:169.254.169.254'],
      'v6.example.com': ['2606:4700::1111'],
      'hooks.example.com': ['93.184.215.14'],
    };
    const resolve: Resolver = async (host) => names[host] ?? [];
    for (const host of ['internal.example.com', 'mixed.example.com', 'mapped.example.com'])
      expect(await checkTarget(`https://${host}/x`, aws(resolve)), host).toEqual({
        problem: expect.stringMatching(/private/),
      });
    expect(await checkTarget('https://nowhere.example.com/x', aws(resolve))).toEqual({
      problem: expect.stringMatching(/does not resolve/),
    });
    expect(await checkTarget('https://hooks.example.com:8443/x?y=1', aws(resolve))).toEqual({
      target: {
        url: new URL('https://hooks.example.com:8443/x?y=1'),
        host: 'hooks.example.com',
        address: '93.184.215.14',
        family: 4,
      },
    });
    expect(await checkTarget('https://v6.example.com/', aws(resolve))).toMatchObject({
      target: { host: 'v6.example.com', address: '2606:4700::1111', family: 6 },
    });
    for (const url of ['https://8.8.8.8/', 'https://[2606:4700::1111]/', 'https://[::ffff:8.8.8.8]/'])
      expect(await checkTarget(url, aws()), url).toMatchObject({ target: expect.any(Object) });
  });

  it('at delivery: asks the resolver once and sends to the very address it checked, named as subscribed', async () => {
    const settings = () => ({ allowPrivate: false, timeoutMs: 1000, backoffSeconds: 60, subscriptionConcurrency: 2 });
    const m = memory();
    // a rebinding name: public to the first question of each delivery, loopback to any later one
    let asked = 0;
    const resolve: Resolver = async () => (asked++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']);
    const targets: CheckedTarget[] = [];
    const post: Poster = async (target) => {
      targets.push(target);
      return { status: 200 };
    };
    const service = webhooksService({ repository: m.repository, settings, mayRead: async () => true, resolve, post });
    await service.subscribe(principal(), { url: 'https://rebind.example.com/hook', events: ['SPOT_CREATED.V1'] });
    await service.fanOut(event(9));
    asked = 0;
    await expect(service.deliver(m.queued[0]!, 1)).resolves.toMatchObject({ state: 'delivered' });
    expect(asked).toBe(1);
    expect(targets).toEqual([
      {
        url: new URL('https://rebind.example.com/hook'),
        host: 'rebind.example.com',
        address: '93.184.215.14',
        family: 4,
      },
    ]);
  });

  it('at delivery: a name that now resolves to a private address is not sent to; the attempt is recorded as refused', async () => {
    const settings = () => ({ allowPrivate: false, timeoutMs: 1000, backoffSeconds: 60, subscriptionConcurrency: 2 });
    const m = memory();
    let answer = ['93.184.215.14'];
    let sent = 0;
    const service = webhooksService({
      repository: m.repository,
      settings,
      mayRead: async () => true,
      resolve: async () => answer,
      post: async () => {
        sent++;
        return { status: 200 };
      },
    });
    const sub = await service.subscribe(principal(), {
      url: 'https://later.example.com/hook',
      events: ['SPOT_CREATED.V1'],
    });
    answer = ['::ffff:169.254.169.254'];
    await service.fanOut(event(9));
    await expect(service.deliver(m.queued[0]!, 1)).rejects.toBeInstanceOf(DeliveryFailed);
    expect(sent).toBe(0);
    expect((await service.deliveries(principal(), sub.subscription_uuid, 10))[0]).toMatchObject({
      state: 'pending',
      attempts: [{ status: null, error: expect.stringMatching(/url refused: .*private/) }],
    });
  });
});

describe('the delivery connection', () => {
  const servers: Array<{ close: (done: () => void) => void }> = [];
  afterAll(() => Promise.all(servers.map((server) => new Promise<void>((done) => server.close(() => done())))));

  async function receiver(answer: (request: IncomingMessage, response: ServerResponse) => void) {
    const received: Array<{ method?: string; url?: string; host?: string; body: string }> = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, host: request.headers.host, body });
        answer(request, response);
      });
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return { port: (server.address() as AddressInfo).port, received };
  }
  const pinned = (url: string, address = '127.0.0.1'): CheckedTarget => ({
    url: new URL(url),
    host: new URL(url).hostname.replace(/^\[|\]$/g, ''),
    address,
    family: address.includes(':') ? 6 : 4,
  });
  const request = { headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 1000 };

  it('connects to the checked address, keeping the host name in the Host header (the name itself resolves nowhere)', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const answer = await postToTarget(pinned(`http://hooks.surco.invalid:${hook.port}/in?x=1`), request);
    expect(answer).toEqual({ status: 204 });
    expect(hook.received).toEqual([
      { method: 'POST', url: '/in?x=1', host: `hooks.surco.invalid:${hook.port}`, body: '{"a":1}' },
    ]);
  });

  it('names the host in TLS (SNI) while connecting to the checked address', async () => {
    let serverName: string | undefined;
    const server = createTlsServer({
      SNICallback: (name, done) => {
        serverName = name;
        done(new Error('no certificate in this test'), undefined);
      },
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    await expect(postToTarget(pinned(`https://hooks.surco.invalid:${port}/in`), request)).rejects.toThrow();
    expect(serverName).toBe('hooks.surco.invalid');
    const options = targetRequestOptions(pinned(`https://[2606:4700::1111]/in`, '2606:4700::1111'), request);
    expect(options).not.toHaveProperty('servername'); // an address is never sent as SNI
  });

  it('does not follow a redirect (3xx is the answer), and a receiver that never answers is a TimeoutError', async () => {
    const elsewhere = await receiver((_req, res) => res.writeHead(200).end());
    const redirecting = await receiver((_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/metadata` }).end(),
    );
    expect(await postToTarget(pinned(`http://hooks.surco.invalid:${redirecting.port}/in`), request)).toEqual({
      status: 302,
    });
    expect(elsewhere.received).toEqual([]);
    const silent = await receiver(() => undefined);
    const started = performance.now();
    await expect(
      postToTarget(pinned(`http://hooks.surco.invalid:${silent.port}/in`), { ...request, timeoutMs: 300 }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('through the service: the injected resolver is asked once and the POST reaches the address it gave, named as subscribed', async () => {
    const hook = await receiver((_req, res) => res.writeHead(200).end());
    const m = memory();
    const asked: string[] = [];
    const service = webhooksService({
      repository: m.repository,
      settings: () => ({ allowPrivate: true, timeoutMs: 1000, backoffSeconds: 60, subscriptionConcurrency: 2 }),
      mayRead: async () => true,
      resolve: async (host) => {
        asked.push(host);
        return ['127.0.0.1'];
      },
    });
    await service.subscribe(principal(), {
      url: `http://receiver.surco.invalid:${hook.port}/hook`,
      events: ['SPOT_CREATED.V1'],
    });
    await service.fanOut(event(9));
    await expect(service.deliver(m.queued[0]!, 1)).resolves.toMatchObject({ state: 'delivered' });
    expect(asked).toEqual(['receiver.surco.invalid']);
    expect(hook.received).toMatchObject([
      { method: 'POST', url: '/hook', host: `receiver.surco.invalid:${hook.port}` },
    ]);
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

/** Where a subscription's records live, as lib/db/keys.ts scopes them: its owner and uuid. */
const scoped = (ref: SubscriptionRef) => `${ref.userId}|${ref.extensionId}|${ref.uuid}`;

function memory() {
  const subscriptions = new Map<string, Subscription>();
  const deliveries = new Map<string, Delivery>();
  const queued: DeliveryJob[] = [];
  const slots = new Map<string, { holder: string; leaseUntil: number }>();
  const repository: WebhookRepository = {
    subscriptions: async (userId, extensionId) =>
      [...subscriptions.values()].filter((s) => s.userId === userId && s.extensionId === extensionId),
    subscriptionsOfUser: async (userId) => [...subscriptions.values()].filter((s) => s.userId === userId),
    subscription: async (userId, extensionId, uuid) => subscriptions.get(scoped({ userId, extensionId, uuid })),
    create: async (s) => {
      if (subscriptions.has(scoped(s))) return false;
      subscriptions.set(scoped(s), s);
      return true;
    },
    remove: async (s) => subscriptions.delete(scoped(s)),
    delivery: async (ref, id) => deliveries.get(`${scoped(ref)}|${id}`),
    saveDelivery: async (ref, d) => void deliveries.set(`${scoped(ref)}|${d.deliveryId}`, d),
    deliveries: async (ref) =>
      [...deliveries.entries()]
        .filter(([key]) => key.startsWith(`${scoped(ref)}|`))
        .map(([, d]) => d)
        .reverse(),
    queueDeliveries: async (jobs) => void queued.push(...jobs),
    acquireSlot: async (ref, holder, count, leaseUntil, now) => {
      for (let slot = 0; slot < count; slot++) {
        const held = slots.get(`${ref.uuid}|${slot}`);
        if (held && held.leaseUntil >= now) continue;
        slots.set(`${ref.uuid}|${slot}`, { holder, leaseUntil });
        return slot;
      }
      return undefined;
    },
    releaseSlot: async (ref, slot, holder) => {
      if (slots.get(`${ref.uuid}|${slot}`)?.holder === holder) slots.delete(`${ref.uuid}|${slot}`);
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

  it("a subscription belongs to its user and extension; its uuid is the owner's own: another owner choosing it makes its own", async () => {
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
    // another user, and another extension of the same user, choosing the uuid: a subscription of their own
    for (const [who, url] of [
      [principal(10), 'http://127.0.0.1:4000/theirs'],
      [principal(9, 'other'), 'http://127.0.0.1:4000/other-extension'],
    ] as const) {
      const theirs = await service.subscribe(who, {
        subscription_uuid: made.subscription_uuid,
        url,
        events: ['FIELD_CREATED.V1'],
      });
      expect(theirs).toMatchObject({ subscription_uuid: made.subscription_uuid, url, events: ['FIELD_CREATED.V1'] });
      expect(theirs.secret).not.toBe(made.secret);
      expect((await service.list(who)).map((s) => s.url)).toEqual([url]);
    }
    expect((await service.list(principal())).map((s) => s.url)).toEqual(['http://127.0.0.1:4000/x']);
    await service.remove(principal(9, 'other'), made.subscription_uuid);
    expect(await service.list(principal(9, 'other'))).toEqual([]);
    expect(await service.list(principal())).toHaveLength(1);
    await expect(service.remove(principal(9, 'other'), made.subscription_uuid)).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(service.deliveries(principal(11), made.subscription_uuid, 10)).rejects.toMatchObject({
      kind: 'not_found',
    });
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

  it('two owners of one subscription uuid each get their own deliveries', async () => {
    const m = memory();
    const service = webhooksService({
      repository: m.repository,
      settings,
      mayRead: async () => true,
      post: async () => ({ status: 200 }),
    });
    const uuid = '0b8a2b9e-7c2d-4f7a-9a51-3f1f3f0c2a12';
    await service.subscribe(principal(9), {
      subscription_uuid: uuid,
      url: 'http://127.0.0.1:4000/a',
      events: ['SPOT_CREATED.V1'],
    });
    await service.subscribe(principal(10), {
      subscription_uuid: uuid,
      url: 'http://127.0.0.1:4000/b',
      events: ['SPOT_CREATED.V1'],
    });
    await service.fanOut({ ...event(9), id: 'e9' });
    expect(m.queued).toHaveLength(1);
    await service.deliver(m.queued[0]!, 1);
    expect((await service.deliveries(principal(9), uuid, 10)).map((d) => d.delivery_id)).toEqual([`e9:${uuid}`]);
    expect(await service.deliveries(principal(10), uuid, 10)).toEqual([]);
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

  it("fans a batch's events out to the users they name, each user's subscriptions read once, the jobs queued together; an event of a process reaches its field's owner too", async () => {
    const m = memory();
    const reads = { subscriptions: 0, owners: 0, queues: 0 };
    const repository = {
      ...m.repository,
      subscriptionsOfUser: (userId: number) => {
        reads.subscriptions++;
        return m.repository.subscriptionsOfUser(userId);
      },
      queueDeliveries: (jobs: Parameters<typeof m.repository.queueDeliveries>[0]) => {
        reads.queues++;
        return m.repository.queueDeliveries(jobs);
      },
    };
    const service = webhooksService({
      repository,
      settings,
      mayRead: async () => true,
      fieldOwner: async () => {
        reads.owners++;
        return 11;
      },
    });
    const a = await service.subscribe(principal(9), { url: 'http://127.0.0.1:4000/a', events: ['SPOT_CREATED.V1'] });
    const b = await service.subscribe(principal(10), { url: 'http://127.0.0.1:4000/b', events: ['SPOT_CREATED.V1'] });
    const c = await service.subscribe(principal(11), { url: 'http://127.0.0.1:4000/c', events: ['SPOT_CREATED.V1'] });
    // a batch's events name every reader, the field's owner (11) among them: no owner read
    const events = ['e1', 'e2', 'e3'].map((id) => ({ ...event(10), id, user_ids: [9, 10, 11] }));
    expect(await service.fanOutAll(events)).toBe(9);
    expect(reads).toEqual({ subscriptions: 3, owners: 0, queues: 1 });
    expect(m.queued.map((j) => j.delivery_id).sort()).toEqual(
      ['e1', 'e2', 'e3'].flatMap((id) => [a, b, c].map((s) => `${id}:${s.subscription_uuid}`)).sort(),
    );
    // each job names its one user, not every reader of the event
    expect(m.queued.every((j) => j.event.user_ids.length === 1 && j.event.user_ids[0] === j.user_id)).toBe(true);
    // the same batch again (a retried stream batch): the same delivery ids, so what was delivered is not sent again
    await service.fanOutAll(events);
    expect(new Set(m.queued.map((j) => j.delivery_id)).size).toBe(9);
    // an event of a process names the user who acted: the field's owner (11) hears of it too
    m.queued.length = 0;
    expect(await service.fanOut({ ...event(10), id: 'e4' })).toBe(2);
    expect(reads.owners).toBe(1);
    expect(m.queued.map((j) => j.delivery_id).sort()).toEqual([b, c].map((s) => `e4:${s.subscription_uuid}`).sort());
  });

  it('a failed attempt is recorded and backed off exponentially; the last fails the delivery; a 2xx delivers it once', async () => {
    const m = memory();
    const answers = [500, 502, 200];
    const sent: TargetRequest[] = [];
    const post: Poster = async (_target, request) => {
      sent.push(request);
      return { status: answers.shift() ?? 200 };
    };
    const service = webhooksService({ repository: m.repository, settings, mayRead: async () => true, post });
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
      post: async () => ({ status: 503 }),
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
      post: async () => {
        sent++;
        return { status: 200 };
      },
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
    const post: Poster = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => pending.push(resolve));
      inFlight--;
      return { status: 200 };
    };
    let clock = Date.parse('2026-11-24T10:00:00Z');
    const service = webhooksService({
      repository: m.repository,
      settings,
      mayRead: async () => true,
      post,
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
      await m.repository.delivery({ userId: 9, extensionId: 'ext', uuid: sub.subscription_uuid }, jobs[2]!.delivery_id),
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
    m.slots.set(`${sub.subscription_uuid}|0`, { holder: 'dead', leaseUntil: clock + 31_000 });
    m.slots.set(`${sub.subscription_uuid}|1`, { holder: 'dead', leaseUntil: clock + 31_000 });
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
