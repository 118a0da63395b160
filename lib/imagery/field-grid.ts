// A field's imagery grid (spec 2, Imagery layers and Limits): its UTM zone at 10 m, aligned to
// multiples of 10 m (the Sentinel-2 pixel grid), covering the field's bounds plus 2 pixels on every
// side; and the field's mask on a grid. Reads the field's WKT (jsts): ingestion only.
import type { GeometryKit } from '../geo/geometry';
import { transformer, utmEpsg } from './crs';
import { type Grid, projectRings, type Rings, rasterize, ringBounds } from './grid';

export const PIXEL_M = 10;
export const MARGIN_PIXELS = 2;

/** The rings (outer and holes, every polygon) of a WKT polygon or multipolygon, in EPSG 4326. */
export function ringsOfWkt({ readWkt, toGeoJson }: GeometryKit, wkt: string): Rings {
  const geometry = toGeoJson(readWkt(wkt));
  if (geometry.type === 'Polygon') return geometry.coordinates as Rings;
  if (geometry.type === 'MultiPolygon') return (geometry.coordinates as Rings[]).flat();
  return [];
}

/** The imagery grid of a field's polygon (WKT, EPSG 4326). */
export async function fieldGrid(geometry: GeometryKit, polygonWkt: string): Promise<Grid> {
  const rings = ringsOfWkt(geometry, polygonWkt);
  const [minLon, minLat, maxLon, maxLat] = ringBounds(rings);
  const epsg = utmEpsg((minLon + maxLon) / 2, (minLat + maxLat) / 2);
  const [minX, minY, maxX, maxY] = ringBounds(projectRings(rings, await transformer(4326, epsg)));
  const left = (Math.floor(minX / PIXEL_M) - MARGIN_PIXELS) * PIXEL_M;
  const right = (Math.ceil(maxX / PIXEL_M) + MARGIN_PIXELS) * PIXEL_M;
  const bottom = (Math.floor(minY / PIXEL_M) - MARGIN_PIXELS) * PIXEL_M;
  const top = (Math.ceil(maxY / PIXEL_M) + MARGIN_PIXELS) * PIXEL_M;
  return {
    epsg,
    x0: left,
    y0: top,
    pixel: PIXEL_M,
    width: Math.round((right - left) / PIXEL_M),
    height: Math.round((top - bottom) / PIXEL_M),
  };
}

/** The mask of a field's rings (EPSG 4326) on a grid. */
export const fieldMask = async (rings: Rings, grid: Grid): Promise<Uint8Array> =>
  rasterize(projectRings(rings, await transformer(4326, grid.epsg)), grid);
