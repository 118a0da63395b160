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
import { type EventHandler, PoisonMessage, processBatch } from '../../lib/workers/process';
import { QueuedWebhookEvent } from '../../schemas/webhooks';

/** The jobs on files and rasters (S3, proj4), loaded when the first of them arrives. */
const cleanupJobs = /* @__PURE__ */ onFirstUse(() => import('../../lib/workers/cleanup-jobs'));

const handlers: Record<string, EventHandler> = {
  // Notifications (POST /nc-internal/events, POST /nc/events/test, FIELD_SHARE.V1 from shares)
  ...Object.fromEntries(INBOX_EVENTS.map((name) => [name, notifications.deliverEnvelope])),
  [FIELD_DELETED_JOB]: async (envelope) => {
    await (await cleanupJobs()).cleanUpDeletedField(Number(envelope.data.field_id));
  },
  [SPOT_DELETED_JOB]: async (envelope) => {
    await (await cleanupJobs()).purgeSpotContents(Number(envelope.data.spot_id));
  },
  [OBJECT_RELEASED_JOB]: async (envelope) => {
    await (await cleanupJobs()).deleteObjects(
      (envelope.data.object_keys as string[]).filter((key) => key.startsWith('storage/')),
    );
  },
  // An operation's event for webhooks: one delivery job per subscription that takes it
  [WEBHOOK_EVENT_JOB]: async (envelope) => {
    const event = QueuedWebhookEvent.safeParse(envelope.data);
    if (!event.success) throw new PoisonMessage(`malformed webhook event ${envelope.id}`);
    await webhooks.fanOut(event.data as WebhookEvent);
  },
  // A share is an inbox notice and, for webhooks, SHARE_RECEIVED.V1 to the users it was shared with
  'FIELD_SHARE.V1': async (envelope) => {
    await notifications.deliverEnvelope(envelope);
    const userIds = (Array.isArray(envelope.data.user_ids) ? envelope.data.user_ids : [])
      .map(Number)
      .filter(Number.isInteger);
    await webhooks.fanOut({
      id: envelope.id,
      name: 'SHARE_RECEIVED.V1',
      user_ids: userIds,
      occurred_at: envelope.created_at,
      data: (envelope.data.payload ?? {}) as Record<string, unknown>,
    });
  },
  [SHAPE_REPROCESS_JOB]: async (envelope) => {
    await (await cleanupJobs()).reprocessShape(
      envelope.data as { field_id: number; campaign: number; lock_id: string },
    );
  },
};

// Any other name was posted to /nc-internal/events: delivery decides (unknown names are dropped and logged).
export const handler = (event: SQSEvent) => processBatch(event, handlers, notifications.deliverEnvelope);
