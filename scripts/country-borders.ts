// npm run country-borders: writes lib/fields/country-borders.json, the table the country of a new
// field is looked up in (lib/fields/country.ts), from country-coder's borders. country-coder itself
// builds its whole region hierarchy (groups, members, calling codes, flags...) when it is imported:
// about 60 ms of every cold start of the functions that create fields (docs/benchmarks.md, cold
// starts). That work depends only on its data, so it is done here, once, with country-coder: for
// each area with borders, the code country-coder answers for a point inside it. The functions only
// find the area a point lies in (which-polygon, the library country-coder uses for the same step).
// tests/unit/country.test.ts fails when the committed table differs from what this writes (run it
// after upgrading country-coder) and compares the lookup with country-coder's across the world.
// Each ring is kept as an encoded polyline (@googlemaps/polyline-codec, 5 decimals, the borders'
// own precision; the writer refuses a ring that does not decode to exactly the same numbers): 184
// KB of table instead of 556 KB of GeoJSON text, less for field creation to load at a cold start.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { featuresContaining, iso1A2Code } from '@rapideditor/country-coder';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import GeoJSONReader from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
import 'jsts/org/locationtech/jts/monkey.js';
import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import { type CountryArea, polyline, ringOf } from '../lib/fields/country';

export type { CountryArea };

export interface CountryBorders {
  source: string;
  areas: CountryArea[];
}

const require = createRequire(import.meta.url);
const packageDir = require.resolve('@rapideditor/country-coder').replace(/[\\/]dist[\\/].*$/, '');

function bbox(geometry: Polygon | MultiPolygon): [number, number, number, number] {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const [x = NaN, y = NaN] of polygon[0] ?? []) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  return [minX, minY, maxX, maxY];
}

/** country-coder's own borders (src/data/borders.json of the installed package). */
export function countryCoderBorders(): {
  features: Array<{ properties: { iso1A2?: string; m49?: string; wikidata: string }; geometry?: Geometry | null }>;
} {
  return JSON.parse(readFileSync(`${packageDir}/src/data/borders.json`, 'utf8'));
}

/** A ring as an encoded polyline, [longitude, latitude] pairs, when it decodes to exactly the same numbers. */
function encodedRing(id: string, ring: Position[]): string {
  const encoded = polyline.encode(
    ring.map(([x = NaN, y = NaN]) => [x, y]),
    5,
  );
  const decoded = ringOf(encoded);
  if (decoded.length !== ring.length || decoded.some(([x, y], i) => x !== ring[i]![0] || y !== ring[i]![1])) {
    throw new Error(`${id}: a ring that 5 decimals do not hold exactly`);
  }
  return encoded;
}

/** The table, computed from the installed country-coder. */
export function countryBorders(): CountryBorders {
  const { version, license } = JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as {
    version: string;
    license: string;
  };
  const borders = countryCoderBorders();
  const reader = new GeoJSONReader(new GeometryFactory());
  const areas: CountryArea[] = [];
  for (const feature of borders.features) {
    const geometry = feature.geometry;
    if (!geometry) continue;
    if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')
      throw new Error(`${feature.properties.wikidata}: a ${geometry.type}`);
    const id = feature.properties.iso1A2 ?? feature.properties.m49 ?? feature.properties.wikidata;
    const inside = reader.read(geometry).getInteriorPoint().getCoordinate();
    const point: [number, number] = [inside.x, inside.y];
    // the point must lie in this area and no other: what country-coder answers there is the area's
    if (featuresContaining(point)[0]?.properties.id !== id) throw new Error(`${id}: no point inside found`);
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    areas.push([
      iso1A2Code(point),
      ...bbox(geometry),
      polygons.map((rings) => rings.map((ring) => encodedRing(id, ring))),
    ]);
  }
  return {
    source: `@rapideditor/country-coder ${version} (${license}), src/data/borders.json: for each area with borders, the ISO 3166-1 alpha-2 code country-coder answers inside it (npm run country-borders)`,
    areas,
  };
}

/** The file's text: an area a line, so that a new release of the borders reads as a diff. */
export function countryBordersText(table: CountryBorders): string {
  return `{"source":${JSON.stringify(table.source)},"areas":[\n${table.areas.map((area) => JSON.stringify(area)).join(',\n')}\n]}\n`;
}

export const countryBordersFile = fileURLToPath(new URL('../lib/fields/country-borders.json', import.meta.url));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(countryBordersFile, countryBordersText(countryBorders()));
  console.log('lib/fields/country-borders.json written');
}
