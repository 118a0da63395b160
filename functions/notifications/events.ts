// POST /nc/events/test and POST /nc-internal/events (spec 3, Notifications): both hand the event
// to the queue worker and answer at once.
import { endpoint } from '../../lib/http/endpoint';
import { notificationEvents } from '../../lib/notifications/repository';
import { internalEventRoute, testEventRoute } from '../../schemas/notifications';

const accepted = (envelope: { id: string; event_name: string }) => ({
  res: 'ok' as const,
  info: 'event queued',
  data: { event_id: envelope.id, event_name: envelope.event_name },
});

export const test = endpoint(testEventRoute, {
  handler: async ({ body, principal }) =>
    accepted(await notificationEvents.sendTestEvent(principal, body.user_ids, body.stackable ?? false)),
});

export const internal = endpoint(internalEventRoute, {
  handler: async ({ body }) => accepted(await notificationEvents.postEvent(body.event_name, body.data, body.event_id)),
});
