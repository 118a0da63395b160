// The imagery lanes' worker (docs/imagery.md; the same handler on the urgent, bulk and backfill queues): field jobs find a field's scenes and queue them;
// scene jobs cut one scene to the field and store it; tile jobs (the daily schedule) search once for the fields of a
// Sentinel-2 tile and tile scene jobs cut a scene for all of them from one read; layer jobs make layers from files and samplings.
import type { SQSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { geometryKit } from '../../lib/geo/geometry';
import { projections } from '../../lib/imagery/crs';
import {
  IMAGERY_FIELD_JOB,
  IMAGERY_LAYER_JOB,
  IMAGERY_SCENE_JOB,
  IMAGERY_TILE_JOB,
  IMAGERY_TILE_SCENE_JOB,
} from '../../lib/imagery/jobs';
import { layerBuild } from '../../lib/imagery/layers-repository';
import { ingestion } from '../../lib/imagery/repository';
import {
  MAX_PERIOD_DAYS,
  MAX_TILE_FIELDS,
  MAX_TILE_JOB_FIELDS,
  type SceneJob,
  type TileSceneJob,
} from '../../lib/imagery/service';
import type { LayerJob } from '../../lib/imagery/user-layers';
import { preload } from '../../lib/util/first-use';
import { type EventHandler, jobOf, processBatch } from '../../lib/workers/process';

const FieldJob = z.object({
  field_id: z.number().check(z.int(), z.positive()),
  lock_id: z.optional(z.string().check(z.minLength(1))),
  recent_days: z.optional(z.number().check(z.int(), z.positive())),
  newest: z.optional(z.boolean()),
  period_days: z.optional(z.number().check(z.int(), z.positive(), z.lte(MAX_PERIOD_DAYS))),
});
const SceneShape = z.looseObject({ id: z.string(), day: z.string() });
const SceneJobShape = z.object({
  field_id: z.number().check(z.int(), z.positive()),
  shape_version: z.string().check(z.minLength(1)),
  scene: SceneShape,
});
const TileJob = z.object({
  tile: z.string().check(z.minLength(1)),
  field_ids: z.array(z.number().check(z.int(), z.positive())).check(z.maxLength(MAX_TILE_JOB_FIELDS)),
  recent_days: z.optional(z.number().check(z.int(), z.positive(), z.lte(MAX_PERIOD_DAYS))),
});
const TileSceneJobShape = z.object({
  scene: SceneShape,
  fields: z
    .array(
      z.object({ field_id: z.number().check(z.int(), z.positive()), shape_version: z.string().check(z.minLength(1)) }),
    )
    .check(z.maxLength(MAX_TILE_FIELDS)),
});

const bound = z.nullable(z.number());
const LayerJobShape = z.object({
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

// each payload parsed by its schema (jobOf): a malformed one is a poison message, never retried
const handlers: Record<string, EventHandler> = {
  [IMAGERY_FIELD_JOB]: jobOf(FieldJob, (job) => ingestion.ingestField(job)),
  [IMAGERY_SCENE_JOB]: jobOf(SceneJobShape, (job) => ingestion.ingestScene(job as unknown as SceneJob)),
  [IMAGERY_TILE_JOB]: jobOf(TileJob, (job) => ingestion.ingestTile(job)),
  [IMAGERY_TILE_SCENE_JOB]: jobOf(TileSceneJobShape, (job) =>
    ingestion.ingestTileScene(job as unknown as TileSceneJob),
  ),
  [IMAGERY_LAYER_JOB]: jobOf(LayerJobShape, (job) => layerBuild.build(job as LayerJob)),
};

// every job reads the field's polygon (geometry) and projects it onto its UTM grid (proj4): both
// load while the job's first reads wait
export const handler = (event: SQSEvent) => {
  preload(geometryKit);
  preload(projections);
  return processBatch(event, handlers);
};
