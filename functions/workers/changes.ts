// The changes worker (docs/integrations.md "Change feed"): the table's stream, in batches, into the
// feeds of the users who read each changed record. A batch that fails is retried by the event
// source (bisected, so one bad record is isolated) and, past its retries, recorded on the changes
// dead-letter queue; a retried batch may write a change twice (a client applies an entry whose
// rev it already has as nothing).
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamChange } from '../../lib/changes/classify';
import { appendChanges, streamChangeOf } from '../../lib/changes/repository';
import { log } from '../../lib/log';

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  const records = event.Records.map(streamChangeOf).filter((r): r is StreamChange => r !== undefined);
  const written = await appendChanges(records);
  log.debug('changes written', { records: event.Records.length, entries: written });
};
