// Notifications (spec 3): a user's inbox (list, count, dismiss), the delivery of events into it by
// the queue worker, and the live stream. One service built from its repository (services take
// them as parameters): the rules in inbox.ts, deliver.ts and stream.ts run against DynamoDB in the
// functions (lib/notifications/repository.ts) and against memory in tests/unit/notifications.test.ts.
import type { DomainError } from '../errors';
import type { User } from '../platform/model';
import { deliveryRules } from './deliver';
import { inboxRules } from './inbox';
import type { InboxItem, StreamEntry } from './model';
import { streamRules } from './stream';

/** One event landing in a user's inbox, written all at once. */
export interface Delivery {
  userId: number;
  eventId: string;
  /** The stream's last number as it was read (null: the user had no inbox yet); the entry takes the next. */
  seqRead: number | null;
  /** 1 when the inbox holds one item more; 0 when the item replaces a stacked one. */
  pendingDelta: 0 | 1;
  item: InboxItem;
  entry: StreamEntry;
  /** Stackable events: the stack moves to the new item from the item it pointed to (none: a new stack). */
  stack?: { from: string | undefined };
  /** The stacked item the new one replaces. */
  replaced?: InboxItem;
}

/** Where inboxes are kept. Writes are atomic; a LostRace when the inbox changed meanwhile. */
export interface InboxRepository {
  /** The stream's last number and the pending count (undefined: no inbox yet). */
  state(userId: number): Promise<{ seq: number; pending: number } | undefined>;
  item(userId: number, itemId: string): Promise<InboxItem | undefined>;
  /** Items by id, as a listing reads them (eventually consistent). */
  items(userId: number, itemIds: string[]): Promise<InboxItem[]>;
  /**
   * The newest items first; at most `limit` when given. `listing`: read as a page of the inbox is
   * (eventually consistent: half the read units, a write may show about a second later).
   */
  newest(userId: number, limit?: number, options?: { listing?: boolean }): Promise<InboxItem[]>;
  /** Pinned items, with the end of their pin, as a listing reads them (eventually consistent). */
  pins(userId: number): Promise<Array<{ itemId: string; pinnedUntil: string | null }>>;
  /** The item each stack points to, by event name. */
  stacks(userId: number, eventNames: string[]): Promise<Map<string, string>>;
  /** Stream entries after `seq`, in order, at most `limit`. */
  entriesAfter(userId: number, seq: number, limit: number): Promise<StreamEntry[]>;
  /** Removes items (their pins, and the stacks that point to them) and lowers the pending count. */
  dismiss(userId: number, items: InboxItem[], stacks: Map<string, string>): Promise<void>;
  /** Writes a delivery; `duplicate()` when this event was already delivered to the user. */
  deliver(delivery: Delivery, duplicate: () => DomainError): Promise<void>;
}

export interface NotificationDeps {
  repository: InboxRepository;
  users: (userId: number) => Promise<User | undefined>;
  now?: () => Date;
  /** Ids of new items: UUIDv7 unless given (item ids order items by creation time). */
  newItemId?: () => string;
  /** The stream's timing (lib/config.ts unless given). */
  streamTiming?: () => { streamPollMs: number; streamPingSeconds: number; streamMaxSeconds: number };
}

export function notificationsService(deps: NotificationDeps) {
  return { ...inboxRules(deps), ...deliveryRules(deps), ...streamRules(deps) };
}
