// Sentinel-2 tiles (docs/imagery.md, "Tiles"): ingestion searches the catalogue once per tile and
// day for all the fields on it, and reads each block of a scene once for all of them. A tile is a
// 100 km square of the UTM grid (an MGRS square) and 9.8 km beyond it east and south (109.8 km a
// side), so a field whose north-west corner lies in a square lies wholly inside that square's tile
// (fields are at most a few kilometres across). Tiles are named here by their zone's EPSG and the
// square's indices (`32720:5:62`), not by MGRS letters: the name only groups fields.
import { transformer, utmEpsg } from './crs';

export const TILE_SQUARE_M = 100_000;
export const TILE_SIDE_M = 109_800;

/** The tile a field's searches are grouped under: the square of its zone holding its north-west corner. */
export async function tileOf(bounds: readonly [number, number, number, number]): Promise<string> {
  const [minLon, minLat, maxLon, maxLat] = bounds;
  const epsg = utmEpsg((minLon + maxLon) / 2, (minLat + maxLat) / 2);
  const [x, y] = (await transformer(4326, epsg))([minLon, maxLat]);
  return `${epsg}:${Math.floor(x / TILE_SQUARE_M)}:${Math.floor(y / TILE_SQUARE_M)}`;
}

export interface TileExtent {
  epsg: number;
  /** The square's indices: easting and northing in units of 100 km. */
  e: number;
  n: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A tile's extent in its zone: from its square's north-west corner, 109.8 km east and south. */
export function tileExtent(tile: string): TileExtent {
  const [epsg, e, n] = tile.split(':').map(Number) as [number, number, number];
  const x0 = e * TILE_SQUARE_M;
  const y1 = (n + 1) * TILE_SQUARE_M;
  return { epsg, e, n, x0, y0: y1 - TILE_SIDE_M, x1: x0 + TILE_SIDE_M, y1 };
}
