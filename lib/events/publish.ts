// Puts events and internal jobs on the events queue; the worker (functions/workers/events.ts)
// consumes them. The envelope carries an id so that redelivered messages are processed once.
import { sqsKit } from '../aws/sqs';
import { type Config, config } from '../config';
import { newUuid } from '../util/uuid';

export interface EventEnvelope {
  id: string;
  event_name: string;
  data: Record<string, unknown>;
  created_at: string;
}

export interface PublishOptions {
  /** Event id (the worker processes an id once); random by default. */
  id?: string;
  /** Seconds before the worker may receive it (SQS DelaySeconds, at most 900). */
  delaySeconds?: number;
  /** The queue (the events queue by default; imagery jobs go to one of the imagery lanes). */
  queue?: 'events' | 'imagery' | 'imageryUrgent' | 'imageryBulk' | 'webhooks' | 'webhooksDeadLetter';
}

export const envelopeOf = (
  eventName: string,
  data: Record<string, unknown>,
  id: string = newUuid(),
): EventEnvelope => ({
  id,
  event_name: eventName,
  data,
  created_at: new Date().toISOString(),
});

const QUEUE_URLS = {
  events: (c) => c.eventsQueueUrl,
  imagery: (c) => c.imageryQueueUrl,
  imageryUrgent: (c) => c.imageryUrgentQueueUrl,
  imageryBulk: (c) => c.imageryBulkQueueUrl,
  webhooks: (c) => c.webhookQueueUrl,
  webhooksDeadLetter: (c) => c.webhookDeadLetterQueueUrl,
} satisfies Record<NonNullable<PublishOptions['queue']>, (c: Config) => string>;

export const queueUrl = (queue: PublishOptions['queue']): string => QUEUE_URLS[queue ?? 'events'](config());

export async function publishEvent(
  eventName: string,
  data: Record<string, unknown>,
  options: PublishOptions = {},
): Promise<EventEnvelope> {
  const envelope = envelopeOf(eventName, data, options.id);
  const { sqs, SendMessageCommand } = await sqsKit();
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueUrl(options.queue),
      MessageBody: JSON.stringify(envelope),
      ...(options.delaySeconds ? { DelaySeconds: options.delaySeconds } : {}),
    }),
  );
  return envelope;
}
