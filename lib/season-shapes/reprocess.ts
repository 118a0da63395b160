// The reprocessing job of a new season shape (queue worker): recomputes what the field's images
// depend on, the grid of 10 x 10 m satellite pixels over the shape with its 2-pixel margin (spec 2,
// Imagery layers), then asks for the field's imagery, whose last scene releases the field's lock.
// Idempotent: a redelivered job stores the same grid and asks again (the imagery job id is the lock's).

import { keys } from '../db/keys';
import { getItem, updateItem } from '../db/table';
import { publishEvent } from '../events/publish';
import { type GeometryKit, geometryKit } from '../geo/geometry';
import { fieldGrid, PIXEL_M } from '../imagery/field-grid';
import { IMAGERY_FIELD_JOB } from '../imagery/jobs';
import { log } from '../log';
import { shapeFromItem } from '../platform/model';

export interface ImageryGrid {
  width: number;
  height: number;
  pixels_inside: number;
}

/** Pixel grid of a polygon (lib/imagery/grid.ts: its UTM zone at 10 m, with the 2-pixel margin). */
export async function imageryGrid(geometry: GeometryKit, polygonWkt: string, areaHa: number): Promise<ImageryGrid> {
  const { width, height } = await fieldGrid(geometry, polygonWkt);
  return { width, height, pixels_inside: Math.round((areaHa * 10_000) / (PIXEL_M * PIXEL_M)) };
}

export async function reprocessShape(job: { field_id: number; campaign: number; lock_id: string }): Promise<void> {
  const shapeKey = keys.fieldShape(job.field_id, job.campaign);
  const shape = await getItem(shapeKey);
  if (shape) {
    const { polygon, areaHa } = shapeFromItem(shape);
    const grid = await imageryGrid(await geometryKit(), polygon, areaHa);
    await updateItem(shapeKey, {
      expression: 'SET imagery_grid = :grid, reprocessed_at = :at',
      condition: 'attribute_exists(pk)',
      values: { ':grid': grid, ':at': new Date().toISOString() },
    });
  }
  // The field's imagery is cut again for the new shape; its last scene job releases the lock.
  await publishEvent(
    IMAGERY_FIELD_JOB,
    { field_id: job.field_id, lock_id: job.lock_id, newest: true },
    { queue: 'imageryUrgent', id: `imagery-${job.lock_id}` },
  );
  log.info('season shape reprocessed; imagery requested', { fieldId: job.field_id, campaign: job.campaign });
}
