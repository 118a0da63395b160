// The imagery lanes' worker (docs/imagery.md; the same handler on the urgent, bulk and backfill queues): field jobs find a field's scenes and queue them;
// scene jobs cut one scene to the field and store it; tile jobs (the daily schedule) search once for the fields of a
// Sentinel-2 tile and tile scene jobs cut a scene for all of them from one read; layer jobs make layers from files and samplings.
import type { SQSEvent } from 'aws-lambda';
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
import type { SceneJob, TileSceneJob } from '../../lib/imagery/service';
import type { LayerJob } from '../../lib/imagery/user-layers';
import { preload } from '../../lib/util/first-use';
import { type EventHandler, jobOf, processBatch } from '../../lib/workers/process';
import { FieldJob, LayerJobShape, SceneJobShape, TileJob, TileSceneJobShape } from '../../schemas/jobs';

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
