// Spec 3, "Notifications" and "Events": the inbox (paging, pinned first, count, dismiss), events
// through /nc-internal/events and /nc/events/test and the queue worker (translation, stacking,
// idempotency, the dead-letter queue), and the live stream with a real EventSource client.
import { randomUUID } from 'node:crypto';
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import { call, createField, eventually, internal, newUser, stack, type TestUser } from './helpers/api';

const sendInternal = (event_name: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  internal('/nc-internal/events', { event_name, data, ...extra });

const inbox = (user: TestUser, query: Record<string, string | number | undefined> = {}, prefix = '') =>
  call('GET', `${prefix}/nc/inbox`, { token: user.token, query });
/** Resolves once the events queue holds nothing (no message waiting, in flight or delayed): every event posted so far was handled. */
async function eventsHandled(): Promise<void> {
  const client = new SQSClient({
    region: stack().region,
    endpoint: stack().endpoints.sqs,
    credentials: LOCAL_CREDENTIALS,
  });
  const names = [
    'ApproximateNumberOfMessages',
    'ApproximateNumberOfMessagesNotVisible',
    'ApproximateNumberOfMessagesDelayed',
  ] as const;
  await eventually(
    async () => {
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: stack().queues.EventsQueue!, AttributeNames: [...names] }),
      );
      return names.every((name) => Number(Attributes?.[name] ?? 0) === 0) ? true : undefined;
    },
    30_000,
    100,
  );
  client.destroy();
}

const count = async (user: TestUser) =>
  (await call('GET', '/nc/inbox/count', { token: user.token })).body.data.count as number;
const dismiss = (user: TestUser, query: Record<string, string>) =>
  call('DELETE', '/nc/inbox', { token: user.token, query });

/** The inbox once it holds `n` items. */
async function inboxWith(user: TestUser, n: number) {
  return eventually(async () => {
    const response = await inbox(user, { page_size: 100 });
    return response.body.data.items.length >= n ? response.body.data.items : undefined;
  });
}

describe('POST /nc-internal/events', () => {
  it('answers 200 with the event id at once; the worker puts the item in the inbox', async () => {
    const user = await newUser({ locale: 'en' });
    const response = await sendInternal('TEST.V1', { user_ids: [user.id] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      res: 'ok',
      info: 'event queued',
      data: { event_id: expect.any(String), event_name: 'TEST.V1' },
    });
    const [item] = await inboxWith(user, 1);
    expect(item).toEqual({
      item_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      event_name: 'TEST.V1',
      message: 'This is a test notification',
      payload: {},
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      dissmisible: true,
      pinned: false,
    });
    expect(await count(user)).toBe(1);
  });

  it('always answers 200 once authenticated: names and data it does not deliver are dropped by the worker, never reaching an inbox', async () => {
    const user = await newUser();
    const accepted = async (event_name: string, data: Record<string, unknown>) => {
      const response = await internal('/nc-internal/events', { event_name, data });
      expect(response.status, event_name).toBe(200);
      expect(response.body).toMatchObject({ res: 'ok', data: { event_name } });
    };
    await accepted('NOPE.V1', { user_ids: [user.id] });
    await accepted('TEST.V2', { user_ids: [user.id] });
    await accepted('test', { user_ids: [user.id] });
    await accepted('PING.V1', { user_ids: [user.id] });
    await accepted('TEST.V1', { user_ids: ['1'] });
    await accepted('FIELD_SHARE.V1', { user_ids: [user.id], payload: { fields: [{ field_name: 'x' }] } });
    // then one it delivers: once it is in, the earlier ones (queued before it) have been handled
    await accepted('TEST.V1', { user_ids: [user.id] });
    const items = await inboxWith(user, 1);
    expect(items.map((i: any) => i.event_name)).toEqual(['TEST.V1']);
    // what is not an event at all is answered 200 too (spec: always HTTP 200), dropped and never delivered
    for (const body of [
      { event_name: 'TEST.V1' },
      { data: { user_ids: [user.id] } },
      { event_name: 'TEST.V1', data: [user.id] },
      { event_name: '', data: { user_ids: [user.id] } },
      { event_name: 'TEST.V1', data: { user_ids: [user.id], payload: { big: 'x'.repeat(210 * 1024) } } },
      [],
      {},
    ]) {
      const dropped = await internal('/nc-internal/events', body);
      expect([dropped.status, dropped.body.res, dropped.body.info], JSON.stringify(body).slice(0, 80)).toEqual([
        200,
        'ok',
        'event dropped',
      ]);
      expect(dropped.body.data.event_id).toBeNull();
      expect(dropped.body.detail).toEqual(expect.any(String));
    }
    // bytes that are not JSON, text with a lone surrogate and a body over 1 MiB: dropped, answered 200
    for (const [what, body] of [
      ['not JSON', '{"event_name": "TEST.V1", "data": '],
      ['a lone surrogate', '{"event_name": "TEST.V1", "data": {"user_ids": [1], "payload": {"x": "\\ud800"}}}'],
      [
        'over 1 MiB',
        JSON.stringify({ event_name: 'TEST.V1', data: { user_ids: [user.id], pad: 'x'.repeat(1.1 * 2 ** 20) } }),
      ],
    ]) {
      const dropped = await call('POST', '/nc-internal/events', {
        body,
        headers: { 'x-internal-key': stack().internalKey, 'content-type': 'application/json' },
      });
      expect([dropped.status, dropped.body.res, dropped.body.info, dropped.body.data?.event_id], what).toEqual([
        200,
        'ok',
        'event dropped',
        null,
      ]);
      expect(dropped.body.detail, what).toEqual(expect.any(String));
    }
    // the internal key is needed, whatever the body
    const unreadableNoKey = await call('POST', '/nc-internal/events', {
      body: '{"event_name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect([unreadableNoKey.status, unreadableNoKey.body.code]).toEqual([401, -3]);
    const noKey = await internal('/nc-internal/events', { event_name: 'TEST.V1', data: { user_ids: [user.id] } }, '');
    expect([noKey.status, noKey.body.code]).toEqual([401, -3]);
    const wrongKey = await internal(
      '/nc-internal/events',
      { event_name: 'TEST.V1', data: { user_ids: [user.id] } },
      'wrong',
    );
    expect(wrongKey.status).toBe(401);
    expect(await count(user)).toBe(1);
  });

  it('delivers an event_id once, however often it is posted', async () => {
    const user = await newUser();
    const event_id = randomUUID();
    for (let i = 0; i < 3; i++)
      expect((await sendInternal('TEST.V1', { user_ids: [user.id] }, { event_id })).status).toBe(200);
    await sendInternal('TEST.V1', { user_ids: [user.id] }); // a marker that the worker got this far
    await inboxWith(user, 2);
    await eventsHandled();
    expect((await inbox(user)).body.data.items).toHaveLength(2);
    expect(await count(user)).toBe(2);
  });

  it('is served under /api too', async () => {
    const user = await newUser();
    const response = await internal('/api/nc-internal/events', {
      event_name: 'TEST.V1',
      data: { user_ids: [user.id] },
    });
    expect(response.status).toBe(200);
    await inboxWith(user, 1);
    expect((await inbox(user, {}, '/api')).body.data.items).toHaveLength(1);
  });
});

describe('messages', () => {
  it("are translated to each user's locale (es, en, pt)", async () => {
    const users = {
      es: await newUser({ locale: 'es' }),
      en: await newUser({ locale: 'en' }),
      pt: await newUser({ locale: 'pt' }),
    };
    await sendInternal('TEST.V1', { user_ids: Object.values(users).map((u) => u.id) });
    const messages = Object.fromEntries(
      await Promise.all(
        Object.entries(users).map(async ([locale, user]) => [locale, (await inboxWith(user, 1))[0].message]),
      ),
    );
    expect(messages).toEqual({
      es: 'Esta es una notificación de prueba',
      en: 'This is a test notification',
      pt: 'Esta é uma notificação de teste',
    });
  });

  it('FIELD_SHARE.V1 reaches the user a field is shared with, with the payload the spec shows', async () => {
    const owner = await newUser({ user_name: `Ana ${randomUUID().slice(0, 6)}` });
    const { fieldId, farmId } = await createField(owner, { name: 'Lote Norte' });
    const guest = await newUser({ locale: 'pt' });
    expect(
      (await internal('/internal/shares', { user_id: guest.id, field_id: fieldId, permission: 'read' })).status,
    ).toBe(200);
    const [item] = await inboxWith(guest, 1);
    expect(item.event_name).toBe('FIELD_SHARE.V1');
    expect(item.payload).toEqual({
      fields: [
        {
          field_name: 'Lote Norte',
          field_id: fieldId,
          field_uuid: expect.any(String),
          farm_id: farmId,
          farm_uuid: expect.any(String),
          source_user_name: owner.user_name,
        },
      ],
    });
    expect(item.message).toBe(`${owner.user_name} compartilhou com você o talhão Lote Norte`);
    // a farm share lists every field of the farm
    await createField(owner, { farmId, name: 'Lote Sur' });
    const english = await newUser({ locale: 'en' });
    await internal('/internal/shares', { user_id: english.id, farm_id: farmId, permission: 'edit' });
    const [farmItem] = await inboxWith(english, 1);
    expect(farmItem.payload.fields).toHaveLength(2);
    expect(farmItem.message).toMatch(
      new RegExp(`^${owner.user_name} shared 2 fields with you: Lote (Norte|Sur), Lote (Norte|Sur)$`),
    );
  });
});

describe('GET /nc/inbox', () => {
  it('pages newest first with page_size (default 10) and page (default 0), and says which page is the last', async () => {
    const user = await newUser();
    for (let i = 0; i < 13; i++) await sendInternal('TEST.V1', { user_ids: [user.id] });
    const all = await inboxWith(user, 13);
    const ids = all.map((item: any) => item.item_id);
    expect([...ids].sort().reverse()).toEqual(ids); // UUIDv7: newest first
    const first = (await inbox(user)).body.data;
    expect(first.page_info).toEqual({ page: 0, page_size: 10, last_page: false });
    expect(first.items.map((i: any) => i.item_id)).toEqual(ids.slice(0, 10));
    const second = (await inbox(user, { page: 1 })).body.data;
    expect(second.page_info).toEqual({ page: 1, page_size: 10, last_page: true });
    expect(second.items.map((i: any) => i.item_id)).toEqual(ids.slice(10));
    const small = (await inbox(user, { page: 2, page_size: 5 })).body.data;
    expect(small).toEqual({ page_info: { page: 2, page_size: 5, last_page: true }, items: all.slice(10, 13) });
    expect((await inbox(user, { page: 3, page_size: 5 })).body.data).toEqual({
      page_info: { page: 3, page_size: 5, last_page: true },
      items: [],
    });
    expect((await inbox(user, { page: 0, page_size: 13 })).body.data.page_info.last_page).toBe(true);
    expect((await inbox(user, { page: 0, page_size: 12 })).body.data.page_info.last_page).toBe(false);
    for (const query of [{ page_size: 0 }, { page_size: 101 }, { page: -1 }, { page: 'x' }]) {
      const response = await inbox(user, query);
      expect([response.status, response.body.code]).toEqual([400, -4]);
    }
  });

  it('puts current pinned items first, whatever their age; an expired pin takes its place by time', async () => {
    const user = await newUser();
    await sendInternal('TEST.V1', { user_ids: [user.id], pinned: true });
    await inboxWith(user, 1);
    const briefUntil = Date.now() + 4000;
    await sendInternal('TEST.V1', {
      user_ids: [user.id],
      pinned: true,
      pinned_until: new Date(briefUntil).toISOString(),
    });
    await inboxWith(user, 2);
    await sendInternal('TEST.V1', {
      user_ids: [user.id],
      pinned: true,
      pinned_until: new Date(Date.now() - 1000).toISOString(),
    });
    for (let i = 0; i < 3; i++) await sendInternal('TEST.V1', { user_ids: [user.id] });
    const items = await inboxWith(user, 6);
    expect(items.map((i: any) => i.pinned)).toEqual([true, true, false, false, false, false]);
    const [brief, forever] = items;
    expect(brief.item_id > forever.item_id).toBe(true); // pinned ones newest first among themselves
    // the pinned items lead page 0 even when the page is small
    expect((await inbox(user, { page_size: 1 })).body.data.items[0].item_id).toBe(brief.item_id);
    expect((await inbox(user, { page_size: 2, page: 1 })).body.data.items.every((i: any) => !i.pinned)).toBe(true);
    // once its pin ends, the second item is listed by its time (older than the last four)
    const later = await eventually(
      async () => {
        const listed = (await inbox(user)).body.data.items;
        return listed[0].item_id === forever.item_id && listed[1].item_id !== brief.item_id ? listed : undefined;
      },
      10_000,
      200,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(briefUntil);
    expect(later.find((i: any) => i.item_id === brief.item_id).pinned).toBe(false);
    expect(later.map((i: any) => i.item_id).indexOf(brief.item_id)).toBe(5);
  });

  it('needs a token and shows only the caller’s own items', async () => {
    const [me, other] = [await newUser(), await newUser()];
    await sendInternal('TEST.V1', { user_ids: [other.id] });
    await inboxWith(other, 1);
    expect((await inbox(me)).body.data.items).toEqual([]);
    const anonymous = await call('GET', '/nc/inbox');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, -3]);
  });
});

describe('DELETE /nc/inbox and GET /nc/inbox/count', () => {
  it('dismisses one item or all dismissible ones; the count follows; undismissible items stay', async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) await sendInternal('TEST.V1', { user_ids: [user.id] });
    await sendInternal('TEST.V1', { user_ids: [user.id], dissmisible: false });
    const items = await inboxWith(user, 4);
    expect(await count(user)).toBe(4);
    const fixed = items.find((i: any) => !i.dissmisible);
    const [one] = items.filter((i: any) => i.dissmisible);

    expect((await dismiss(user, { item_id: one.item_id })).body).toEqual({ res: 'ok', info: 'item dismissed' });
    expect(await count(user)).toBe(3);
    expect((await inbox(user)).body.data.items.map((i: any) => i.item_id)).not.toContain(one.item_id);
    const again = await dismiss(user, { item_id: one.item_id });
    expect([again.status, again.body.res]).toEqual([404, 'error']);
    const notDismissible = await dismiss(user, { item_id: fixed.item_id });
    expect([notDismissible.status, notDismissible.body.res]).toEqual([409, 'error']);

    expect((await dismiss(user, { all: 'true' })).body).toEqual({ res: 'ok', info: 'item dismissed' });
    expect((await inbox(user)).body.data.items.map((i: any) => i.item_id)).toEqual([fixed.item_id]);
    expect(await count(user)).toBe(1);
    for (const query of [{}, { all: 'false' }, { all: 'true', item_id: fixed.item_id }, { item_id: 'nope' }]) {
      const response = await dismiss(user, query as Record<string, string>);
      expect([response.status, response.body.code]).toEqual([400, -4]);
    }
  });

  it("cannot dismiss another user's item", async () => {
    const [me, other] = [await newUser(), await newUser()];
    await sendInternal('TEST.V1', { user_ids: [other.id] });
    const [item] = await inboxWith(other, 1);
    expect((await dismiss(me, { item_id: item.item_id })).status).toBe(404);
    expect(await count(other)).toBe(1);
  });
});

describe('POST /nc/events/test and stackable events', () => {
  it('sends TEST.V1 to the caller and its workspace; refuses strangers and unknown users', async () => {
    const admin = await newUser({ locale: 'en' });
    const member = await newUser({ space_id: admin.space_id, locale: 'en' });
    const response = await call('POST', '/nc/events/test', {
      token: admin.token,
      json: { user_ids: [admin.id, member.id] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ res: 'ok', data: { event_name: 'TEST.V1' } });
    expect((await inboxWith(member, 1))[0].message).toBe('This is a test notification');
    expect((await inboxWith(admin, 1))[0].event_name).toBe('TEST.V1');
    const stranger = await newUser();
    const refused = await call('POST', '/nc/events/test', { token: admin.token, json: { user_ids: [stranger.id] } });
    expect([refused.status, refused.body.res]).toEqual([403, 'error']);
    // a user that does not exist is answered as one the caller may not notify (nothing tells them apart)
    const unknown = await call('POST', '/api/nc/events/test', {
      token: admin.token,
      json: { user_ids: [999_999_999] },
    });
    const foreign = await call('POST', '/api/nc/events/test', {
      token: admin.token,
      json: { user_ids: [stranger.id] },
    });
    expect([unknown.status, unknown.body.code]).toEqual([foreign.status, foreign.body.code]);
    expect(unknown.body.info.replace('999999999', 'X')).toBe(foreign.body.info.replace(String(stranger.id), 'X'));
    // a supervisor may notify the user it supervises
    await internal('/internal/supervisions', { supervisor_id: stranger.id, user_id: admin.id, permission: 'read' });
    expect(
      (await call('POST', '/nc/events/test', { token: stranger.token, json: { user_ids: [admin.id] } })).status,
    ).toBe(200);
    expect(await count(stranger)).toBe(0);
  });

  it('stacks undismissed STACKABLE_TEST.V1 items into one whose message shows the count; a dismissal starts anew', async () => {
    const user = await newUser({ locale: 'es' });
    const send = () =>
      call('POST', '/nc/events/test', { token: user.token, json: { user_ids: [user.id], stackable: true } });
    await call('POST', '/nc/events/test', { token: user.token, json: { user_ids: [user.id] } });
    await inboxWith(user, 1);
    for (let i = 0; i < 3; i++) {
      expect((await send()).body.data.event_name).toBe('STACKABLE_TEST.V1');
      await eventually(async () =>
        (await inbox(user)).body.data.items[0]?.message === `Tienes ${i + 1} notificaci${i ? 'ones' : 'ón'} de prueba`
          ? true
          : undefined,
      );
    }
    const items = (await inbox(user)).body.data.items;
    expect(items.map((i: any) => i.event_name)).toEqual(['STACKABLE_TEST.V1', 'TEST.V1']);
    expect(items[0].message).toBe('Tienes 3 notificaciones de prueba');
    expect(await count(user)).toBe(2);
    await dismiss(user, { item_id: items[0].item_id });
    await send();
    await eventually(async () =>
      (await inbox(user)).body.data.items[0]?.message === 'Tienes 1 notificación de prueba' ? true : undefined,
    );
    expect(await count(user)).toBe(2);
  });
});

// --- the live stream -----------------------------------------------------------------------------

interface Received {
  type: string;
  id: string;
  data: { event_name: string; event_payload: Record<string, unknown>; event_msg: string; item_id?: string };
}

const open: EventSource[] = [];
afterEach(() => {
  for (const source of open.splice(0)) source.close();
});

/** A real EventSource client on the user's stream; resolves once connected. */
async function listen(user: TestUser, options: { lastEventId?: string; query?: string } = {}) {
  const received: Received[] = [];
  const url = `${stack().baseUrl}/nc/stream${options.query ?? ''}`;
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          ...(options.query?.includes('access_token') ? {} : { authorization: `Bearer ${user.token}` }),
          ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
        },
      }),
  });
  open.push(source);
  for (const type of ['notifications', 'ping']) {
    source.addEventListener(type, (event) =>
      received.push({ type, id: event.lastEventId, data: JSON.parse(event.data) }),
    );
  }
  await new Promise<void>((resolve, reject) => {
    source.onopen = () => resolve();
    source.onerror = (error) => reject(new Error(`stream failed: ${JSON.stringify(error)}`));
  });
  source.onerror = null;
  const notifications = () => received.filter((r) => r.type === 'notifications');
  return { source, received, notifications };
}

describe('GET /nc/stream', () => {
  it("delivers an event to the connected user's stream within 2 seconds, not to another user's", async () => {
    const [user, other] = [await newUser({ locale: 'en' }), await newUser()];
    const mine = await listen(user);
    const theirs = await listen(other);
    const started = performance.now();
    await sendInternal('TEST.V1', { user_ids: [user.id] });
    await eventually(async () => (mine.notifications().length ? true : undefined), 2000, 20);
    expect(performance.now() - started).toBeLessThan(2000);
    const [event] = mine.notifications();
    expect(event!.data).toMatchObject({
      event_name: 'TEST.V1',
      event_payload: {},
      event_msg: 'This is a test notification',
    });
    expect(event!.id).toMatch(/^\d+$/);
    const [item] = await inboxWith(user, 1);
    expect(event!.data.item_id).toBe(item.item_id);
    // the other user's stream, in order, holds only what was sent to the other user afterwards
    await sendInternal('STACKABLE_TEST.V1', { user_ids: [other.id] });
    await eventually(async () => (theirs.notifications().length ? true : undefined), 5000, 20);
    expect(theirs.notifications().map((e) => e.data.event_name)).toEqual(['STACKABLE_TEST.V1']);
  });

  it('sends PING.V1 keep-alives on the ping channel', async () => {
    const user = await newUser();
    const stream = await listen(user);
    const ping = await eventually(async () => stream.received.find((r) => r.type === 'ping'), 6000, 100);
    expect(ping.data).toEqual({ event_name: 'PING.V1', event_payload: {}, event_msg: 'ping' });
    expect(ping.id).toBe('');
  });

  it('gives a client that reconnects with Last-Event-ID exactly the events it missed', async () => {
    const user = await newUser({ locale: 'es' });
    const first = await listen(user);
    await sendInternal('TEST.V1', { user_ids: [user.id] });
    await eventually(async () => (first.notifications().length === 1 ? true : undefined));
    const lastId = first.notifications()[0]!.id;
    first.source.close();

    await call('POST', '/nc/events/test', { token: user.token, json: { user_ids: [user.id], stackable: true } });
    await inboxWith(user, 2);
    await call('POST', '/nc/events/test', { token: user.token, json: { user_ids: [user.id], stackable: true } });
    await eventually(async () => ((await inbox(user)).body.data.items[0].message.includes('2') ? true : undefined));

    const resumed = await listen(user, { lastEventId: lastId });
    await eventually(async () => (resumed.notifications().length >= 2 ? true : undefined), 3000, 50);
    const missed = resumed.notifications();
    expect(missed.map((e) => e.data.event_name)).toEqual(['STACKABLE_TEST.V1', 'STACKABLE_TEST.V1']);
    expect(missed.map((e) => e.data.event_msg)).toEqual([
      'Tienes 1 notificación de prueba',
      'Tienes 2 notificaciones de prueba',
    ]);
    expect(missed.map((e) => Number(e.id))).toEqual([Number(lastId) + 1, Number(lastId) + 2]);

    // browsers: the token and the last id in the query
    const browser = await listen(user, {
      query: `?access_token=${encodeURIComponent(user.token)}&last_event_id=${lastId}`,
    });
    await eventually(async () => (browser.notifications().length >= 2 ? true : undefined), 3000, 50);
    expect(browser.notifications().map((e) => e.id)).toEqual(missed.map((e) => e.id));
    // a client without Last-Event-ID gets only what comes next
    const fresh = await listen(user);
    await sendInternal('TEST.V1', { user_ids: [user.id] });
    await eventually(async () => (fresh.notifications().length ? true : undefined), 5000, 20);
    expect(fresh.notifications().map((e) => [e.data.event_name, Number(e.id)])).toEqual([
      ['TEST.V1', Number(lastId) + 3],
    ]);
  });

  it('refuses a missing or invalid token in the general dialect', async () => {
    const anonymous = await call('GET', '/nc/stream');
    expect([anonymous.status, anonymous.body]).toEqual([401, { res: 'error', code: -3, info: expect.any(String) }]);
    const invalid = await call('GET', '/api/nc/stream', { token: 'nope' });
    expect([invalid.status, invalid.body.code]).toEqual([401, -3]);
  });
});

// --- the worker: failures, dead letters and redeliveries ---------------------------------------------

describe('the events worker', () => {
  const sqs = () =>
    new SQSClient({ region: stack().region, endpoint: stack().endpoints.sqs, credentials: LOCAL_CREDENTIALS });
  const envelope = (id: string, userId: number) =>
    JSON.stringify({
      id,
      event_name: 'TEST.V1',
      data: { user_ids: [userId], payload: {} },
      created_at: new Date().toISOString(),
    });

  it('sends a poison message to the dead-letter queue while the rest of its batch is processed', async () => {
    const user = await newUser();
    const marker = `poison-${randomUUID()}`;
    await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: stack().queues.EventsQueue!,
        Entries: [
          { Id: 'a', MessageBody: envelope(randomUUID(), user.id) },
          { Id: 'poison', MessageBody: `{"not an envelope": "${marker}"}` },
          { Id: 'b', MessageBody: envelope(randomUUID(), user.id) },
        ],
      }),
    );
    await inboxWith(user, 2);
    const dead = await eventually(
      async () => {
        const out = await sqs().send(
          new ReceiveMessageCommand({
            QueueUrl: stack().queues.EventsDeadLetterQueue!,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            VisibilityTimeout: 0,
          }),
        );
        return out.Messages?.find((m) => m.Body?.includes(marker));
      },
      30_000,
      100,
    );
    expect(dead.Body).toContain(marker);
    expect(await count(user)).toBe(2);
  });

  it('makes no duplicate when a message is delivered again', async () => {
    const user = await newUser();
    const id = randomUUID();
    for (let i = 0; i < 3; i++) {
      await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: stack().queues.EventsQueue!,
          Entries: [{ Id: 'x', MessageBody: envelope(id, user.id) }],
        }),
      );
    }
    await sendInternal('TEST.V1', { user_ids: [user.id] });
    await inboxWith(user, 2);
    await eventsHandled();
    expect((await inbox(user)).body.data.items).toHaveLength(2);
    expect(await count(user)).toBe(2);
  });
});
