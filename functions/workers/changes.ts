// The changes worker (docs/integrations.md "Change feed"): the table's stream, in batches, into the
// feeds of the users who read each changed record. A batch that fails stops at the first record not
// written and reports it (ReportBatchItemFailures): the event source retries from there, bisecting
// on repeated failure, and past its retries records the batch on the changes dead-letter queue.
// Delivery is at least once (a client applies an entry whose rev it already has as nothing).
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamChange } from '../../lib/changes/classify';
import { appendChanges, streamChangeOf } from '../../lib/changes/repository';
import { log } from '../../lib/log';

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const records = event.Records.map(streamChangeOf).filter((r): r is StreamChange => r !== undefined);
  const outcome = await appendChanges(records);
  if (outcome.failedAt === undefined) {
    log.debug('changes written', { records: event.Records.length, entries: outcome.entries });
    return { batchItemFailures: [] };
  }
  const failed = records[outcome.failedAt]!;
  log.error('changes not written; the batch is retried from the first record not done', {
    sequence: failed.sequence,
    entries: outcome.entries,
    error: outcome.error,
  });
  if (!failed.sequence) throw outcome.error;
  return { batchItemFailures: [{ itemIdentifier: failed.sequence }] };
};
