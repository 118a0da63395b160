// Emitting an event of a process for webhooks (docs/integrations.md: a reshape, an imagery date, a
// herd transaction) from the operation that causes it, after its commit: one message on the events
// queue, which the events worker fans out to the subscriptions of the event's users. Events of
// records come from the table's stream instead (lib/webhooks/record-events.ts). A module of its
// own, so that the operations bundle only this. An emission that fails is logged, not retried and
// does not fail the operation: webhooks are a notice, the API stays the truth.
import { publishEvent } from '../events/publish';
import { log } from '../log';
import { newUuid } from '../util/uuid';
import { eventId, type WebhookEvent, type WebhookEventName } from './model';

/** An operation's event for webhooks, on the events queue. */
export const WEBHOOK_EVENT_JOB = 'WEBHOOK_EVENT.V1';

export interface EmittedEvent {
  /** The users the event concerns (the record's owner, the user who acted). */
  userIds: number[];
  /** The field it is about: a subscription receives it only while its user reads the field. */
  fieldId?: number;
  data: Record<string, unknown>;
}

export type WebhookEmitter = (name: WebhookEventName, event: EmittedEvent) => Promise<void>;

/** A new event's id (ids sort by time, lib/webhooks/model.ts). */
export const newEventId = (at = Date.now()): string => eventId(at, newUuid().replace(/-/g, '').slice(0, 16));

export const emitWebhookEvent: WebhookEmitter = async (name, event) => {
  const payload: WebhookEvent = {
    id: newEventId(),
    name,
    user_ids: [...new Set(event.userIds)],
    ...(event.fieldId !== undefined ? { field_id: event.fieldId } : {}),
    occurred_at: new Date().toISOString(),
    data: event.data,
  };
  await publishEvent(WEBHOOK_EVENT_JOB, payload as unknown as Record<string, unknown>).catch((error: unknown) =>
    log.warn('webhook event not emitted', { event: name, error }),
  );
};
