// lib/notifications against memory: delivery, stacking, pins, dismissals and the stream without
// DynamoDB (the repository is a parameter; tests/notifications.test.ts runs them through the API,
// the queue and the worker).
import { describe, expect, it } from 'vitest';
import { LostRace } from '../../lib/db/retry';
import { Conflict, type DomainError, NotFound } from '../../lib/errors';
import type { EventEnvelope } from '../../lib/events/publish';
import { STACKABLE_TEST_EVENT, TEST_EVENT } from '../../lib/notifications/catalogue';
import type { InboxItem, StreamEntry } from '../../lib/notifications/model';
import { type Delivery, type InboxRepository, notificationsService } from '../../lib/notifications/service';
import type { User } from '../../lib/platform/model';

/** One user's inbox in memory; every write checks what the DynamoDB conditions check, then applies whole. */
function memory() {
  let state: { seq: number; pending: number } | undefined;
  const items = new Map<string, InboxItem>();
  const stacks = new Map<string, string>();
  const entries: StreamEntry[] = [];
  const delivered = new Set<string>();
  let raceOnce = false;
  const repository: InboxRepository = {
    state: async () => state && { ...state },
    item: async (_user, id) => items.get(id),
    items: async (_user, ids) => ids.flatMap((id) => (items.has(id) ? [items.get(id)!] : [])),
    newest: async (_user, limit) => [...items.values()].sort((a, b) => (a.itemId < b.itemId ? 1 : -1)).slice(0, limit),
    pins: async () =>
      [...items.values()].filter((i) => i.pinned).map((i) => ({ itemId: i.itemId, pinnedUntil: i.pinnedUntil })),
    stacks: async (_user, names) =>
      new Map(names.flatMap((n) => (stacks.has(n) ? [[n, stacks.get(n)!] as const] : []))),
    entriesAfter: async (_user, seq, limit) => entries.filter((e) => e.seq > seq).slice(0, limit),
    async dismiss(_user, gone, read) {
      if (gone.some((i) => !items.has(i.itemId))) throw new LostRace('gone');
      for (const item of gone) {
        items.delete(item.itemId);
        if (read.get(item.eventName) === item.itemId) stacks.delete(item.eventName);
      }
      state!.pending -= gone.length;
    },
    async deliver(d: Delivery, duplicate: () => DomainError) {
      if (delivered.has(d.eventId)) throw duplicate();
      if (
        raceOnce ||
        (state?.seq ?? null) !== d.seqRead ||
        (d.stack && stacks.get(d.item.eventName) !== d.stack.from)
      ) {
        raceOnce = false;
        throw new LostRace('changed');
      }
      delivered.add(d.eventId);
      state = { seq: d.entry.seq, pending: (state?.pending ?? 0) + d.pendingDelta };
      entries.push(d.entry);
      items.set(d.item.itemId, d.item);
      if (d.stack) stacks.set(d.item.eventName, d.item.itemId);
      if (d.replaced) items.delete(d.replaced.itemId);
    },
  };
  return { repository, items, entries, loseNextDelivery: () => (raceOnce = true) };
}

const user = { id: 9, locale: 'en', spaceId: 1 } as User;
let clock = Date.parse('2026-11-23T10:00:00Z');

function setup() {
  const store = memory();
  let ids = 0;
  const service = notificationsService({
    repository: store.repository,
    users: async (id) => (id === user.id ? user : undefined),
    now: () => new Date(clock),
    streamTiming: () => ({ streamPollMs: 1, streamPingSeconds: 60, streamMaxSeconds: 5 }),
    newItemId: () => `0190a000-0000-7000-8000-${String(++ids).padStart(12, '0')}`,
  });
  return { ...store, service };
}

let events = 0;
const envelope = (eventName: string, data: Record<string, unknown>): EventEnvelope =>
  ({ id: `evt-${++events}`, event_name: eventName, data, created_at: new Date(clock).toISOString() }) as EventEnvelope;

describe('notification rules (repository in memory)', () => {
  it('delivers an event once: a redelivered envelope changes nothing', async () => {
    const { service, items, entries } = setup();
    const event = envelope(TEST_EVENT, { user_ids: [9, 9, 404], payload: {} });
    await service.deliverEnvelope(event);
    await service.deliverEnvelope(event);
    expect(items.size).toBe(1);
    expect(entries.map((e) => e.seq)).toEqual([1]);
    expect(await service.pendingCount(9)).toBe(1);
    expect(await service.deliverToUser(404, {} as never, {} as never, 'x')).toBe('no-user');
  });

  it('drops what it cannot deliver (unknown events, malformed data) without writing', async () => {
    const { service, items } = setup();
    await service.deliverEnvelope(envelope('NOPE.V1', { user_ids: [9] }));
    await service.deliverEnvelope(envelope(TEST_EVENT, { user_ids: [] }));
    await service.deliverEnvelope(envelope('PING.V1', { user_ids: [9] }));
    expect(items.size).toBe(0);
  });

  it('stacks a stackable event on the undismissed item: one item counting both, numbered stream entries without gaps', async () => {
    const { service, items, entries, loseNextDelivery } = setup();
    await service.deliverEnvelope(envelope(STACKABLE_TEST_EVENT, { user_ids: [9] }));
    loseNextDelivery();
    await service.deliverEnvelope(envelope(STACKABLE_TEST_EVENT, { user_ids: [9] }));
    expect([...items.values()].map((i) => i.count)).toEqual([2]);
    expect(entries.map((e) => [e.seq, e.count])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(await service.pendingCount(9)).toBe(1);
  });

  it('lists current pins first, then newest first, by pages; an expired pin is an ordinary item', async () => {
    const { service } = setup();
    await service.deliverEnvelope(
      envelope(TEST_EVENT, { user_ids: [9], pinned: true, pinned_until: '2026-11-23T11:00:00Z' }),
    );
    clock += 1000;
    await service.deliverEnvelope(envelope(TEST_EVENT, { user_ids: [9], pinned: true }));
    clock += 1000;
    await service.deliverEnvelope(envelope(TEST_EVENT, { user_ids: [9] }));
    const first = await service.listInbox(user, 0, 2);
    expect(first.items.map((i) => [i.item_id.slice(-1), i.pinned])).toEqual([
      ['2', true],
      ['1', true],
    ]);
    expect(first.page_info.last_page).toBe(false);
    clock += 3600 * 1000;
    const later = await service.listInbox(user, 0, 3);
    expect(later.items.map((i) => [i.item_id.slice(-1), i.pinned])).toEqual([
      ['2', true],
      ['3', false],
      ['1', false],
    ]);
    expect(later.page_info.last_page).toBe(true);
  });

  it('dismisses dismissible items only, and a stacked item with its stack', async () => {
    const { service, items } = setup();
    await service.deliverEnvelope(envelope(TEST_EVENT, { user_ids: [9], dissmisible: false }));
    await service.deliverEnvelope(envelope(STACKABLE_TEST_EVENT, { user_ids: [9] }));
    const [kept, stacked] = [...items.keys()];
    await expect(service.dismissItem(9, kept!)).rejects.toBeInstanceOf(Conflict);
    await expect(service.dismissItem(9, 'missing')).rejects.toBeInstanceOf(NotFound);
    await service.dismissItem(9, stacked!);
    // the stack went with its item: the next stackable event starts a new one
    await service.deliverEnvelope(envelope(STACKABLE_TEST_EVENT, { user_ids: [9] }));
    expect([...items.values()].map((i) => i.count)).toEqual([1, 1]);
    expect(await service.dismissAll(9)).toBe(1);
    expect([...items.keys()]).toEqual([kept]);
    expect(await service.pendingCount(9)).toBe(1);
  });

  it('streams the entries after the client cursor, each with its number', async () => {
    const { service } = setup();
    for (let i = 0; i < 3; i++) await service.deliverEnvelope(envelope(TEST_EVENT, { user_ids: [9] }));
    const written: string[] = [];
    let polls = 0;
    await service.runStream(user, 1, {
      write: (text) => written.push(text),
      get closed() {
        return polls > 0;
      },
      pause: async () => void polls++,
    });
    const ids = written.join('').match(/^id: \d+$/gm);
    expect(ids).toEqual(['id: 2', 'id: 3']);
    expect(written[0]).toContain('retry: 1000');
  });
});
