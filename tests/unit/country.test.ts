// The country of a field (lib/fields/country.ts) is country-coder's answer, looked up in the table
// `npm run country-borders` writes (lib/fields/country-borders.json) rather than through
// country-coder at run time: the table is current, and its answers are country-coder's everywhere.
import { readFileSync } from 'node:fs';
import { iso1A2Code } from '@rapideditor/country-coder';
import { describe, expect, it } from 'vitest';
import { type CountryArea, countryAt, countryOf, ringOf } from '../../lib/fields/country';
import borders from '../../lib/fields/country-borders.json';
import {
  countryBorders,
  countryBordersFile,
  countryBordersText,
  countryCoderBorders,
} from '../../scripts/country-borders';

function disagreements(
  points: Array<[number, number]>,
): Array<{ point: [number, number]; ours: string | null; countryCoder: string | null }> {
  const out = [];
  for (const point of points) {
    const ours = countryAt(point[0], point[1]);
    const countryCoder = iso1A2Code(point);
    if (ours !== countryCoder) out.push({ point, ours, countryCoder });
  }
  return out;
}

function grid(minX: number, minY: number, maxX: number, maxY: number, step: number): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  for (let x = minX; x <= maxX; x += step)
    for (let y = minY; y <= maxY; y += step) points.push([Math.round(x * 1e6) / 1e6, Math.round(y * 1e6) / 1e6]);
  return points;
}

describe('the country of a point', () => {
  it('is read from a table written from the installed country-coder (run npm run country-borders when this fails)', () => {
    const committed = readFileSync(countryBordersFile, 'utf8');
    const table = countryBorders();
    expect(table.areas.length).toBeGreaterThan(300);
    expect(committed === countryBordersText(table)).toBe(true);
  });

  it("keeps every ring of country-coder's borders exactly, as encoded polylines", () => {
    const theirs = countryCoderBorders().features.flatMap(({ geometry: g }) =>
      g?.type === 'Polygon' ? [g.coordinates] : g?.type === 'MultiPolygon' ? g.coordinates : [],
    );
    const ours = (borders.areas as CountryArea[]).flatMap((area) => area[5].map((rings) => rings.map(ringOf)));
    expect(ours.length).toBe(theirs.length);
    expect(ours).toEqual(theirs);
  });

  it('answers what country-coder answers on a world grid (every 0.5 degrees) and a fine one over Europe and the Caribbean', () => {
    const world = grid(-180, -90, 180, 90, 0.5);
    expect(world.length).toBe(721 * 361);
    expect(disagreements(world)).toEqual([]);
    expect(disagreements(grid(-10, 35, 30, 60, 0.1))).toEqual([]);
    expect(disagreements(grid(-85, 10, -60, 27, 0.05))).toEqual([]);
    // the grid reaches land of many countries, and the sea
    const codes = new Set(world.map(([x, y]) => countryAt(x, y)));
    expect(codes.size).toBeGreaterThan(150);
    expect(codes.has(null)).toBe(true);
  }, 90_000); // ~530,000 lookups by country-coder and by the table: 5-10 s idle, several times that on a loaded machine

  it('names the country of a centroid, small ones and territories included', () => {
    expect(countryOf('POINT(-60.5 -34.2)')).toBe('AR');
    expect(countryOf('POINT(-3.7038 40.4168)')).toBe('ES');
    expect(countryOf('POINT(12.4534 41.9029)')).toBe('VA'); // Vatican City, inside Rome
    expect(countryOf('POINT(7.4246 43.7384)')).toBe('MC');
    expect(countryOf('POINT(-1.5536 47.2184)')).toBe('FR');
    expect(countryOf('POINT(-2.1 49.2)')).toBe(iso1A2Code([-2.1, 49.2])); // Jersey: as country-coder answers
    expect(countryOf('POINT(-30 0)')).toBe('BR'); // the sea a country claims (country-coder's borders)
    expect(countryOf('POINT(-40 40)')).toBeNull(); // the high seas
    expect(countryOf('POINT(33.4 35.25)')).toBe(iso1A2Code([33.4, 35.25])); // an area of no country code
    expect(countryOf('not a point')).toBeNull();
  });
});
