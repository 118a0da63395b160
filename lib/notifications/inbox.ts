// The inbox of a user (spec 3, "Notifications"): listing (current pinned items first, then newest
// first, by pages), the pending count and dismissals. Messages are translated when read, in the
// user's locale of the moment.
import { retryLostRace } from '../db/retry';
import { Conflict, NotFound } from '../errors';
import type { Locale, User } from '../platform/model';
import { resolveEvent } from './catalogue';
import { currentlyPinned, type InboxItem } from './model';
import type { NotificationDeps } from './service';

export interface WireInboxItem {
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
  items: WireInboxItem[];
}

/** Dismissals write at most this many items in one transaction. */
const DISMISS_CHUNK = 25;

export function messageOf(eventName: string, payload: Record<string, unknown>, count: number, locale: Locale): string {
  const resolved = resolveEvent(eventName);
  return resolved.ok ? resolved.definition.message(locale, payload, count) : eventName;
}

function wireItem(item: InboxItem, locale: Locale, now: number): WireInboxItem {
  return {
    item_id: item.itemId,
    event_name: item.eventName,
    message: messageOf(item.eventName, item.payload, item.count, locale),
    payload: item.payload,
    timestamp: item.timestamp,
    dissmisible: item.dismissible,
    pinned: currentlyPinned(item, now),
  };
}

const byIdDescending = (a: InboxItem, b: InboxItem) => (a.itemId < b.itemId ? 1 : -1);

export function inboxRules({ repository, now = () => new Date() }: NotificationDeps) {
  return {
    async listInbox(user: User, page: number, pageSize: number): Promise<InboxPage> {
      const at = now().getTime();
      const current = (await repository.pins(user.id)).filter(
        (pin) => !pin.pinnedUntil || Date.parse(pin.pinnedUntil) > at,
      );
      const pinnedItems = (
        await repository.items(
          user.id,
          current.map((pin) => pin.itemId),
        )
      )
        .filter((item) => currentlyPinned(item, at))
        .sort(byIdDescending);
      const pinnedIds = new Set(pinnedItems.map((item) => item.itemId));
      const start = page * pageSize;
      const end = start + pageSize;
      // Items after the pinned ones, newest first; read as far as this page (and one more) needs.
      const othersNeeded = Math.max(0, end + 1 - pinnedItems.length);
      const others = othersNeeded
        ? (await repository.newest(user.id, othersNeeded + pinnedIds.size, { listing: true })).filter(
            (item) => !pinnedIds.has(item.itemId),
          )
        : [];
      const ordered = [...pinnedItems, ...others];
      return {
        page_info: { page, page_size: pageSize, last_page: ordered.length <= end },
        items: ordered.slice(start, end).map((item) => wireItem(item, user.locale, at)),
      };
    },

    /** Pending notifications: the items in the inbox (dismissed ones are gone). */
    async pendingCount(userId: number): Promise<number> {
      return Math.max(0, (await repository.state(userId))?.pending ?? 0);
    },

    async dismissItem(userId: number, itemId: string): Promise<void> {
      await retryLostRace(async () => {
        const item = await repository.item(userId, itemId);
        if (!item) throw new NotFound('item not found');
        if (!item.dismissible) throw new Conflict('the item is not dismissible');
        await repository.dismiss(userId, [item], await repository.stacks(userId, [item.eventName]));
      });
    },

    /** Dismisses every dismissible item, in transactions of up to 25 items; retried on races. */
    async dismissAll(userId: number): Promise<number> {
      let dismissed = 0;
      await retryLostRace(async () => {
        const items = (await repository.newest(userId)).filter((item) => item.dismissible);
        const stacks = await repository.stacks(userId, [...new Set(items.map((item) => item.eventName))]);
        for (let i = 0; i < items.length; i += DISMISS_CHUNK) {
          const chunk = items.slice(i, i + DISMISS_CHUNK);
          await repository.dismiss(userId, chunk, stacks);
          dismissed += chunk.length;
        }
      });
      return dismissed;
    },
  };
}
