// Delivery of an event to its users, in the queue worker. For each user, one transaction writes
// the inbox item (or merges it into the user's stack of that event), the next entry of the user's
// stream (numbered without gaps: the SSE id), the pending count and a delivery marker; so a
// redelivered event changes nothing, and a stream reader that sees entry n has seen every entry
// before it.
import { landing, pinnedAt } from './rules';
import { v7 as uuidV7 } from 'uuid';
import * as z from 'zod';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { batchGet, getItem, itemKey, transact, tx, NOT_EXISTS, EXISTS, type TxOp } from '../db/table';
import { Conflict } from '../errors';
import type { EventEnvelope } from '../events/publish';
import { log } from '../log';
import { describeIssues } from '../util/issues';
import { getUser } from '../platform/users';
import { mapLimit } from '../util/map-limit';
import { isoSeconds } from '../util/time';
import { resolveEvent, type EventDefinition } from './catalogue';

/** How long the stream keeps an event for a client that reconnects with Last-Event-ID. */
export const STREAM_RETENTION_SECONDS = 7 * 24 * 3600;
const DELIVERY_MARKER_SECONDS = 14 * 24 * 3600;

/** The `data` of a notification event (POST /nc-internal/events, docs/decisions.md). */
export const NotificationData = z.object({
  user_ids: z.array(z.number().int().positive()).min(1).max(1000),
  payload: z.record(z.string(), z.unknown()).default({}),
  pinned: z.boolean().default(false),
  pinned_until: z.iso.datetime({ offset: true }).nullable().default(null),
  dissmisible: z.boolean().default(true),
});
export type NotificationData = z.output<typeof NotificationData>;

const DUPLICATE = 'DUPLICATE';
const duplicate = () => new Conflict('event already delivered to this user', { code: DUPLICATE });
const race = () => new LostRace('the inbox changed meanwhile');

const ttl = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

/** Delivers one envelope of an inbox event to every user it names (each at most once). */
/**
 * Delivers an event to its users' inboxes. An event this service does not deliver (an unknown name
 * or version, PING.V1, data or a payload that is not the event's) is dropped and logged: it can
 * never succeed, so it is neither retried nor sent to the dead-letter queue.
 */
export async function deliverEnvelope(envelope: EventEnvelope): Promise<void> {
  const drop = (reason: string) => log.warn('event dropped: not delivered to any inbox', { eventId: envelope.id, event: envelope.event_name, reason });
  const resolved = resolveEvent(envelope.event_name);
  if (!resolved.ok) return drop(resolved.reason);
  if (!resolved.definition.inbox) return drop(`${envelope.event_name} is the stream's keep-alive`);
  const data = NotificationData.safeParse(envelope.data);
  if (!data.success) return drop(`data: ${describeIssues(data.error.issues)}`);
  const payload = resolved.definition.payload.safeParse(data.data.payload);
  if (!payload.success) return drop(`payload: ${describeIssues(payload.error.issues)}`);
  const failures: unknown[] = [];
  await mapLimit([...new Set(data.data.user_ids)], 4, async (userId) => {
    try {
      await deliverToUser(userId, resolved.definition, { ...data.data, payload: payload.data }, envelope.id);
    } catch (error) {
      failures.push(error);
    }
  });
  // A user that failed makes the whole record fail: SQS redelivers it and the users already
  // served are skipped by their delivery markers.
  if (failures.length) throw failures[0];
}

export async function deliverToUser(userId: number, definition: EventDefinition, data: NotificationData, eventId: string): Promise<'delivered' | 'duplicate' | 'no-user'> {
  if (!(await getUser(userId))) {
    log.warn('notification for a user that does not exist; skipped', { userId, eventId });
    return 'no-user';
  }
  try {
    await retryLostRace(async () => transact(await deliveryOps(userId, definition, data, eventId)));
    return 'delivered';
  } catch (error) {
    if (error instanceof Conflict && error.code === DUPLICATE) return 'duplicate';
    throw error;
  }
}

async function deliveryOps(userId: number, definition: EventDefinition, data: NotificationData, eventId: string): Promise<TxOp[]> {
  const stateKey = keys.inboxState(userId);
  const stackKey = keys.inboxStack(userId, definition.name);
  const found = await batchGet([stateKey, ...(definition.stackable ? [stackKey] : [])]);
  const state = found.get(itemKey(stateKey));
  const stack = found.get(itemKey(stackKey));
  const stacked = stack ? await getItem(keys.inboxItem(userId, String(stack.item_id))) : undefined;
  const seq = Number(state?.seq ?? 0);
  const next = seq + 1;
  const { count, pendingDelta } = landing(stacked);
  const itemId = uuidV7();
  const now = new Date();
  const pinned = pinnedAt(data, now);

  const ops: TxOp[] = [
    // first, so that a redelivery is recognised before anything else is compared
    tx.put({ ...keys.inboxDelivery(userId, eventId), kind: 'inbox_delivery', item_id: itemId, ttl: ttl(DELIVERY_MARKER_SECONDS) }, NOT_EXISTS, duplicate),
    state
      ? tx.update(stateKey, { expression: 'SET seq = :next ADD pending :delta', condition: 'seq = :seq', values: { ':next': next, ':seq': seq, ':delta': pendingDelta } }, race)
      : tx.put({ ...stateKey, kind: 'inbox_state', user_id: userId, seq: next, pending: 1 }, NOT_EXISTS, race),
    tx.put(
      {
        ...keys.inboxLog(userId, next),
        kind: 'inbox_log',
        seq: next,
        event_id: eventId,
        event_name: definition.name,
        payload: data.payload,
        count,
        item_id: itemId,
        created_at: now.toISOString(),
        ttl: ttl(STREAM_RETENTION_SECONDS),
      },
      NOT_EXISTS,
      race,
    ),
    tx.put(
      {
        ...keys.inboxItem(userId, itemId),
        kind: 'inbox_item',
        item_id: itemId,
        event_id: eventId,
        event_name: definition.name,
        payload: data.payload,
        count,
        timestamp: isoSeconds(now),
        created_at: now.toISOString(),
        dismissible: data.dissmisible,
        pinned,
        pinned_until: pinned ? data.pinned_until : null,
      },
      NOT_EXISTS,
      race,
    ),
  ];
  if (pinned) ops.push(tx.put({ ...keys.inboxPin(userId, itemId), kind: 'inbox_pin', item_id: itemId, pinned_until: data.pinned_until }));
  if (definition.stackable) {
    // The stack moves to the new item (on top of the inbox); the item it replaces goes.
    const pointer = { ...stackKey, kind: 'inbox_stack', item_id: itemId };
    if (stack) ops.push(tx.put(pointer, 'item_id = :old', race, { ':old': stack.item_id }));
    else ops.push(tx.put(pointer, NOT_EXISTS, race));
    if (stacked) {
      ops.push(tx.delete(keys.inboxItem(userId, String(stacked.item_id)), EXISTS, race));
      if (stacked.pinned) ops.push(tx.delete(keys.inboxPin(userId, String(stacked.item_id))));
    }
  }
  return ops;
}
