// Webhook events of records, made from the table's stream by the changes worker from the very
// changes it writes to the feeds (docs/integrations.md "Webhooks"): a field created or deleted, a
// spot, a labour, a work order. Each goes to the users the change's feed entries go to (who read
// the record then), so a webhook and the feed say the same thing to the same people. Events of
// processes (a reshape and its reprocessing, imagery dates, herd transactions, shares) are emitted
// by the process that knows them (lib/webhooks/emit.ts).
import { createHash } from 'node:crypto';
import type { Change } from '../changes/model';
import { eventId, type WebhookEvent, type WebhookEventName } from './model';

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A record's event: its name, data and field (a subscription receives it only while its user reads that field). */
function eventOf(
  change: Change,
): { name: WebhookEventName; data: Record<string, unknown>; fieldId?: number } | undefined {
  const image = change.image ?? {};
  const write = change.change;
  if (write !== 'created' && write !== 'changed' && write !== 'deleted') return undefined;
  switch (change.kind) {
    case 'field': {
      const data = { field_id: change.id, field_uuid: change.uuid, farm_id: num(image.farm_id) };
      // a field deleted has no field to check at delivery: its event goes to its readers as it was
      if (write === 'created')
        return { name: 'FIELD_CREATED.V1', data: { ...data, name: image.name }, fieldId: change.id ?? undefined };
      return write === 'deleted' ? { name: 'FIELD_DELETED.V1', data } : undefined;
    }
    case 'spot': {
      const name =
        write === 'created' ? 'SPOT_CREATED.V1' : write === 'deleted' ? 'SPOT_DELETED.V1' : 'SPOT_CHANGED.V1';
      return {
        name,
        data: { spot_uuid: change.uuid, field_id: change.fieldId, farm_id: num(image.farm_id) },
        fieldId: change.fieldId,
      };
    }
    case 'labour':
      return {
        name: 'LABOUR_CHANGED.V1',
        data: { labour_uuid: change.uuid, field_id: change.fieldId, yeargroup: num(image.yeargroup), change: write },
        fieldId: change.fieldId,
      };
    case 'work_order':
      return {
        name: 'WORK_ORDER_CHANGED.V1',
        data: { work_order_uuid: change.uuid, yeargroup: num(image.yeargroup), change: write },
      };
    default:
      return undefined;
  }
}

/**
 * The webhook event of a change written to its readers' feeds, or undefined when its kind has none.
 * Its id is made from the write (kind, record and revision: each write stamps a new one), so the
 * same change handled again (a retried batch) is the same event, whose deliveries are not sent twice.
 */
export function recordEvent(change: Change, readers: readonly number[]): WebhookEvent | undefined {
  const event = eventOf(change);
  if (!event) return undefined;
  const at = Date.parse(change.at);
  const write = `${change.kind}|${change.id}|${change.uuid}|${change.rev}|${change.change}`;
  const digest = createHash('sha256').update(write).digest('hex').slice(0, 16);
  return {
    id: eventId(at, digest),
    name: event.name,
    user_ids: [...new Set(readers)],
    ...(event.fieldId !== undefined ? { field_id: event.fieldId } : {}),
    occurred_at: new Date(at).toISOString(),
    data: event.data,
  };
}
