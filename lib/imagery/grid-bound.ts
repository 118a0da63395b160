// The bound of a field's imagery grid (docs/decisions.md, Bounds): a polygon small in
// area may be huge in extent (a 7.5 ha sliver 0.75 degrees a side made a 56-megapixel grid, ~3.4 GB
// a scene), so a field's grid (lib/imagery/field-grid.ts: its UTM zone at 10 m, 2 pixels of margin)
// is bounded in pixels. Field and season-shape creation check a polygon's extent against it
// before anything is written, without projecting (proj4 stays out of those functions): from the
// geodesic diagonal of the polygon's bounding box, an upper bound of the grid it will get; every
// imagery job checks the grid it computes against the same figure.
import type { Bounds } from '../geo/bounds';

/** Pixels of a field's imagery grid: 2,000 x 2,000 at 10 m (a 20 km square; a 10,000 ha square field is 1,004 a side). */
export const MAX_GRID_PIXELS = 4_000_000;

const PIXEL_M = 10;
const MARGIN_PIXELS = 2;
const EARTH_RADIUS_M = 6_371_008.8;
/**
 * What the grid's sides may exceed the bounding box's diagonal on the sphere by: the ellipsoid
 * (within 0.6% of the sphere), UTM's scale (up to 1.001 across a zone, more outside it) and the
 * rounding to whole pixels. Generous: the check must never accept a grid the jobs refuse.
 */
const SAFETY = 1.02;

/** The longest diagonal of a bounding box whose grid fits (about 19.5 km). */
export const MAX_DIAGONAL_M = ((Math.floor(Math.sqrt(MAX_GRID_PIXELS)) - 2 * MARGIN_PIXELS - 3) * PIXEL_M) / SAFETY;

/** The great-circle distance between two points (degrees), in metres. */
function distance([lon1, lat1]: [number, number], [lon2, lat2]: [number, number]): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * An upper bound of the pixels of the imagery grid of a polygon with these bounds (EPSG 4326):
 * any two points of the polygon are at most the box's diagonal apart, so each side of the grid
 * (in any projection that keeps distances within SAFETY) is at most the diagonal, plus the margin
 * and the rounding to the 10 m grid.
 */
export function gridPixelsAtMost([minLon, minLat, maxLon, maxLat]: Bounds): number {
  const diagonal = Math.max(distance([minLon, minLat], [maxLon, maxLat]), distance([minLon, maxLat], [maxLon, minLat]));
  const side = Math.ceil((diagonal * SAFETY) / PIXEL_M) + 2 * MARGIN_PIXELS + 2;
  return side * side;
}

/** Why a polygon with these bounds is refused, or undefined when its grid fits. */
export function extentRefusal(bounds: Bounds): string | undefined {
  if (gridPixelsAtMost(bounds) <= MAX_GRID_PIXELS) return undefined;
  const [minLon, minLat, maxLon, maxLat] = bounds;
  const km = distance([minLon, minLat], [maxLon, maxLat]) / 1000;
  return `the polygon's bounding box is ${km.toFixed(1)} km corner to corner: its imagery grid would pass ${MAX_GRID_PIXELS} pixels of 10 m (a box of at most ${(MAX_DIAGONAL_M / 1000).toFixed(1)} km corner to corner)`;
}

/** Whether a grid (as lib/imagery/field-grid.ts computes it) is within the bound: what every imagery job checks. */
export const gridFits = (grid: { width: number; height: number }): boolean =>
  grid.width * grid.height <= MAX_GRID_PIXELS;

/** A grid's size, for logs. */
export const gridSize = (grid: { width: number; height: number }) => ({ width: grid.width, height: grid.height });
