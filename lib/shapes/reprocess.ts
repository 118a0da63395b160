// The reprocessing job of a new season shape (queue worker): recomputes what the field's images
// depend on, the grid of 10 x 10 m satellite pixels over the shape with its 2-pixel margin (spec 2,
// Imagery layers), and releases the field's lock. Idempotent: a redelivered job finds the grid
// already stored and the lock already released.
import proj4 from 'proj4';
import { keys } from '../db/keys';
import { deleteItem, getItem, updateItem } from '../db/table';
import { boundsOf, mapCoordinates, readWkt } from '../geo/wkt';
import { log } from '../log';
import { shapeFromItem } from '../platform/model';

export const PIXEL_M = 10;
export const MARGIN_PIXELS = 2;

export interface ImageryGrid {
  width: number;
  height: number;
  pixels_inside: number;
}

/** Pixel grid of a polygon in its local UTM zone (WGS84), with the margin around it. */
export function imageryGrid(polygonWkt: string, areaHa: number): ImageryGrid {
  const geometry = readWkt(polygonWkt);
  const [minX, minY, maxX, maxY] = boundsOf(geometry);
  const lon = (minX + maxX) / 2;
  const lat = (minY + maxY) / 2;
  const zone = Math.min(60, Math.floor((lon + 180) / 6) + 1);
  const utm = proj4('EPSG:4326', `+proj=utm +zone=${zone}${lat < 0 ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`);
  const [x0, y0, x1, y1] = boundsOf(mapCoordinates(geometry, (x, y) => utm.forward([x, y]) as [number, number]));
  return {
    width: Math.ceil((x1 - x0) / PIXEL_M) + 2 * MARGIN_PIXELS,
    height: Math.ceil((y1 - y0) / PIXEL_M) + 2 * MARGIN_PIXELS,
    pixels_inside: Math.round((areaHa * 10_000) / (PIXEL_M * PIXEL_M)),
  };
}

export async function reprocessShape(job: { field_id: number; campaign: number; lock_id: string }): Promise<void> {
  const shapeKey = keys.fieldShape(job.field_id, job.campaign);
  const shape = await getItem(shapeKey);
  if (shape) {
    const { polygon, areaHa } = shapeFromItem(shape);
    const grid = imageryGrid(polygon, areaHa);
    await updateItem(shapeKey, {
      expression: 'SET imagery_grid = :grid, reprocessed_at = :at',
      condition: 'attribute_exists(pk)',
      values: { ':grid': grid, ':at': new Date().toISOString() },
    });
  }
  const released = await deleteItem(keys.shapeLock(job.field_id), {
    expression: 'lock_id = :id',
    values: { ':id': job.lock_id },
  });
  log.info('season shape reprocessed', { fieldId: job.field_id, campaign: job.campaign, released });
}
