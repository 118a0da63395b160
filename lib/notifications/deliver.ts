// Delivery of an event to its users, in the queue worker. For each user, one transaction writes
// the inbox item (or merges it into the user's stack of that event), the next entry of the user's
// stream (numbered without gaps: the SSE id), the pending count and a delivery marker; so a
// redelivered event changes nothing, and a stream reader that sees entry n has seen every entry
// before it.
import * as z from 'zod/mini';
import { retryLostRace } from '../db/retry';
import { Conflict } from '../errors';
import type { EventEnvelope } from '../events/publish';
import { log } from '../log';
import { describeIssues } from '../util/issues';
import { mapLimit } from '../util/map-limit';
import { isoSeconds } from '../util/time';
import { newUuidV7 } from '../util/uuid';
import { type EventDefinition, resolveEvent } from './catalogue';
import { landing, pinnedAt } from './rules';
import type { Delivery, NotificationDeps } from './service';

/** How long the stream keeps an event for a client that reconnects with Last-Event-ID. */
export const STREAM_RETENTION_SECONDS = 7 * 24 * 3600;
/** How long a delivery marker makes a redelivered event harmless. */
export const DELIVERY_MARKER_SECONDS = 14 * 24 * 3600;

/** The `data` of a notification event (POST /nc-internal/events, docs/decisions.md). */
export const NotificationData = z.object({
  user_ids: z.array(z.number().check(z.int(), z.positive())).check(z.minLength(1), z.maxLength(1000)),
  payload: z._default(z.record(z.string(), z.unknown()), {}),
  pinned: z._default(z.boolean(), false),
  pinned_until: z._default(z.nullable(z.iso.datetime({ offset: true })), null),
  dissmisible: z._default(z.boolean(), true),
});
export type NotificationData = z.output<typeof NotificationData>;

const DUPLICATE = 'DUPLICATE';
const duplicate = () => new Conflict('event already delivered to this user', { code: DUPLICATE });

export function deliveryRules({ repository, users, now = () => new Date(), newItemId = newUuidV7 }: NotificationDeps) {
  /** The writes of one event landing in a user's inbox, from the inbox as it is now. */
  async function delivery(
    userId: number,
    definition: EventDefinition,
    data: NotificationData,
    eventId: string,
  ): Promise<Delivery> {
    const [state, stacks] = await Promise.all([
      repository.state(userId),
      definition.stackable ? repository.stacks(userId, [definition.name]) : new Map<string, string>(),
    ]);
    const stackedId = stacks.get(definition.name);
    const stacked = stackedId ? await repository.item(userId, stackedId) : undefined;
    const seqRead = state ? state.seq : null;
    const { count, pendingDelta } = landing(stacked);
    const itemId = newItemId();
    const at = now();
    const pinned = pinnedAt(data, at);
    return {
      userId,
      eventId,
      seqRead,
      pendingDelta,
      item: {
        itemId,
        eventId,
        eventName: definition.name,
        payload: data.payload,
        count,
        timestamp: isoSeconds(at),
        createdAt: at.toISOString(),
        dismissible: data.dissmisible,
        pinned,
        pinnedUntil: pinned ? data.pinned_until : null,
      },
      entry: {
        seq: (seqRead ?? 0) + 1,
        eventId,
        eventName: definition.name,
        payload: data.payload,
        count,
        itemId,
        createdAt: at.toISOString(),
        ttl: Math.floor(at.getTime() / 1000) + STREAM_RETENTION_SECONDS,
      },
      // The stack moves to the new item (on top of the inbox); the item it replaces goes.
      ...(definition.stackable ? { stack: { from: stackedId }, replaced: stacked } : {}),
    };
  }

  async function deliverToUser(
    userId: number,
    definition: EventDefinition,
    data: NotificationData,
    eventId: string,
  ): Promise<'delivered' | 'duplicate' | 'no-user'> {
    if (!(await users(userId))) {
      log.warn('notification for a user that does not exist; skipped', { userId, eventId });
      return 'no-user';
    }
    try {
      await retryLostRace(async () => repository.deliver(await delivery(userId, definition, data, eventId), duplicate));
      return 'delivered';
    } catch (error) {
      if (error instanceof Conflict && error.code === DUPLICATE) return 'duplicate';
      throw error;
    }
  }

  return {
    deliverToUser,

    /**
     * Delivers an event to its users' inboxes. An event this service does not deliver (an unknown name
     * or version, PING.V1, data or a payload that is not the event's) is dropped and logged: it can
     * never succeed, so it is neither retried nor sent to the dead-letter queue.
     */
    async deliverEnvelope(envelope: EventEnvelope): Promise<void> {
      const drop = (reason: string) =>
        log.warn('event dropped: not delivered to any inbox', {
          eventId: envelope.id,
          event: envelope.event_name,
          reason,
        });
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
    },
  };
}
