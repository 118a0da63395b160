// The sensor bulk worker: S3 notifications of uploads under sensor-bulk/ (docs/sensors-storage.md).
import type { SQSEvent } from 'aws-lambda';
import { ingestBulkObject, objectKeysOf } from '../../lib/sensors/bulk';
import { processRecords } from '../../lib/workers/process';

export const handler = (event: SQSEvent) =>
  processRecords(event, async (record) => {
    for (const key of objectKeysOf(JSON.parse(record.body))) await ingestBulkObject(key);
  });
