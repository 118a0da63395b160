// The records of a user's inbox (spec 3, Notifications), defined once: an inbox item and an entry
// of the user's stream (numbered without gaps: the SSE id). Keys are in lib/db/keys.ts.
import { as, bool, type EntityOf, entity, nullable, num, numOr, str } from '../db/entity';

type Payload = Record<string, unknown>;

/** An item of the inbox: one event (or a stack of one stackable event) for one user. */
export const InboxItem = entity('inbox_item', {
  /** UUIDv7: items order by creation time. */
  itemId: str('item_id'),
  eventId: str('event_id'),
  eventName: str('event_name'),
  payload: as<Payload>('payload', {}),
  /** Events stacked in the item (1 when not stacked). */
  count: numOr('count', 1),
  timestamp: str('timestamp'),
  createdAt: str('created_at'),
  dismissible: bool('dismissible'),
  pinned: bool('pinned'),
  pinnedUntil: nullable(str('pinned_until')),
});
export type InboxItem = EntityOf<typeof InboxItem>;

/** An entry of the user's stream, kept STREAM_RETENTION_SECONDS for clients that reconnect. */
export const StreamEntry = entity('inbox_log', {
  seq: num('seq'),
  eventId: str('event_id'),
  eventName: str('event_name'),
  payload: as<Payload>('payload', {}),
  count: numOr('count', 1),
  itemId: str('item_id'),
  createdAt: str('created_at'),
  /** Epoch seconds after which the entry is gone (DynamoDB TTL removes it later). */
  ttl: numOr('ttl', Number.POSITIVE_INFINITY),
});
export type StreamEntry = EntityOf<typeof StreamEntry>;

/** An item is pinned while its pin has no end or the end is still ahead. */
export const currentlyPinned = (item: { pinned: boolean; pinnedUntil: string | null }, now: number): boolean =>
  item.pinned && (!item.pinnedUntil || Date.parse(item.pinnedUntil) > now);
