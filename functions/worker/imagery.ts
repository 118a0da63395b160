// The imagery queue worker (docs/imagery.md): field jobs find a field's scenes and queue them;
// scene jobs cut one scene to the field and store it.
import type { SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { ingestion } from '../../lib/imagery/repository';
import { IMAGERY_FIELD_JOB, IMAGERY_SCENE_JOB } from '../../lib/imagery/jobs';
import type { SceneJob } from '../../lib/imagery/service';
import { PoisonMessage, processBatch, type EventHandler } from '../../lib/worker/process';

const FieldJob = z.object({ field_id: z.number().int().positive(), lock_id: z.string().min(1).optional(), recent_days: z.number().int().positive().optional() });
const SceneJobShape = z.object({ field_id: z.number().int().positive(), shape_version: z.string().min(1), scene: z.object({ id: z.string(), day: z.string() }).passthrough() });

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
};

export const handler = (event: SQSEvent) => processBatch(event, handlers);
