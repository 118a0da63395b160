// Many events of one name at once (imagery jobs, webhook deliveries): SQS batches of ten, with the
// envelope and queue of publish.ts.
import { sqsKit } from '../aws/sqs';
import { envelopeOf, type PublishOptions, queueUrl } from './publish';

/** SQS takes at most ten messages a request. */
const SEND_BATCH = 10;

/** One event per item of `data`, ten to a request; throws when the queue refuses any. */
export async function publishEvents(
  eventName: string,
  data: readonly object[],
  options: Pick<PublishOptions, 'queue'> = {},
): Promise<void> {
  const { sqs, SendMessageBatchCommand } = await sqsKit();
  for (let i = 0; i < data.length; i += SEND_BATCH) {
    const batch = data.slice(i, i + SEND_BATCH);
    const out = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(options.queue),
        Entries: batch.map((item, n) => ({
          Id: String(n),
          MessageBody: JSON.stringify(envelopeOf(eventName, item as Record<string, unknown>)),
        })),
      }),
    );
    if (out.Failed?.length)
      throw new Error(
        `the ${options.queue ?? 'events'} queue refused ${out.Failed.length} of ${batch.length} messages`,
      );
  }
}
