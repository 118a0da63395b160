// Processing of the events queue: each record is one event envelope (lib/events/publish.ts).
// Records are handled one by one; a failing record is reported alone (partial batch response)
// so SQS retries it and, after the queue's maxReceiveCount, moves it to the dead-letter queue.
// Handlers are idempotent; a processed-marker also skips redeliveries of finished events (the
// markers of a batch read in one call before its first record, and an id seen twice in one batch
// processed once).
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { keys } from '../db/keys';
import { batchGet, getItem, itemKey, putItem } from '../db/table';
import type { EventEnvelope } from '../events/publish';
import { log } from '../log';

export type EventHandler = (envelope: EventEnvelope) => Promise<void>;

const Envelope = z.object({
  id: z.string().check(z.minLength(1)),
  event_name: z.string().check(z.minLength(1)),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});

const PROCESSED_TTL_SECONDS = 14 * 24 * 3600;

/** A record that can never succeed (malformed); it is retried until it reaches the DLQ. */
export class PoisonMessage extends Error {}

/**
 * A job's handler that takes its payload parsed by `schema` (schemas/jobs.ts), as an HTTP handler
 * takes its body: a payload that does not match is a poison message, and the handler never runs.
 */
export function jobOf<T>(
  schema: z.ZodMiniType<T>,
  handle: (data: T, envelope: EventEnvelope) => Promise<unknown>,
): EventHandler {
  return async (envelope) => {
    const parsed = schema.safeParse(envelope.data);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`);
      throw new PoisonMessage(`malformed ${envelope.event_name} payload (${envelope.id}): ${issues.join('; ')}`);
    }
    await handle(parsed.data, envelope);
  };
}

/** A record's envelope, or the poison message it is (returned, thrown when the record's turn comes). */
function envelopeOf(record: SQSRecord): EventEnvelope | PoisonMessage {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    return new PoisonMessage(`message ${record.messageId} is not JSON`);
  }
  const parsed = Envelope.safeParse(body);
  if (!parsed.success) return new PoisonMessage(`message ${record.messageId} is not an event envelope`);
  return parsed.data as EventEnvelope;
}

/**
 * The ids of a batch's events processed before (their markers read in one call), to which the
 * batch adds those it processes. Undefined when the markers could not be read: each record then
 * reads its own, and fails alone if it cannot.
 */
async function processedAmong(envelopes: Iterable<EventEnvelope | PoisonMessage>): Promise<Set<string> | undefined> {
  const ids = new Set<string>();
  for (const envelope of envelopes) if (!(envelope instanceof PoisonMessage)) ids.add(envelope.id);
  if (ids.size <= 1) return undefined;
  try {
    const found = await batchGet([...ids].map((id) => keys.processedMessage(id)));
    return new Set([...ids].filter((id) => found.has(itemKey(keys.processedMessage(id)))));
  } catch (error) {
    log.warn('processed markers not read as a batch', { error });
    return undefined;
  }
}

async function processRecord(
  record: SQSRecord,
  envelope: EventEnvelope | PoisonMessage,
  handlers: Record<string, EventHandler>,
  fallback: EventHandler | undefined,
  processed: Set<string> | undefined,
): Promise<void> {
  if (envelope instanceof PoisonMessage) throw envelope;
  const marker = keys.processedMessage(envelope.id);
  if (processed ? processed.has(envelope.id) : await getItem(marker)) {
    log.info('event already processed', { eventId: envelope.id, event: envelope.event_name });
    return;
  }
  // A name no handler takes goes to the fallback; without one it can never succeed: retried, it
  // ends in the dead-letter queue.
  const handler = handlers[envelope.event_name] ?? fallback;
  if (!handler) throw new PoisonMessage(`no handler for event ${envelope.event_name} (message ${record.messageId})`);
  await handler(envelope);
  await putItem({
    ...marker,
    kind: 'processed',
    event_name: envelope.event_name,
    ttl: Math.floor(Date.now() / 1000) + PROCESSED_TTL_SECONDS,
  });
  processed?.add(envelope.id);
}

/** Handles records one by one, reporting the failed ones alone (partial batch response). */
export async function processRecords(
  event: SQSEvent,
  handle: (record: SQSRecord) => Promise<void>,
): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await handle(record);
    } catch (error) {
      log.error('record failed', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

export async function processBatch(
  event: SQSEvent,
  handlers: Record<string, EventHandler>,
  fallback?: EventHandler,
): Promise<SQSBatchResponse> {
  // each record's body parsed once: for the batch's markers, then for its handling
  const envelopes = new Map(event.Records.map((record) => [record, envelopeOf(record)]));
  const processed = await processedAmong(envelopes.values());
  return processRecords(event, (record) =>
    processRecord(record, envelopes.get(record)!, handlers, fallback, processed),
  );
}
