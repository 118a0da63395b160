// Events handed to the worker: by internal services (POST /nc-internal/events) and by users
// testing their notifications (POST /nc/events/test). Both are validated here, enqueued, and
// answered at once; the worker delivers them (lib/notifications/deliver.ts). Built from the
// publisher and the platform's users (lib/notifications/repository.ts wires the functions' own).
import type { Principal } from '../auth/principal';
import { Forbidden, Invalid } from '../errors';
import type { EventEnvelope } from '../events/publish';
import type { User } from '../platform/model';
import { describeIssues } from '../util/issues';
import { resolveEvent, STACKABLE_TEST_EVENT, TEST_EVENT } from './catalogue';
import { NotificationData } from './deliver';

export interface SendDeps {
  publish: (name: string, data: Record<string, unknown>, options: { id?: string }) => Promise<EventEnvelope>;
  users: (userIds: number[]) => Promise<Map<number, User>>;
  /** Which of these users the caller supervises. */
  supervised: (supervisorId: number, userIds: number[]) => Promise<Set<number>>;
}

export const EVENT_DATA_MAX_BYTES = 200 * 1024;

export function sendRules({ publish, users, supervised }: SendDeps) {
  /** An event this service sends itself, checked before it is queued. */
  async function sendEvent(eventName: string, data: Record<string, unknown>, eventId?: string): Promise<EventEnvelope> {
    const resolved = resolveEvent(eventName);
    if (!resolved.ok) throw new Invalid(resolved.reason);
    if (!resolved.definition.inbox)
      throw new Invalid(`${eventName} is the stream's keep-alive; it is not sent to users`);
    const parsed = NotificationData.safeParse(data);
    if (!parsed.success) throw new Invalid(`data: ${describeIssues(parsed.error.issues)}`);
    const payload = resolved.definition.payload.safeParse(parsed.data.payload);
    if (!payload.success) throw new Invalid(`data.payload of ${eventName}: ${describeIssues(payload.error.issues)}`);
    return publish(resolved.definition.name, { ...parsed.data, payload: payload.data }, { id: eventId });
  }

  return {
    sendEvent,

    /**
     * POST /nc-internal/events: any event name and data are handed to the worker (spec 3: "always
     * HTTP 200; the endpoint only hands the event to a worker"), which delivers what it knows and
     * drops the rest, logged (lib/notifications/deliver.ts). What cannot be an event at all (no
     * name, no data object, more than a queue message holds) is dropped here, and still answered 200.
     */
    async postEvent(
      event: { eventName: string; data: Record<string, unknown>; eventId?: string } | { malformed: string },
    ): Promise<{ queued: EventEnvelope } | { dropped: string; eventName: string | null }> {
      if ('malformed' in event) return { dropped: event.malformed, eventName: null };
      // a queue message holds 256 KB: an event must fit in it with its envelope
      if (Buffer.byteLength(JSON.stringify(event.data)) > EVENT_DATA_MAX_BYTES)
        return {
          dropped: `an event's data is at most ${EVENT_DATA_MAX_BYTES} bytes of JSON`,
          eventName: event.eventName,
        };
      return { queued: await publish(event.eventName, event.data, { id: event.eventId }) };
    },

    /**
     * TEST.V1 (STACKABLE_TEST.V1 when stackable) to users the caller may notify: itself, the
     * members of its workspace and the users it supervises.
     */
    async sendTestEvent(principal: Principal, userIds: number[], stackable: boolean): Promise<EventEnvelope> {
      const ids = [...new Set(userIds)];
      const found = await users(ids);
      const caller = principal.user;
      const supervisedIds = await supervised(caller.id, ids);
      // a user that does not exist and one the caller may not notify are one answer: nothing tells them apart
      const refused = ids.filter((id) => {
        if (id === caller.id) return false;
        const user = found.get(id);
        return !user || (user.spaceId !== caller.spaceId && !supervisedIds.has(id));
      });
      if (refused.length)
        throw new Forbidden(`the user cannot notify users ${refused.join(', ')} (not in its workspace nor supervised)`);
      return sendEvent(stackable ? STACKABLE_TEST_EVENT : TEST_EVENT, { user_ids: ids, payload: {} });
    },
  };
}
