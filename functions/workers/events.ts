// The events queue worker: internal jobs and events posted to /nc-internal/events.
import type { SQSEvent } from 'aws-lambda';
import { FIELD_DELETED_JOB } from '../../lib/fields/jobs';
import { INBOX_EVENTS } from '../../lib/notifications/catalogue';
import { notifications } from '../../lib/notifications/repository';
import { SHAPE_REPROCESS_JOB } from '../../lib/season-shapes/jobs';
import { SPOT_DELETED_JOB } from '../../lib/spots/jobs';
import { OBJECT_RELEASED_JOB } from '../../lib/storage/files';
import { onFirstUse } from '../../lib/util/first-use';
import type { WebhookEvent } from '../../lib/webhooks/model';
import { WEBHOOK_EVENT_JOB, webhooks } from '../../lib/webhooks/repository';
import { type EventHandler, jobOf, processBatch } from '../../lib/workers/process';
import {
  FieldDeletedJob,
  FieldShareEvent,
  ObjectReleasedJob,
  ShapeReprocessJob,
  SpotDeletedJob,
} from '../../schemas/jobs';
import { QueuedWebhookEvent } from '../../schemas/webhooks';

/** The jobs on files and rasters (S3, proj4), loaded when the first of them arrives. */
const cleanupJobs = /* @__PURE__ */ onFirstUse(() => import('../../lib/workers/cleanup-jobs'));

const handlers: Record<string, EventHandler> = {
  // Notifications (POST /nc-internal/events, POST /nc/events/test, FIELD_SHARE.V1 from shares)
  ...Object.fromEntries(INBOX_EVENTS.map((name) => [name, notifications.deliverEnvelope])),
  [FIELD_DELETED_JOB]: jobOf(FieldDeletedJob, async (job) => {
    await (await cleanupJobs()).cleanUpDeletedField(job.field_id, job.farm_id);
  }),
  [SPOT_DELETED_JOB]: jobOf(SpotDeletedJob, async (job) => {
    await (await cleanupJobs()).purgeSpotContents(job.spot_id);
  }),
  [OBJECT_RELEASED_JOB]: jobOf(ObjectReleasedJob, async (job) => {
    await (await cleanupJobs()).deleteObjects(job.object_keys.filter((key) => key.startsWith('storage/')));
  }),
  // An operation's event for webhooks: one delivery job per subscription that takes it
  [WEBHOOK_EVENT_JOB]: jobOf(QueuedWebhookEvent, async (event) => {
    await webhooks.fanOut(event as WebhookEvent);
  }),
  // A share is an inbox notice and, for webhooks, SHARE_RECEIVED.V1 to the users it was shared with
  'FIELD_SHARE.V1': jobOf(FieldShareEvent, async (share, envelope) => {
    await notifications.deliverEnvelope(envelope);
    await webhooks.fanOut({
      id: envelope.id,
      name: 'SHARE_RECEIVED.V1',
      user_ids: (share.user_ids ?? []).map(Number).filter(Number.isInteger),
      occurred_at: envelope.created_at,
      data: share.payload ?? {},
    });
  }),
  [SHAPE_REPROCESS_JOB]: jobOf(ShapeReprocessJob, async (job) => {
    await (await cleanupJobs()).reprocessShape(job);
  }),
};

// Any other name was posted to /nc-internal/events: delivery decides (unknown names are dropped and logged).
export const handler = (event: SQSEvent) => processBatch(event, handlers, notifications.deliverEnvelope);
