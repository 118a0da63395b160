// Queue workers: the functions fed by SQS. Messages are the jobs and events of lib/worker/process
// (envelopes `{name, id, data}`) and the S3 notifications of bulk sensor uploads.
import { defineWorker } from '../lib/http/route';

/** Internal jobs (field and spot clean-up, shape reprocessing, released files) and the events of
 *  POST /nc-internal/events, /nc/events/test and shares, delivered to inboxes. */
export const eventsWorker = defineWorker({
  name: 'eventsWorker',
  summary: 'Internal jobs and notification events',
  handler: 'functions/worker/events.handler',
  queue: 'events',
  batchSize: 10,
  maximumBatchingWindow: 0,
  touches: { table: 'write', sends: ['events'], files: { 'spots/': ['delete'], 'storage/': ['delete'] } },
  lambda: { timeout: 30 },
});

/** Bulk sensor uploads: one S3 object per message (docs/sensors-storage.md). */
export const sensorBulkWorker = defineWorker({
  name: 'sensorBulkWorker',
  summary: 'Bulk sensor value uploads',
  handler: 'functions/worker/sensor-bulk.handler',
  queue: 'sensorBulk',
  batchSize: 1,
  touches: { table: 'write', files: { 'sensor-bulk/': ['get', 'delete'] } },
  lambda: { timeout: 300, memorySize: 2048 },
});
