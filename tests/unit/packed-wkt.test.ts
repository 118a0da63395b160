// lib/geo/packed.ts: detailed polygons packed for one DynamoDB item, losslessly.
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../lib/geo/bounds';
import { packWkt, unpackWkt } from '../../lib/geo/packed';

/** A GPS-like boundary: `n` vertices around (lon, lat), coordinates at `decimals`. */
function boundary(n: number, decimals: number, lon = -58.5, lat = -34.5): string {
  const points: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = 0.02 * (1 + 0.05 * Math.sin(a * 37) + 0.00002 * Math.sin(i * 7.3));
    points.push(
      `${formatNumber(Number((lon + r * Math.cos(a)).toFixed(decimals)))} ${formatNumber(Number((lat + r * Math.sin(a)).toFixed(decimals)))}`,
    );
  }
  return `POLYGON((${[...points, points[0]].join(',')}))`;
}

describe('packed WKT', () => {
  it('gives back the same text, character for character, at every precision the API writes', () => {
    for (const decimals of [0, 3, 6, 7, 9, 12]) {
      const wkt = boundary(2_000, decimals);
      expect(unpackWkt(packWkt(wkt))).toBe(wkt);
    }
    for (const wkt of [
      'POLYGON((0 0,1 0,1 1,0 1,0 0))',
      'POLYGON((-180 -90,180 -90,180 90,-180 90,-180 -90),(1e-7 2e-7,0.5 1e-7,0.5 0.5,1e-7 2e-7))',
      'MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((2 2,3 2,3 3,2 2),(2.1 2.1,2.2 2.1,2.2 2.2,2.1 2.1)))',
      'POLYGON((-60.123456789012 -33.987654321098,-60.1 -33.9,-60.2 -33.9,-60.123456789012 -33.987654321098))',
    ]) {
      expect(unpackWkt(packWkt(wkt))).toBe(wkt);
    }
  });

  it('keeps text it cannot pack as numbers (deflated as text), still losslessly', () => {
    for (const wkt of [
      'POINT(1 2)',
      'POLYGON Z((0 0 1,1 0 1,1 1 1,0 0 1))',
      'POLYGON((0 0,1.0000000000001 0,1 1,0 0))',
    ]) {
      expect(unpackWkt(packWkt(wkt))).toBe(wkt);
    }
  });

  it("holds a 50,000-vertex boundary in a fraction of DynamoDB's 400 KB item, even at 12 decimals", () => {
    for (const [decimals, bound] of [
      [8, 250_000],
      [12, 380_000],
    ] as const) {
      const wkt = boundary(50_000, decimals);
      expect(wkt.length).toBeGreaterThan(1_000_000);
      const packed = packWkt(wkt);
      expect(packed.byteLength, `${decimals} decimals`).toBeLessThan(bound);
      expect(unpackWkt(packed)).toBe(wkt);
    }
  });
});
