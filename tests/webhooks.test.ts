// Webhooks (docs/integrations.md) against the local stack, with receivers on loopback (the
// local stack allows them; tests/setup/stack.ts sets retries 1, 2, 4, 8 s apart and a 1 s timeout):
// a signed delivery, a retry after a 500, a receiver that never answers ending in the dead-letter
// queue and the delivery record, and another user's events never reaching a subscription.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookDocs } from '../schemas/webhooks';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import {
  call,
  createField,
  eventually,
  IMAGERY_AREA,
  imagerySquare,
  internal,
  newUser,
  square,
  stack,
  type TestUser,
  tokenFor,
} from './helpers/api';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

/** A receiver on loopback: `answer` decides each request's status (undefined: never answer). */
async function receiver(answer: (n: number) => number | undefined = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const status = answer(received.length);
      if (status !== undefined) res.writeHead(status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/surco`, received };
}

const subscribe = (user: TestUser, url: string, events: string[]) =>
  call('POST', '/api/webhooks', { token: user.token, json: { url, events } });
const deliveries = (user: TestUser, uuid: string) =>
  call('GET', '/api/webhooks/deliveries', { token: user.token, query: { subscription_uuid: uuid } });

describe('webhooks', () => {
  it('lists the events, and delivers a field creation signed with the secret shown once', async () => {
    const catalogue = await call('GET', '/api/webhooks/events', { token: (await newUser()).token });
    expect(catalogue.body.data.map((e: { event_name: string }) => e.event_name)).toContain('FIELD_CREATED.V1');
    const user = await newUser();
    const hook = await receiver();
    const made = await subscribe(user, hook.url, ['FIELD_CREATED.V1']);
    expect(made.status).toBe(200);
    const { subscription_uuid: uuid, secret } = made.body.data;
    expect(secret).toMatch(/^whsec_/);
    const listed = await call('GET', '/api/webhooks', { token: user.token });
    expect(listed.body.data).toEqual([
      {
        subscription_uuid: uuid,
        url: hook.url,
        events: ['FIELD_CREATED.V1'],
        description: '',
        created_at: expect.any(String),
      },
    ]);

    const { fieldId } = await createField(user, { shape: square(-62.1, -35.1) });
    const [request] = await eventually(async () => (hook.received.length ? hook.received : undefined), 20_000);
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      event_name: 'FIELD_CREATED.V1',
      user_id: user.id,
      field_id: fieldId,
      data: { field_id: fieldId },
    });
    // the body is the one the OpenAPI document's webhooks describe
    expect(webhookDocs()['FIELD_CREATED.V1']!.body.safeParse(body).success).toBe(true);
    expect(request!.headers['surco-event']).toBe('FIELD_CREATED.V1');
    expect(request!.headers['surco-delivery']).toBe(body.delivery_id);
    // the receiver's own check, with node:crypto: t=<timestamp>,v1=hex(HMAC-SHA256(secret, "<t>.<body>"))
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request!.headers['surco-signature']))!;
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${request!.body}`).digest('hex'));
    expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(60);
    const record = await eventually(async () =>
      (await deliveries(user, uuid)).body.data.find((d: any) => d.state === 'delivered'),
    );
    expect(record.attempts).toHaveLength(1);
    expect(record.attempts[0].status).toBe(200);
  });

  it('retries after a 500: the receiver gets the event again, one delivery id, two attempts recorded', async () => {
    const user = await newUser();
    const hook = await receiver((n) => (n === 1 ? 500 : 200));
    const { subscription_uuid: uuid } = (await subscribe(user, hook.url, ['FIELD_CREATED.V1'])).body.data;
    await createField(user, { shape: square(-62.2, -35.2) });
    const record = await eventually(
      async () => (await deliveries(user, uuid)).body.data.find((d: any) => d.state === 'delivered'),
      30_000,
      300,
    );
    expect(record.attempts.map((a: any) => a.status)).toEqual([500, 200]);
    expect(hook.received).toHaveLength(2);
    expect(new Set(hook.received.map((r) => r.headers['surco-delivery'])).size).toBe(1);
  });

  it('a receiver that never answers: five attempts, then the dead-letter queue and a failed delivery', async () => {
    const user = await newUser();
    const hook = await receiver(() => undefined);
    const { subscription_uuid: uuid } = (await subscribe(user, hook.url, ['FIELD_CREATED.V1'])).body.data;
    await createField(user, { shape: square(-62.3, -35.3) });
    const record = await eventually(
      async () => (await deliveries(user, uuid)).body.data.find((d: any) => d.state === 'failed'),
      60_000,
      500,
    );
    expect(record.attempts).toHaveLength(5);
    expect(record.attempts.every((a: any) => a.status === null && /no answer/.test(a.error))).toBe(true);
    const sqs = new SQSClient({
      region: stack().region,
      endpoint: stack().endpoints.sqs,
      credentials: LOCAL_CREDENTIALS,
    });
    const dead = await eventually(async () => {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: stack().queues.WebhookDeadLetterQueue!,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          VisibilityTimeout: 0,
        }),
      );
      return (out.Messages ?? []).find((m) => m.Body?.includes(record.delivery_id));
    }, 20_000);
    expect(dead).toBeDefined();
    sqs.destroy();
  }, 90_000);

  it("never delivers another user's events, and never reaches another user's subscription (its uuid makes one's own)", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const hook = await receiver();
    const mine = await receiver();
    const theirs = (await subscribe(stranger, hook.url, ['FIELD_CREATED.V1', 'SPOT_CREATED.V1'])).body.data
      .subscription_uuid;
    const own = (await subscribe(owner, mine.url, ['FIELD_CREATED.V1'])).body.data.subscription_uuid;
    await createField(owner, { shape: square(-62.4, -35.4) });
    await eventually(async () => (mine.received.length ? true : undefined), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.received).toEqual([]);
    expect((await deliveries(stranger, own)).status).toBe(404);
    expect(
      (await call('DELETE', '/api/webhooks', { token: stranger.token, query: { subscription_uuid: own } })).status,
    ).toBe(404);
    // the owner's uuid, chosen by the stranger: a subscription of the stranger's own,
    // answered as any new uuid; the owner's is untouched and its deliveries stay its own
    const ownersBefore = (await deliveries(owner, own)).body.data;
    expect(ownersBefore.length).toBeGreaterThan(0);
    const same = await call('POST', '/api/webhooks', {
      token: stranger.token,
      json: { subscription_uuid: own, url: hook.url, events: ['FIELD_CREATED.V1'] },
    });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ subscription_uuid: own, url: hook.url, secret: expect.any(String) });
    expect((await deliveries(stranger, own)).body.data).toEqual([]);
    expect((await deliveries(owner, own)).body.data).toEqual(ownersBefore);
    expect((await call('GET', '/api/webhooks', { token: owner.token })).body.data).toMatchObject([
      { subscription_uuid: own, url: mine.url },
    ]);
    expect(
      (await call('DELETE', '/api/webhooks', { token: stranger.token, query: { subscription_uuid: own } })).status,
    ).toBe(200);
    expect((await call('GET', '/api/webhooks', { token: owner.token })).body.data).toHaveLength(1);
    expect(
      (await call('DELETE', '/api/webhooks', { token: stranger.token, query: { subscription_uuid: theirs } })).status,
    ).toBe(200);
    expect((await call('GET', '/api/webhooks', { token: stranger.token })).body.data).toEqual([]);
    const refused = await subscribe(owner, 'ftp://example.com/x', ['FIELD_CREATED.V1']);
    expect([refused.status, refused.body.error_code]).toEqual([400, 'PARAMETER_ERROR']);
  });

  it("a record's events reach the users who read it, as its feed entries do: a share's user while the share lasts", async () => {
    const owner = await newUser();
    const reader = await newUser();
    const stranger = await newUser();
    const [readerHook, strangerHook] = [await receiver(), await receiver()];
    await subscribe(reader, readerHook.url, ['LABOUR_CHANGED.V1']);
    await subscribe(stranger, strangerHook.url, ['LABOUR_CHANGED.V1']);
    const { fieldId } = await createField(owner);
    const labourOn = async () => {
      const made = await call('POST', '/activities/labour', {
        token: owner.token,
        json: { labour_type_id: 1, yeargroup: 2026, date: '2026-12-05', field_id: fieldId },
      });
      expect(made.status, made.text).toBe(200);
      return made.body.data.uuid as string;
    };
    const shared = await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    expect(shared.status, shared.text).toBe(200);
    const seen = await labourOn();
    const labourUuids = (hook: { received: Received[] }) =>
      hook.received.map((r) => JSON.parse(r.body).data.labour_uuid as string);
    await eventually(async () => (labourUuids(readerHook).includes(seen) ? true : undefined), 20_000);
    // withdrawn: the owner's next labour reaches no one but the owner's subscriptions
    const withdrawn = await call('DELETE', '/internal/shares', {
      json: { user_id: reader.id, field_id: fieldId },
      headers: { 'x-internal-key': stack().internalKey },
    });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    const unseen = await labourOn();
    // the feed of the owner has it: the stream has passed the change's writes
    await eventually(async () => {
      const feed = await call('GET', '/api/changes', { token: owner.token });
      return JSON.stringify(feed.body).includes(unseen) ? true : undefined;
    }, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(labourUuids(readerHook)).toEqual([seen]);
    expect(strangerHook.received).toEqual([]);
  });

  it('a field deleted: its event to its readers; its records, cleaned up after it, to nobody', async () => {
    const owner = await newUser();
    const hook = await receiver();
    const uuid = (await subscribe(owner, hook.url, ['FIELD_DELETED.V1', 'SPOT_DELETED.V1'])).body.data
      .subscription_uuid;
    const { fieldId } = await createField(owner, { shape: square(-62.2, -35.2) });
    const spot = await call('POST', '/spots/spot', {
      token: owner.token,
      json: { field_id: fieldId, shape: 'POINT(-62.195 -35.195)', name: 'Mancha' },
    });
    expect(spot.status, spot.text).toBe(200);
    const deleted = await call('GET', '/api/borrarlotes', { token: owner.token, query: { lote: fieldId } });
    expect(deleted.status, deleted.text).toBe(200);
    await eventually(
      async () => (hook.received.some((r) => JSON.parse(r.body).event_name === 'FIELD_DELETED.V1') ? true : undefined),
      20_000,
    );
    // the spot goes with the field (the clean-up job, on the events queue with it, done in about a
    // second): no event of it, not even a dropped delivery
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(hook.received.map((r) => JSON.parse(r.body).event_name)).toEqual(['FIELD_DELETED.V1']);
    expect((await deliveries(owner, uuid)).body.data.map((d: { event_name: string }) => d.event_name)).toEqual([
      'FIELD_DELETED.V1',
    ]);
  });

  it("lists only the calling extension's subscriptions, even when another extension's id starts with its own and a #", async () => {
    const user = await newUser();
    const hook = await receiver();
    const plain = { ...user, token: await tokenFor(user.id, { extension_id: 'pfx' }) };
    const longer = { ...user, token: await tokenFor(user.id, { extension_id: 'pfx#b' }) };
    expect((await subscribe(longer, hook.url, ['FIELD_CREATED.V1'])).status).toBe(200);
    expect((await call('GET', '/api/webhooks', { token: plain.token })).body.data).toEqual([]);
    expect((await call('GET', '/api/webhooks', { token: longer.token })).body.data).toHaveLength(1);
  });

  it('delivers spot, labour and imagery events; a subscription made without the spots claim gets no spot event', async () => {
    const user = await newUser();
    const hook = await receiver();
    const all = (
      await subscribe(user, hook.url, ['SPOT_CREATED.V1', 'SPOT_DELETED.V1', 'LABOUR_CHANGED.V1', 'IMAGERY_DATES.V1'])
    ).body.data.subscription_uuid;
    const limited = {
      ...user,
      token: await tokenFor(user.id, { claims: ['FIELDS_CREATE'], extension_id: 'no-spots' }),
    };
    const narrow = await receiver();
    const narrowUuid = (await subscribe(limited, narrow.url, ['SPOT_CREATED.V1'])).body.data.subscription_uuid;
    const { fieldId } = await createField(user, { shape: imagerySquare(0.8, 0.8) });
    const spot = await call('POST', '/spots/spot', {
      token: user.token,
      json: {
        field_id: fieldId,
        shape: `POINT(${IMAGERY_AREA[0] + 0.805} ${IMAGERY_AREA[1] + 0.805})`,
        name: 'Mancha',
      },
    });
    expect(spot.status).toBe(200);
    await call('DELETE', '/spots/spot', { token: user.token, query: { uuid: spot.body.spot_uuid } });
    const labour = await call('POST', '/activities/labour', {
      token: user.token,
      json: { labour_type_id: 1, yeargroup: 2026, date: '2026-12-05', field_id: fieldId },
    });
    expect(labour.status).toBe(200);
    // a status correction (Executed, then back to Planned) is a change of the labour too
    for (const status of [2, 1]) {
      const corrected = await call('PATCH', `/activities/labour/${labour.body.data.uuid}`, {
        token: user.token,
        json: { status },
      });
      expect(corrected.status, `status ${status}`).toBe(200);
    }
    const names = async () =>
      hook.received
        .map((r) => JSON.parse(r.body))
        .map((b) => `${b.event_name}:${b.data.spot_uuid ?? b.data.labour_uuid ?? b.data.layer ?? ''}`);
    await eventually(
      async () => {
        const got = await names();
        return ['SPOT_CREATED.V1', 'SPOT_DELETED.V1', 'LABOUR_CHANGED.V1', 'IMAGERY_DATES.V1'].every((name) =>
          got.some((g) => g.startsWith(name)),
        )
          ? got
          : undefined;
      },
      60_000,
      300,
    );
    const got = await names();
    for (const received of hook.received) {
      const body = JSON.parse(received.body);
      expect(
        webhookDocs()[body.event_name as keyof ReturnType<typeof webhookDocs>]!.body.safeParse(body).success,
        body.event_name,
      ).toBe(true);
    }
    expect(got).toContain(`SPOT_CREATED.V1:${spot.body.spot_uuid}`);
    expect(got).toContain(`SPOT_DELETED.V1:${spot.body.spot_uuid}`);
    expect(got).toContain(`LABOUR_CHANGED.V1:${labour.body.data.uuid}`);
    const labourChanges = await eventually(async () => {
      const changes = hook.received
        .map((r) => JSON.parse(r.body))
        .filter((b) => b.event_name === 'LABOUR_CHANGED.V1' && b.data.labour_uuid === labour.body.data.uuid)
        .map((b) => b.data.change);
      return changes.length >= 3 ? changes : undefined;
    }, 20_000);
    expect(labourChanges.sort()).toEqual(['changed', 'changed', 'created']);
    expect(got).toContain('IMAGERY_DATES.V1:sentinel2');
    expect((await deliveries(user, all)).body.data.every((d: any) => d.state === 'delivered')).toBe(true);
    // the narrow subscription's delivery is recorded dropped, and nothing reached its receiver
    const dropped = await eventually(
      async () => (await deliveries(limited, narrowUuid)).body.data.find((d: any) => d.state === 'dropped'),
      20_000,
    );
    expect(dropped.attempts).toEqual([]);
    expect(narrow.received).toEqual([]);
  }, 90_000);

  it('keeps at most two deliveries in flight to one subscription (SURCO_WEBHOOK_SUBSCRIPTION_CONCURRENCY) and delivers every event', async () => {
    const user = await newUser();
    let inFlight = 0;
    let most = 0;
    const ids = new Set<string>();
    const server = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      req.resume();
      req.on('end', () => {
        ids.add(String(req.headers['surco-delivery']));
        // a slow receiver, answering well within the stack's 1 s timeout (at 700 ms, a delivery
        // slowed by the rest of the suite on two cores once timed out and was attempted twice)
        setTimeout(() => {
          inFlight--;
          res.writeHead(200).end();
        }, 400);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/slow`;
    const { subscription_uuid: uuid } = (await subscribe(user, url, ['FIELD_CREATED.V1'])).body.data;
    await Promise.all([0, 1, 2, 3, 4, 5].map((i) => createField(user, { shape: square(-62.6 - i * 0.01, -35.6) })));
    const delivered = await eventually(
      async () => {
        const records = (await deliveries(user, uuid)).body.data.filter((d: any) => d.state === 'delivered');
        return records.length === 6 ? records : undefined;
      },
      60_000,
      300,
    );
    expect(ids.size).toBe(6);
    // the local stack runs four delivery workers: without the bound the receiver would see up to four
    expect(most).toBe(2);
    // a delivery that waited for a slot is still one attempt
    expect(delivered.every((d: any) => d.attempts.length === 1)).toBe(true);
  }, 90_000);
});
