// The coordinate systems imagery works in: WGS84 (4326), Web Mercator (3857) and the WGS84 UTM
// zones (326xx north, 327xx south). Transforms use proj4 (lib/imagery/projections.ts), imported at
// the first transform between two different codes, not with this module (ADR 0008).
import { onFirstUse } from '../util/first-use';

export type Point = [number, number];

/** The WGS84 UTM zone (as an EPSG code) of a longitude and latitude. */
export function utmEpsg(lon: number, lat: number): number {
  const zone = Math.min(60, Math.max(1, Math.floor((lon + 180) / 6) + 1));
  return (lat < 0 ? 32700 : 32600) + zone;
}

/** proj4 and its converters, loaded on first use; `preload(projections)` starts it early. */
export const projections = /* @__PURE__ */ onFirstUse(() => import('./projections'));

const identity = (point: Point): Point => point;

/** A function taking points from one EPSG to another: the identity when equal, without loading proj4. */
export async function transformer(from: number, to: number): Promise<(point: Point) => Point> {
  if (from === to) return identity;
  return (await projections()).converter(from, to);
}
