// The events queue worker: internal jobs and events posted to /nc-internal/events.
import type { SQSEvent } from 'aws-lambda';
import { processBatch, type EventHandler } from '../../lib/worker/process';
import { cleanUpDeletedField, FIELD_DELETED_JOB } from '../../lib/fields/cleanup';

const handlers: Record<string, EventHandler> = {
  [FIELD_DELETED_JOB]: async (envelope) => {
    await cleanUpDeletedField(Number(envelope.data.field_id));
  },
};

export const handler = (event: SQSEvent) => processBatch(event, handlers);
