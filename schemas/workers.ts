// Queue workers: the functions fed by SQS. Messages are the jobs and events of lib/workers/process
// (envelopes `{name, id, data}`) and the S3 notifications of bulk sensor uploads.
import type { AuthorizerDef } from '../lib/http/route';
import { defineWorker } from '../lib/http/route';

/** The API's Lambda authorizer (docs/integrations.md "Rate limits"): verifies the token and
 *  names the usage-plan key of the caller's extension; it writes an extension's key item once. */
export const apiAuthorizer: AuthorizerDef = {
  name: 'apiAuthorizer',
  summary: "Verifies the token and names the caller's usage-plan key",
  handler: 'functions/system/authorizer.handler',
  touches: { table: 'write' },
  lambda: { timeout: 6, memorySize: 256 },
};

/** Internal jobs (field and spot clean-up, shape reprocessing, released files) and the events of
 *  POST /nc-internal/events, /nc/events/test and shares, delivered to inboxes. */
export const eventsWorker = defineWorker({
  name: 'eventsWorker',
  summary: 'Internal jobs and notification events',
  handler: 'functions/workers/events.handler',
  queue: 'events',
  batchSize: 10,
  maximumBatchingWindow: 0,
  touches: {
    table: 'write',
    sends: ['events', 'imagery', 'webhooks'],
    files: { 'spots/': ['delete'], 'storage/': ['delete'], 'imagery/': ['delete'] },
  },
  lambda: { timeout: 30 },
});

/** Webhook deliveries: one event to one subscription per message (docs/integrations.md). */
export const webhookWorker = defineWorker({
  name: 'webhookWorker',
  summary: 'Webhook deliveries',
  handler: 'functions/workers/webhooks.handler',
  queue: 'webhooks',
  batchSize: 1,
  concurrency: 4,
  touches: { table: 'write', sends: ['webhooks', 'webhooksDeadLetter'] },
  lambda: { timeout: 40 },
});

/** Bulk sensor uploads: one S3 object per message (docs/sensors-storage.md). */
export const sensorBulkWorker = defineWorker({
  name: 'sensorBulkWorker',
  summary: 'Bulk sensor value uploads',
  handler: 'functions/workers/sensor-bulk.handler',
  queue: 'sensorBulk',
  batchSize: 1,
  touches: { table: 'write', files: { 'sensor-bulk/': ['get', 'delete'] } },
  lambda: { timeout: 300, memorySize: 2048 },
});

/** Satellite imagery: field jobs (find the scenes) and scene jobs (cut and store one; docs/imagery.md). */
export const imageryWorker = defineWorker({
  name: 'imageryWorker',
  summary: 'Satellite imagery ingestion',
  handler: 'functions/workers/imagery.handler',
  queue: 'imagery',
  batchSize: 1,
  // scenes are read over the network: several at once (and a burst of new fields does not make a
  // season shape's lock wait behind every other field's scenes for long)
  concurrency: 4,
  touches: {
    table: 'write',
    sends: ['imagery', 'events'],
    files: { 'imagery/': ['get', 'put', 'delete'], 'uploads/': ['get'] },
  },
  lambda: { timeout: 120, memorySize: 1024 },
});

/** Once a day, a field job for every field: new scenes, and fields whose first job was lost. */
export const imageryDaily = defineWorker({
  name: 'imageryDaily',
  summary: 'Daily imagery schedule',
  handler: 'functions/workers/imagery-daily.handler',
  schedule: 'rate(1 day)',
  touches: { table: 'read', sends: ['imagery'] },
  lambda: { timeout: 900 },
});
