// The changes worker (docs/integrations.md "Change feed"): the table's stream, in batches, into the
// feeds of the users who read each changed record, and the webhook events of those records (fields
// created and deleted, spots, labours, work orders) to the same users' subscriptions. A batch that
// fails stops at the first record not done and reports it (ReportBatchItemFailures): the event
// source retries from there, bisecting on repeated failure, and past its retries records the batch
// on the changes dead-letter queue. Delivery is at least once (a client applies an entry whose rev
// it already has as nothing; a webhook event handled again makes the same deliveries).
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamChange } from '../../lib/changes/classify';
import { type AppendOutcome, appendChanges, streamChangeOf } from '../../lib/changes/repository';
import { log } from '../../lib/log';
import type { WebhookEvent } from '../../lib/webhooks/model';
import { recordEvent } from '../../lib/webhooks/record-events';
import { webhooks } from '../../lib/webhooks/repository';

/** What the worker does with a batch: write the feeds (lib/changes/repository.ts), fan the events out. */
export interface ChangesWorkerDeps {
  appendChanges: (records: StreamChange[]) => Promise<AppendOutcome>;
  fanOutAll: (events: WebhookEvent[]) => Promise<number>;
}

/** The worker over its dependencies (unit tests give them in memory). */
export const changesWorker =
  (deps: ChangesWorkerDeps) =>
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const records = event.Records.map(streamChangeOf).filter((r): r is StreamChange => r !== undefined);
    const outcome = await deps.appendChanges(records);
    let { failedAt, error } = outcome;
    // the webhook events of what the feeds took (what follows a failure comes again with the retry)
    const events = outcome.written.flatMap(({ change, readers }) => {
      const found = readers.length ? recordEvent(change, readers) : undefined;
      return found ? [{ event: found, source: change.source ?? 0 }] : [];
    });
    let deliveries = 0;
    if (events.length) {
      try {
        deliveries = await deps.fanOutAll(events.map((e) => e.event));
      } catch (caught) {
        // retried from the first record with an event (before any record not written, as every event
        // is of a written one): its feed entries may be written twice (at least once)
        failedAt = events[0]!.source;
        error = caught;
      }
    }
    if (failedAt === undefined) {
      log.debug('changes written', { records: event.Records.length, entries: outcome.entries, deliveries });
      return { batchItemFailures: [] };
    }
    const failed = records[failedAt]!;
    log.error(
      outcome.failedAt === failedAt
        ? 'changes not written; the batch is retried from the first record not done'
        : 'webhook events not fanned out; the batch is retried from the first record with one',
      { sequence: failed.sequence, entries: outcome.entries, error },
    );
    if (!failed.sequence) throw error;
    return { batchItemFailures: [{ itemIdentifier: failed.sequence }] };
  };

export const handler = changesWorker({ appendChanges, fanOutAll: (events) => webhooks.fanOutAll(events) });
