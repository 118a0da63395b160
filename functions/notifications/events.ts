// POST /nc/events/test and POST /nc-internal/events (spec 3, Notifications): both hand the event
// to the queue worker and answer at once.
import { UnreadableBody } from '../../lib/http/body';
import { endpoint } from '../../lib/http/endpoint';
import { notificationEvents } from '../../lib/notifications/repository';
import { describeIssues } from '../../lib/util/issues';
import { InternalEventBody, internalEventRoute, testEventRoute } from '../../schemas/notifications';

const accepted = (envelope: { id: string; event_name: string }) => ({
  res: 'ok' as const,
  info: 'event queued' as const,
  data: { event_id: envelope.id, event_name: envelope.event_name },
});

export const test = endpoint(testEventRoute, {
  handler: async ({ body, principal }) =>
    accepted(await notificationEvents.sendTestEvent(principal, body.user_ids, body.stackable ?? false)),
});

// Spec 3: "always HTTP 200". The body is read here rather than refused: what is not an event (a body
// that is not even JSON included) is dropped, logged, and answered 200 all the same (docs/decisions.md,
// Notifications).
export const internal = endpoint(internalEventRoute, {
  handler: async ({ body, log }) => {
    const raw: unknown = body;
    const parsed = raw instanceof UnreadableBody ? raw : InternalEventBody.safeParse(raw);
    const outcome = await notificationEvents.postEvent(
      parsed instanceof UnreadableBody
        ? { malformed: parsed.reason }
        : parsed.success
          ? { eventName: parsed.data.event_name, data: parsed.data.data, eventId: parsed.data.event_id }
          : { malformed: describeIssues(parsed.error.issues) },
    );
    if ('queued' in outcome) return accepted(outcome.queued);
    log.warn('internal event dropped', { reason: outcome.dropped });
    return {
      res: 'ok',
      info: 'event dropped',
      detail: outcome.dropped,
      data: { event_id: null, event_name: outcome.eventName },
    };
  },
});
