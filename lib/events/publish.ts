// Puts events and internal jobs on the events queue; the worker (functions/workers/events.ts)
// consumes them. The envelope carries an id so that redelivered messages are processed once.
import { sqsKit } from '../aws/sqs';
import { config } from '../config';
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
  /** The queue (the events queue by default; imagery jobs go to the imagery queue). */
  queue?: 'events' | 'imagery' | 'webhooks' | 'webhooksDeadLetter';
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

export const queueUrl = (queue: PublishOptions['queue']): string =>
  queue === 'imagery'
    ? config().imageryQueueUrl
    : queue === 'webhooks'
      ? config().webhookQueueUrl
      : queue === 'webhooksDeadLetter'
        ? config().webhookDeadLetterQueueUrl
        : config().eventsQueueUrl;

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
