// Ordinary kriging and inverse distance weighting (lib/imagery/kriging.ts): the variogram fit,
// leave-one-out errors on known surfaces, and the degenerate inputs a field file can hold.
import { describe, expect, it } from 'vitest';
import {
  averageByCell,
  empiricalVariogram,
  estimatorFor,
  fitVariogram,
  idwEstimator,
  interpolateGrid,
  krigingEstimator,
  type Lag,
  leaveOneOut,
  PointIndex,
  type Sample,
  type VariogramModel,
  variogramAt,
} from '../../lib/imagery/kriging';
import { seededRandom as random } from '../helpers/random';

const surface = (x: number, y: number) => 10 + 3 * Math.sin(x / 150) + 2 * Math.cos(y / 200) + 0.002 * x;

function samplesOf(n: number, seed = 1, f = surface): Sample[] {
  const next = random(seed);
  return Array.from({ length: n }, () => {
    const x = next() * 1000;
    const y = next() * 1000;
    return { x, y, value: f(x, y) };
  });
}

describe('variogram', () => {
  it.each<VariogramModel>(['spherical', 'exponential', 'gaussian'])(
    'recovers a %s model with a nugget from its own lags',
    (model) => {
      const truth = { model, nugget: 0.5, partialSill: 2, range: 300 };
      const lags: Lag[] = Array.from({ length: 15 }, (_, i) => ({
        distance: 25 + i * 30,
        gamma: variogramAt(truth, 25 + i * 30),
        pairs: 100,
      }));
      const fitted = fitVariogram(lags)!;
      expect(fitted.model).toBe(model);
      expect(fitted.nugget).toBeCloseTo(0.5, 1);
      expect(fitted.nugget + fitted.partialSill).toBeGreaterThan(2.5 * 0.95);
      expect(fitted.nugget + fitted.partialSill).toBeLessThan(2.5 * 1.05);
      expect(Math.abs(fitted.range - 300) / 300).toBeLessThan(0.1);
    },
  );

  it('the empirical variogram grows with distance on a smooth surface, and is zero for equal values', () => {
    const lags = empiricalVariogram(samplesOf(400));
    expect(lags.length).toBeGreaterThan(10);
    expect(lags[lags.length - 1]!.gamma).toBeGreaterThan(lags[0]!.gamma * 5);
    const flat = empiricalVariogram(samplesOf(50, 2, () => 7));
    expect(flat.every((lag) => lag.gamma === 0)).toBe(true);
  });

  it('keeps nugget and partial sill non-negative', () => {
    const noisy = samplesOf(300, 3, (x, y) => (random(Math.floor(x * 1000 + y))() - 0.5) * 4);
    const fitted = fitVariogram(empiricalVariogram(noisy))!;
    expect(fitted.nugget).toBeGreaterThanOrEqual(0);
    expect(fitted.partialSill).toBeGreaterThanOrEqual(0);
  });
});

describe('neighbours', () => {
  it('finds the same k nearest points as a full scan, nearest first', () => {
    const points = samplesOf(500, 4);
    const index = new PointIndex(points);
    const next = random(9);
    for (let t = 0; t < 50; t++) {
      const [x, y] = [next() * 1400 - 200, next() * 1400 - 200];
      const found = index.nearest(x, y, 12);
      const brute = points
        .map((p, i) => ({ i, d: Math.hypot(p.x - x, p.y - y) }))
        .sort((a, b) => a.d - b.d)
        .slice(0, 12);
      expect(found.distance).toEqual(brute.map((b) => b.d));
    }
  });
});

describe('estimates', () => {
  it('kriging reproduces a smooth surface better than inverse distance (leave-one-out)', () => {
    const points = samplesOf(300);
    const variogram = fitVariogram(empiricalVariogram(points))!;
    const kriging = leaveOneOut(points, (others) => krigingEstimator(others, variogram));
    const idw = leaveOneOut(points, (others) => idwEstimator(others));
    expect(kriging.rmse).toBeLessThan(0.15); // the surface spans about 12 units
    expect(kriging.rmse).toBeLessThan(idw.rmse * 0.7);
  });

  it('is exact at the samples and unbiased: a constant plus a trend far from the points stays bounded', () => {
    const points = samplesOf(200, 5);
    const { estimate, method } = estimatorFor(points, 'kriging');
    expect(method).toBe('kriging');
    for (const p of points.slice(0, 20)) expect(estimate(p.x, p.y)).toBeCloseTo(p.value, 9);
    const values = points.map((p) => p.value);
    const far = estimate(5000, 5000);
    expect(far).toBeGreaterThan(Math.min(...values) - 1);
    expect(far).toBeLessThan(Math.max(...values) + 1);
  });

  it('all values equal: the constant everywhere', () => {
    const { estimate, method } = estimatorFor(
      samplesOf(30, 6, () => 4.25),
      'kriging',
    );
    expect(method).toBe('constant');
    expect(estimate(10, 10)).toBe(4.25);
  });

  it('one point: its value everywhere', () => {
    const { estimate } = estimatorFor([{ x: 5, y: 5, value: 3 }], 'kriging');
    expect(estimate(900, -40)).toBe(3);
  });

  it('collinear points: finite estimates within the values on and off the line', () => {
    const line = Array.from({ length: 40 }, (_, i) => ({ x: i * 20, y: 0, value: Math.sin(i / 5) }));
    const { estimate } = estimatorFor(line, 'kriging');
    for (const [x, y] of [
      [100, 0],
      [110, 50],
      [400, -300],
    ] as const) {
      const v = estimate(x, y);
      expect(Number.isFinite(v)).toBe(true);
      expect(Math.abs(v)).toBeLessThanOrEqual(1.5);
    }
  });

  it('duplicated places are averaged, not a singular system', () => {
    const points = samplesOf(100, 7).flatMap((p) => [p, { ...p, value: p.value + 1 }]);
    const { estimate, method } = estimatorFor(points, 'kriging');
    expect(method).toBe('kriging');
    expect(estimate(points[0]!.x, points[0]!.y)).toBeCloseTo(points[0]!.value + 0.5, 9);
    expect(Number.isFinite(estimate(500, 500))).toBe(true);
  });

  it('two points: inverse distance, the nearer weighs more', () => {
    const { estimate, method } = estimatorFor(
      [
        { x: 0, y: 0, value: 0 },
        { x: 100, y: 0, value: 10 },
      ],
      'kriging',
    );
    expect(method).toBe('idw');
    expect(estimate(20, 0)).toBeLessThan(5);
    expect(estimate(50, 0)).toBeCloseTo(5, 9);
  });

  it('no finite point is an error, not a NaN layer', () => {
    expect(() => estimatorFor([{ x: 0, y: 0, value: NaN }], 'idw')).toThrow(/no points/);
  });
});

describe('grids', () => {
  it('averages dense points per cell and fills only the cells inside', () => {
    const grid = { x0: 0, y0: 100, pixel: 10, width: 10, height: 10 };
    const dense = [
      { x: 1, y: 99, value: 2 },
      { x: 9, y: 91, value: 4 },
      { x: 55, y: 45, value: 8 },
      { x: 500, y: 500, value: 100 },
    ];
    const cells = averageByCell(dense, grid);
    expect(cells.map((c) => c.value).sort()).toEqual([3, 8]);
    const inside = new Uint8Array(100);
    inside[0] = 1;
    inside[55] = 1;
    const out = interpolateGrid(idwEstimator(cells), grid, inside);
    expect(out.filter((v) => !Number.isNaN(v)).length).toBe(2);
    expect(out[0]).toBeGreaterThan(3 - 1e-6);
    expect(Number.isNaN(out[1]!)).toBe(true);
  });
});
