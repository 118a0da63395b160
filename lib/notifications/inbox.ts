// The inbox of a user (spec 3, "Notifications"): listing (current pinned items first, then newest
// first, by pages), the pending count and dismissals. Messages are translated when read, in the
// user's locale of the moment.
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { batchGet, getItem, itemKey, queryAll, transact, tx, EXISTS, type Item, type TxOp } from '../db/table';
import { Conflict, NotFound } from '../errors';
import type { Locale, User } from '../platform/model';
import { resolveEvent } from './catalogue';

export interface InboxItem {
  item_id: string;
  event_name: string;
  message: string;
  payload: Record<string, unknown>;
  timestamp: string;
  dissmisible: boolean;
  pinned: boolean;
}

export interface InboxPage {
  page_info: { page: number; page_size: number; last_page: boolean };
  items: InboxItem[];
}

/** An item is pinned while its pin has no end or the end is still ahead. */
const currentlyPinned = (item: Item, now: number) => Boolean(item.pinned) && (!item.pinned_until || Date.parse(String(item.pinned_until)) > now);

export function messageOf(eventName: string, payload: Record<string, unknown>, count: number, locale: Locale): string {
  const resolved = resolveEvent(eventName);
  return resolved.ok ? resolved.definition.message(locale, payload, count) : eventName;
}

function wireItem(item: Item, locale: Locale, now: number): InboxItem {
  const payload = (item.payload as Record<string, unknown> | undefined) ?? {};
  return {
    item_id: String(item.item_id),
    event_name: String(item.event_name),
    message: messageOf(String(item.event_name), payload, Number(item.count ?? 1), locale),
    payload,
    timestamp: String(item.timestamp),
    dissmisible: Boolean(item.dismissible),
    pinned: currentlyPinned(item, now),
  };
}

const byIdDescending = (a: Item, b: Item) => (String(a.item_id) < String(b.item_id) ? 1 : -1);

export async function listInbox(user: User, page: number, pageSize: number): Promise<InboxPage> {
  const now = Date.now();
  const pins = await queryAll(keys.inboxPinsPrefix(user.id));
  const current = pins.filter((pin) => !pin.pinned_until || Date.parse(String(pin.pinned_until)) > now);
  const pinnedItems = [...(await batchGet(current.map((pin) => keys.inboxItem(user.id, String(pin.item_id))))).values()]
    .filter((item) => currentlyPinned(item, now))
    .sort(byIdDescending);
  const pinnedIds = new Set(pinnedItems.map((item) => String(item.item_id)));
  const start = page * pageSize;
  const end = start + pageSize;
  // Items after the pinned ones, newest first; read as far as this page (and one more) needs.
  const othersNeeded = Math.max(0, end + 1 - pinnedItems.length);
  const others = othersNeeded
    ? (await queryAll({ ...keys.inboxItemsPrefix(user.id), descending: true, limit: othersNeeded + pinnedIds.size })).filter(
        (item) => !pinnedIds.has(String(item.item_id)),
      )
    : [];
  const ordered = [...pinnedItems, ...others];
  return {
    page_info: { page, page_size: pageSize, last_page: ordered.length <= end },
    items: ordered.slice(start, end).map((item) => wireItem(item, user.locale, now)),
  };
}

/** Pending notifications: the items in the inbox (dismissed ones are gone). */
export async function pendingCount(userId: number): Promise<number> {
  const state = await getItem(keys.inboxState(userId));
  return Math.max(0, Number(state?.pending ?? 0));
}

/** The operations that remove one item, its pin and the stack pointing to it. */
function removal(userId: number, item: Item, stack: Item | undefined): TxOp[] {
  const itemId = String(item.item_id);
  const ops = [tx.delete(keys.inboxItem(userId, itemId), EXISTS, () => new LostRace('the item changed meanwhile'))];
  if (item.pinned) ops.push(tx.delete(keys.inboxPin(userId, itemId)));
  if (stack && String(stack.item_id) === itemId) {
    ops.push(tx.delete(keys.inboxStack(userId, String(item.event_name)), 'item_id = :id', () => new LostRace('the stack changed meanwhile'), { ':id': itemId }));
  }
  return ops;
}

const decrement = (userId: number, by: number) =>
  tx.update(keys.inboxState(userId), { expression: 'ADD pending :minus', values: { ':minus': -by } });

export async function dismissItem(userId: number, itemId: string): Promise<void> {
  await retryLostRace(async () => {
    const item = await getItem(keys.inboxItem(userId, itemId));
    if (!item) throw new NotFound('item not found');
    if (!item.dismissible) throw new Conflict('the item is not dismissible');
    const stack = await getItem(keys.inboxStack(userId, String(item.event_name)));
    await transact([...removal(userId, item, stack), decrement(userId, 1)]);
  });
}

/** Dismisses every dismissible item, in transactions of up to 25 items; retried on races. */
export async function dismissAll(userId: number): Promise<number> {
  let dismissed = 0;
  await retryLostRace(async () => {
    const items = (await queryAll(keys.inboxItemsPrefix(userId))).filter((item) => item.dismissible);
    const stackKeys = [...new Set(items.map((item) => String(item.event_name)))].map((name) => keys.inboxStack(userId, name));
    const stacks = await batchGet(stackKeys);
    for (let i = 0; i < items.length; i += 25) {
      const chunk = items.slice(i, i + 25);
      const ops = chunk.flatMap((item) => removal(userId, item, stacks.get(itemKey(keys.inboxStack(userId, String(item.event_name))))));
      await transact([...ops, decrement(userId, chunk.length)]);
      dismissed += chunk.length;
    }
  });
  return dismissed;
}
