// The webhook delivery worker (docs/integrations.md): one attempt of one delivery per message. A failed
// attempt queues the next as a new message delayed by its backoff (1, 2, 4, 8 x
// SURCO_WEBHOOK_BACKOFF_S, at most SQS's 15 minutes); after the last, the delivery goes to the
// dead-letter queue. A delivery that finds its subscription's slots all held (docs/integrations.md,
// concurrency) is queued again a few seconds later, as the same attempt. Either way this message is done.
import type { SQSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { publishEvent } from '../../lib/events/publish';
import type { DeliveryJob } from '../../lib/webhooks/model';
import { WEBHOOK_DELIVERY_JOB, webhooks } from '../../lib/webhooks/repository';
import { DeliveryFailed, SubscriptionBusy } from '../../lib/webhooks/service';
import { PoisonMessage, processRecords } from '../../lib/workers/process';
import { QueuedWebhookEvent } from '../../schemas/webhooks';

/** SQS delays a message at most 15 minutes. */
const MAX_DELAY_S = 900;

const Job = z.object({
  delivery_id: z.string().check(z.minLength(1)),
  subscription_uuid: z.string().check(z.minLength(1)),
  user_id: z.number().check(z.int(), z.positive()),
  extension_id: z.string(),
  attempt: z.optional(z.number().check(z.int(), z.positive())),
  event: QueuedWebhookEvent,
});
const Envelope = z.object({ data: Job });

export const handler = (event: SQSEvent) =>
  processRecords(event, async (record) => {
    let parsed;
    try {
      parsed = Envelope.safeParse(JSON.parse(record.body));
    } catch {
      throw new PoisonMessage(`message ${record.messageId} is not JSON`);
    }
    if (!parsed.success) throw new PoisonMessage(`message ${record.messageId} is not a webhook delivery`);
    const job = parsed.data.data as DeliveryJob;
    const attempt = job.attempt ?? 1;
    /** This delivery as a new message: the attempt it will make, on which queue, after what delay. */
    const queueAgain = (next: number, options: { queue: 'webhooks' | 'webhooksDeadLetter'; delaySeconds?: number }) =>
      publishEvent(WEBHOOK_DELIVERY_JOB, { ...job, attempt: next } as unknown as Record<string, unknown>, options);
    try {
      await webhooks.deliver(job, attempt);
    } catch (error) {
      if (error instanceof SubscriptionBusy)
        await queueAgain(attempt, { queue: 'webhooks', delaySeconds: error.retryInSeconds });
      else if (!(error instanceof DeliveryFailed)) throw error;
      else if (error.final) await queueAgain(attempt, { queue: 'webhooksDeadLetter' });
      else
        await queueAgain(attempt + 1, { queue: 'webhooks', delaySeconds: Math.min(MAX_DELAY_S, error.retryInSeconds) });
    }
  });
