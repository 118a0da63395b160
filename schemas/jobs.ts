// The payloads of the events queue's internal jobs (lib/workers/process.ts), as their publishers
// write them: the events worker parses each with its schema, as an HTTP request is parsed, and a
// payload that does not match can never succeed (a poison message: retried into the dead-letter
// queue, never half-applied).
import * as z from 'zod/mini';

const id = z.number().check(z.int(), z.positive());

/** FIELD_DELETED.V1 (lib/fields/service.ts): what hangs from the field goes (lib/workers/field-deleted.ts). */
export const FieldDeletedJob = z.object({ field_id: id, farm_id: z.optional(id) });

/** SPOT_DELETED.V1 (lib/spots/spots.ts): the spot's texts, images and files go. */
export const SpotDeletedJob = z.object({ spot_id: id });

/** OBJECT_RELEASED.V1 (lib/storage/repository.ts): stored objects no record names any more. */
export const ObjectReleasedJob = z.object({ object_keys: z.array(z.string()) });

/** SHAPE_REPROCESS.V1 (lib/season-shapes/service.ts): a campaign's images re-cut, then the field's lock released. */
export const ShapeReprocessJob = z.object({
  field_id: id,
  campaign: z.number().check(z.int()),
  lock_id: z.string().check(z.minLength(1)),
});

/**
 * FIELD_SHARE.V1 (lib/shares/repository.ts; an internal service may also post it to
 * /nc-internal/events): an inbox notice and SHARE_RECEIVED.V1 to the users shared with. Delivery
 * decides what an inbox takes, so the event is read leniently: no users is no webhook.
 */
export const FieldShareEvent = z.object({
  user_ids: z.optional(z.array(z.unknown())),
  payload: z.optional(z.record(z.string(), z.unknown())),
});
