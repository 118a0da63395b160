// Queue workers: the functions fed by SQS. Messages are the jobs and events of lib/workers/process
// (envelopes `{name, id, data}`) and the S3 notifications of bulk sensor uploads.
import { FEED_PARTITIONS } from '../lib/changes/model';
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
    sends: ['events', 'imageryUrgent', 'webhooks'],
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

const imageryTouches = {
  table: 'write',
  sends: ['imagery', 'imageryBulk', 'events'],
  files: { 'imagery/': ['get', 'put', 'delete'], 'uploads/': ['get'] },
} as const;

/**
 * Satellite imagery, the backfill lane (docs/imagery.md, "Lanes"): field jobs (find the scenes of
 * the period) and scene jobs (cut and store one), newest first; the daily schedule's jobs.
 */
export const imageryWorker = defineWorker({
  name: 'imageryWorker',
  summary: 'Satellite imagery ingestion: the backfill lane',
  handler: 'functions/workers/imagery.handler',
  queue: 'imagery',
  batchSize: 1,
  // scenes are read over the network: several at once
  concurrency: 4,
  touches: imageryTouches,
  lambda: { timeout: 120, memorySize: 1024 },
});

/**
 * The urgent lane: what a user waits for (a new field's newest scene, a new shape's, layers from
 * files and samplings). Its own event source mapping and concurrency: backfill never holds it.
 */
export const imageryUrgentWorker = defineWorker({
  name: 'imageryUrgentWorker',
  summary: 'Satellite imagery ingestion: the urgent lane',
  handler: 'functions/workers/imagery.handler',
  queue: 'imageryUrgent',
  batchSize: 1,
  concurrency: 4,
  touches: imageryTouches,
  lambda: { timeout: 120, memorySize: 1024 },
});

/** The bulk lane: the newest scenes of a tenant's new fields past its urgent share. */
export const imageryBulkWorker = defineWorker({
  name: 'imageryBulkWorker',
  summary: 'Satellite imagery ingestion: the bulk lane',
  handler: 'functions/workers/imagery.handler',
  queue: 'imageryBulk',
  batchSize: 1,
  // the least an event source mapping allows
  concurrency: 2,
  touches: imageryTouches,
  lambda: { timeout: 120, memorySize: 1024 },
});

/** Once a day, a tile job for the fields of every Sentinel-2 tile: new scenes, and fields whose first job was lost (docs/imagery.md, "Tiles"). */
export const imageryDaily = defineWorker({
  name: 'imageryDaily',
  summary: 'Daily imagery schedule',
  handler: 'functions/workers/imagery-daily.handler',
  schedule: 'rate(1 day)',
  touches: { table: 'read', sends: ['imagery'] },
  lambda: { timeout: 900 },
});

/**
 * The change feed (docs/integrations.md "Change feed"): the table's stream into the feeds of the
 * users who read each changed record, and the webhook events of records (fields, spots, labours,
 * work orders) fanned out to the same users' subscriptions from the same changes, so that both tell
 * the same changes to the same people.
 */
export const changesWorker = defineWorker({
  name: 'changesWorker',
  summary: "The table's change stream into the users' change feeds, and its records' webhook events",
  handler: 'functions/workers/changes.handler',
  tableStream: { partitions: FEED_PARTITIONS, deadLetter: 'changesDeadLetter', retries: 5 },
  batchSize: 100,
  maximumBatchingWindow: 0,
  // webhook events of records: one delivery job per subscription, on the webhooks queue
  touches: { table: 'write', sends: ['webhooks'] },
  lambda: { timeout: 60 },
});
