// The country of a field: the one its centroid lies in (ISO 3166-1 alpha-2), as country-coder
// answers it. Its answers are precomputed per area with borders (lib/fields/country-borders.json,
// written by `npm run country-borders` from country-coder's own borders), so a function does not
// build country-coder's region hierarchy at every cold start: it finds the area that holds the
// point with which-polygon (what country-coder uses for that step), reading the geometry of only
// the areas whose bounding box holds it (the table is parsed as text; an area's geometry when first
// needed). tests/unit/country.test.ts compares the answers with country-coder's across the world.
import type { Geometry } from 'geojson';
import whichPolygon from 'which-polygon';
import borders from './country-borders.json';

type Area = [code: string | null, minX: number, minY: number, maxX: number, maxY: number, geometry: string];
type Contains = (point: [number, number]) => { code: string | null } | null;

const areas = borders.areas as Area[];
const indexes = new Map<number, Contains>();

function indexOf(i: number): Contains {
  let index = indexes.get(i);
  if (!index) {
    const [code, , , , , geometry] = areas[i]!;
    index = whichPolygon({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { code }, geometry: JSON.parse(geometry) as Geometry }] });
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
