// The payloads of the queues' internal jobs (lib/workers/process.ts), as their publishers write
// them: the events and imagery workers parse each with its schema, as an HTTP request is parsed, and a
// payload that does not match can never succeed (a poison message: retried into the dead-letter
// queue, never half-applied).
import * as z from 'zod/mini';
import { MAX_PERIOD_DAYS, MAX_TILE_FIELDS, MAX_TILE_JOB_FIELDS } from '../lib/imagery/service';

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

/** IMAGERY_FIELD.V1 (lib/imagery/jobs.ts): a field's scenes found and queued. */
export const FieldJob = z.object({
  field_id: z.number().check(z.int(), z.positive()),
  lock_id: z.optional(z.string().check(z.minLength(1))),
  recent_days: z.optional(z.number().check(z.int(), z.positive())),
  newest: z.optional(z.boolean()),
  period_days: z.optional(z.number().check(z.int(), z.positive(), z.lte(MAX_PERIOD_DAYS))),
});
const SceneShape = z.looseObject({ id: z.string(), day: z.string() });
/** IMAGERY_SCENE.V1: one scene cut to a field and stored. */
export const SceneJobShape = z.object({
  field_id: z.number().check(z.int(), z.positive()),
  shape_version: z.string().check(z.minLength(1)),
  scene: SceneShape,
});
/** IMAGERY_TILE.V1 (the daily schedule): one search for the fields of a Sentinel-2 tile. */
export const TileJob = z.object({
  tile: z.string().check(z.minLength(1)),
  field_ids: z.array(z.number().check(z.int(), z.positive())).check(z.maxLength(MAX_TILE_JOB_FIELDS)),
  recent_days: z.optional(z.number().check(z.int(), z.positive(), z.lte(MAX_PERIOD_DAYS))),
});
/** IMAGERY_TILE_SCENE.V1: a scene cut for the tile's fields from one read. */
export const TileSceneJobShape = z.object({
  scene: SceneShape,
  fields: z
    .array(
      z.object({ field_id: z.number().check(z.int(), z.positive()), shape_version: z.string().check(z.minLength(1)) }),
    )
    .check(z.maxLength(MAX_TILE_FIELDS)),
});

const bound = z.nullable(z.number());
/** IMAGERY_LAYER.V1 (lib/imagery/user-layers.ts): layers made from a file or a sampling. */
export const LayerJobShape = z.object({
  job_id: z.string(),
  field_id: z.number().check(z.int(), z.positive()),
  source: z.enum(['file', 'sampling']),
  source_id: z.string(),
  source_key: z.string().check(z.startsWith('uploads/')),
  datetime: z.string(),
  layers: z.array(
    z.object({
      column: z.string(),
      id_layer: z.number().check(z.int()),
      layer_name: z.string().check(z.minLength(1)),
      mean: bound,
      min: bound,
      max: bound,
      meta: z.object({
        numerador_media: z.optional(z.nullable(z.string())),
        denominador_media: z.optional(z.nullable(z.string())),
      }),
      interpolation: z.enum(['kriging', 'idw', 'polygons']),
    }),
  ),
});
