// The bound of a field's imagery grid (lib/imagery/grid-bound.ts, docs/decisions.md, Bounds):
// creation checks a polygon's extent without projecting, and must never accept a polygon whose
// grid (lib/imagery/field-grid.ts, projected with proj4) the imagery jobs then refuse.
import { describe, expect, it } from 'vitest';
import { geometryKit } from '../../lib/geo/geometry';
import { fieldGrid } from '../../lib/imagery/field-grid';
import {
  extentRefusal,
  gridFits,
  gridPixelsAtMost,
  MAX_DIAGONAL_M,
  MAX_GRID_PIXELS,
} from '../../lib/imagery/grid-bound';
import { seededRandom } from '../helpers/random';

const bounds = (points: number[][]): [number, number, number, number] => [
  Math.min(...points.map((p) => p[0]!)),
  Math.min(...points.map((p) => p[1]!)),
  Math.max(...points.map((p) => p[0]!)),
  Math.max(...points.map((p) => p[1]!)),
];
const wkt = (points: number[][]) => `POLYGON((${[...points, points[0]!].map((p) => p.join(' ')).join(',')}))`;

describe('the imagery grid bound', () => {
  it(`refuses the 7.5 ha sliver 0.75 degrees a side (a 56-megapixel grid), accepts a 10,000 ha square (${MAX_GRID_PIXELS} pixels at most)`, async () => {
    const sliver = [
      [-61, -34],
      [-60.25, -33.25],
      [-60.25, -33.24999],
      [-61, -33.99999],
    ];
    const kit = await geometryKit();
    const grid = await fieldGrid(kit, wkt(sliver));
    expect(grid.width * grid.height).toBeGreaterThan(50_000_000);
    expect(gridFits(grid)).toBe(false);
    expect(extentRefusal(bounds(sliver))).toMatch(/imagery grid would pass 4000000 pixels/);
    const side = 0.0899; // ~10 km at the equator: 10,000 ha
    const square = [
      [-60, 0],
      [-60 + side, 0],
      [-60 + side, side],
      [-60, side],
    ];
    expect(kit.areaHectares(kit.readWkt(wkt(square)))).toBeGreaterThan(9_900);
    expect(extentRefusal(bounds(square))).toBeUndefined();
    expect(gridFits(await fieldGrid(kit, wkt(square)))).toBe(true);
    expect(MAX_DIAGONAL_M).toBeGreaterThan(19_000);
  });

  it('never accepts at creation a polygon whose grid the jobs refuse: the bound from the box is above the projected grid', async () => {
    const kit = await geometryKit();
    const next = seededRandom(46);
    for (let i = 0; i < 300; i++) {
      // boxes near the limit, anywhere in a UTM zone (its edges too), at every latitude fields have
      const lon = -180 + next() * 360;
      const lat = -60 + next() * 130;
      const diagonalDeg = (MAX_DIAGONAL_M / 111_000) * (0.5 + next());
      const angle = next() * Math.PI * 2;
      const dx = (Math.cos(angle) * diagonalDeg) / Math.max(0.2, Math.cos((lat * Math.PI) / 180));
      const dy = Math.sin(angle) * diagonalDeg;
      const points = [
        [lon, lat],
        [lon + dx, lat + dy],
        [lon + dx + 1e-4, lat + dy + 1e-4],
        [lon + 1e-4, lat + 2e-4],
      ];
      const grid = await fieldGrid(kit, wkt(points));
      expect(gridPixelsAtMost(bounds(points))).toBeGreaterThanOrEqual(grid.width * grid.height);
      if (extentRefusal(bounds(points)) === undefined) expect(gridFits(grid)).toBe(true);
    }
  });
});
