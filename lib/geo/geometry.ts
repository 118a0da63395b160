// What every area may use of geometry without loading the geometry library: its error, its
// limits, WKT written from GeoJSON coordinates, and the loader of the kit itself.
//
// The kit (lib/geo/wkt.ts: jsts and GeographicLib, ~350 KB) is imported on first use with
// `await geometryKit()`, never statically: a function whose request needs no geometry (listing
// paddocks, reading a sampling) no longer parses and evaluates it at every cold start (about a
// third of the floor's import time, docs/benchmarks.md; ADR 0008). Types may be imported from
// wkt.ts (`import type`): they leave no import behind. tests/unit/pure-schemas.test.ts finds any
// other import of it.

import { onFirstUse } from '../util/first-use';
import { formatNumber } from './bounds';

export type GeometryKind = 'Point' | 'Polygon' | 'MultiPolygon';
export type GeometryKit = typeof import('./wkt');
export type { JstsCoordinate, JstsGeometry } from './wkt';

/** The geometry kit, loaded once per container on first use. */
export const geometryKit: () => Promise<GeometryKit> = /* @__PURE__ */ onFirstUse(() => import('./wkt'));

/** Why a text is not an acceptable geometry: unreadable or of another type, or readable but invalid. */
export class GeometryError extends Error {
  constructor(
    readonly reason: 'unreadable' | 'wrong_type' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Bounds of every geometry a client sends (docs/decisions.md, Bounds): its text and its vertices
 * (spots and paddocks pass a lower vertex bound). A GPS-traced field boundary of 50,000 vertices
 * is accepted; beyond 64 KB of WKT it is stored packed (lib/geo/packed.ts) to fit one record.
 */
export const GEOMETRY_LIMITS = { CHARS: 2_500_000, VERTICES: 50_000 } as const;

const num = formatNumber;

type Position = number[];

/**
 * WKT of GeoJSON coordinates (longitude and latitude; a third value, an altitude, is dropped),
 * written as toWkt writes: POINT, POLYGON or MULTIPOLYGON.
 */
export function geoJsonToWkt(
  geometry:
    | { type: 'Point'; coordinates: Position }
    | { type: 'Polygon'; coordinates: Position[][] }
    | { type: 'MultiPolygon'; coordinates: Position[][][] },
): string {
  const ring = (r: Position[]) => `(${r.map((p) => `${num(Number(p[0]))} ${num(Number(p[1]))}`).join(',')})`;
  switch (geometry.type) {
    case 'Point':
      return `POINT(${num(Number(geometry.coordinates[0]))} ${num(Number(geometry.coordinates[1]))})`;
    case 'Polygon':
      return `POLYGON(${geometry.coordinates.map(ring).join(',')})`;
    default:
      return `MULTIPOLYGON(${geometry.coordinates.map((p) => `(${p.map(ring).join(',')})`).join(',')})`;
  }
}
