// The imagery queue worker (docs/imagery.md): field jobs find a field's scenes and queue them;
// scene jobs cut one scene to the field and store it; layer jobs make layers from files and samplings.
import type { SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { ingestion } from '../../lib/imagery/repository';
import { layerBuild } from '../../lib/imagery/layers-repository';
import { IMAGERY_FIELD_JOB, IMAGERY_LAYER_JOB, IMAGERY_SCENE_JOB } from '../../lib/imagery/jobs';
import type { LayerJob } from '../../lib/imagery/user-layers';
import type { SceneJob } from '../../lib/imagery/service';
import { PoisonMessage, processBatch, type EventHandler } from '../../lib/worker/process';

const FieldJob = z.object({ field_id: z.number().int().positive(), lock_id: z.string().min(1).optional(), recent_days: z.number().int().positive().optional() });
const SceneJobShape = z.object({ field_id: z.number().int().positive(), shape_version: z.string().min(1), scene: z.object({ id: z.string(), day: z.string() }).passthrough() });

const bound = z.number().finite().nullable();
const LayerJobShape = z.object({
  job_id: z.string(),
  field_id: z.number().int().positive(),
  source: z.enum(['file', 'sampling']),
  source_id: z.string(),
  source_key: z.string().startsWith('uploads/'),
  datetime: z.string(),
  layers: z.array(
    z.object({
      column: z.string(),
      id_layer: z.number().int(),
      layer_name: z.string().min(1),
      mean: bound,
      min: bound,
      max: bound,
      meta: z.object({ numerador_media: z.string().nullable().optional(), denominador_media: z.string().nullable().optional() }),
      interpolation: z.enum(['kriging', 'idw', 'polygons']),
    }),
  ),
});

const parse = <T>(schema: z.ZodType<T>, data: unknown): T => {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new PoisonMessage('malformed imagery job');
  return parsed.data;
};

const handlers: Record<string, EventHandler> = {
  [IMAGERY_FIELD_JOB]: async (envelope) => {
    await ingestion.ingestField(parse(FieldJob, envelope.data));
  },
  [IMAGERY_SCENE_JOB]: async (envelope) => {
    await ingestion.ingestScene(parse(SceneJobShape, envelope.data) as unknown as SceneJob);
  },
  [IMAGERY_LAYER_JOB]: async (envelope) => {
    await layerBuild.build(parse(LayerJobShape, envelope.data) as LayerJob);
  },
};

export const handler = (event: SQSEvent) => processBatch(event, handlers);
