// The country of a field: the one its centroid lies in (ISO 3166-1 alpha-2), as country-coder
// answers it. Its answers are precomputed per area with borders (lib/fields/country-borders.json,
// written by `npm run country-borders` from country-coder's own borders), so a function does not
// build country-coder's region hierarchy at every cold start: it finds the area that holds the
// point with which-polygon (what country-coder uses for that step), reading the geometry of only
// the areas whose bounding box holds it (each ring is an encoded polyline, decoded when its area is
// first needed). tests/unit/country.test.ts compares the answers with country-coder's across the world.
import * as codec from '@googlemaps/polyline-codec';
import type { Position } from 'geojson';
import whichPolygon from 'which-polygon';
import borders from './country-borders.json';

/** One area: the code answered inside it, its bounding box, its polygons' rings as encoded polylines. */
export type CountryArea = [
  code: string | null,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  polygons: string[][],
];
type Contains = (point: [number, number]) => { code: string | null } | null;

const areas = borders.areas as CountryArea[];
const indexes = new Map<number, Contains>();

/**
 * The codec's encode and decode. A bundle takes the package's ES module (deploy/esbuild.yml: module
 * before main); Node, running the sources (tests, scripts), its UMD build, whose exports it offers as
 * the default export only.
 */
export const polyline: Pick<typeof codec, 'encode' | 'decode'> =
  typeof codec.decode === 'function' ? codec : (codec as unknown as { default: typeof codec }).default;

/** A ring's [longitude, latitude] positions from its encoded polyline (5 decimals). */
export const ringOf = (encoded: string): Position[] => polyline.decode(encoded, 5);

function indexOf(i: number): Contains {
  let index = indexes.get(i);
  if (!index) {
    const [code, , , , , polygons] = areas[i]!;
    const geometry = { type: 'MultiPolygon' as const, coordinates: polygons.map((rings) => rings.map(ringOf)) };
    index = whichPolygon({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { code }, geometry }],
    });
    indexes.set(i, index);
  }
  return index;
}

/** The ISO 3166-1 alpha-2 code of the country at a longitude and latitude; null at sea or outside any. */
export function countryAt(lon: number, lat: number): string | null {
  for (let i = 0; i < areas.length; i++) {
    const [, minX, minY, maxX, maxY] = areas[i]!;
    if (lon < minX || lon > maxX || lat < minY || lat > maxY) continue;
    const hit = indexOf(i)([lon, lat]);
    if (hit) return hit.code;
  }
  return null;
}

export function countryOf(centroidWkt: string): string | null {
  const match = /POINT\(([-\d.eE]+) ([-\d.eE]+)\)/.exec(centroidWkt);
  return match ? countryAt(Number(match[1]), Number(match[2])) : null;
}
