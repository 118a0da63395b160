// Interpolating points onto a grid (docs/imagery.md, "Layers from files"): ordinary kriging with a
// fitted variogram, and inverse distance weighting. Written here because the npm kriging packages
// are not ordinary kriging (../shared/LIBRARIES.md). Coordinates are projected metres.
//
// Ordinary kriging: the estimate at x0 is sum(w_i z_i) over the k nearest points, with weights from
//   [ C  1 ] [ w ]   [ c0 ]
//   [ 1' 0 ] [ mu] = [ 1  ]
// where C holds the covariances between the points and c0 those to x0 (covariance = sill - variogram),
// so the weights sum to one (unbiasedness). The variogram is fitted to the empirical one by weighted
// least squares for each model (spherical, exponential, gaussian, each with a nugget) over a range
// of ranges; the best fit wins.
import { type Grid, ringBounds } from './grid';

export interface Sample {
  x: number;
  y: number;
  value: number;
}

export type VariogramModel = 'spherical' | 'exponential' | 'gaussian';

export interface Variogram {
  model: VariogramModel;
  nugget: number;
  /** Partial sill: the sill is nugget + partialSill. */
  partialSill: number;
  range: number;
  /** Weighted squared error of the fit (for comparing models). */
  error: number;
}

export interface Lag {
  distance: number;
  gamma: number;
  pairs: number;
}

/** Where the target cells are: the centres of a grid's pixels (its EPSG is the points'). */
export type CellGrid = Omit<Grid, 'epsg'>;

export const KRIGING = {
  /** Neighbours of each estimate. */
  NEIGHBOURS: 16,
  /** Lags of the empirical variogram. */
  LAGS: 15,
  /** Points the empirical variogram is computed from (a deterministic subsample beyond). */
  VARIOGRAM_POINTS: 1500,
  /** Ranges tried per model, from the first lag to 1.5 x the largest lag distance. */
  RANGES: 40,
} as const;

const MODELS: Record<VariogramModel, (h: number, range: number) => number> = {
  spherical: (h, a) => (h >= a ? 1 : 1.5 * (h / a) - 0.5 * (h / a) ** 3),
  exponential: (h, a) => 1 - Math.exp((-3 * h) / a),
  gaussian: (h, a) => 1 - Math.exp((-3 * h * h) / (a * a)),
};

export const variogramAt = (v: Pick<Variogram, 'model' | 'nugget' | 'partialSill' | 'range'>, h: number): number =>
  h === 0 ? 0 : v.nugget + v.partialSill * MODELS[v.model](h, v.range);

/** Points averaged per cell of the grid (dense files: a yield monitor logs a point a second); points outside are dropped. */
export function averageByCell(points: readonly Sample[], grid: CellGrid): Sample[] {
  const pixelY = grid.pixelY ?? grid.pixel;
  const sums = new Map<number, { x: number; y: number; value: number; n: number }>();
  for (const p of points) {
    const col = Math.floor((p.x - grid.x0) / grid.pixel);
    const row = Math.floor((grid.y0 - p.y) / pixelY);
    if (col < 0 || row < 0 || col >= grid.width || row >= grid.height || !Number.isFinite(p.value)) continue;
    const key = row * grid.width + col;
    const sum = sums.get(key);
    if (sum) {
      sum.x += p.x;
      sum.y += p.y;
      sum.value += p.value;
      sum.n += 1;
    } else sums.set(key, { x: p.x, y: p.y, value: p.value, n: 1 });
  }
  return [...sums.values()].map((s) => ({ x: s.x / s.n, y: s.y / s.n, value: s.value / s.n }));
}

/** Exact duplicates of position averaged into one point (they would make the kriging system singular). */
export function mergeDuplicates(points: readonly Sample[]): Sample[] {
  const byPlace = new Map<string, { p: Sample; n: number }>();
  for (const p of points) {
    const key = `${p.x},${p.y}`;
    const found = byPlace.get(key);
    if (found) {
      found.p.value += p.value;
      found.n += 1;
    } else byPlace.set(key, { p: { ...p }, n: 1 });
  }
  return [...byPlace.values()].map(({ p, n }) => ({ ...p, value: p.value / n }));
}

/** [minX, minY, maxX, maxY] of the points. */
function extentOf(points: readonly Sample[]): [number, number, number, number] {
  return ringBounds([points.map((p) => [p.x, p.y] as [number, number])]);
}

/** Every `step`-th point, so that at most `max` remain (deterministic). */
function subsample(points: readonly Sample[], max: number): readonly Sample[] {
  if (points.length <= max) return points;
  const step = points.length / max;
  return Array.from({ length: max }, (_, i) => points[Math.floor(i * step)]!);
}

/** The empirical (Matheron) semivariogram in equal lags up to half the points' bounding diagonal. */
export function empiricalVariogram(points: readonly Sample[], lags: number = KRIGING.LAGS): Lag[] {
  const sample = subsample(points, KRIGING.VARIOGRAM_POINTS);
  const [minX, minY, maxX, maxY] = extentOf(sample);
  const maxDistance = Math.hypot(maxX - minX, maxY - minY) / 2;
  if (!(maxDistance > 0)) return [];
  const width = maxDistance / lags;
  const sums = new Float64Array(lags);
  const distances = new Float64Array(lags);
  const counts = new Float64Array(lags);
  for (let i = 0; i < sample.length; i++) {
    const a = sample[i]!;
    for (let j = i + 1; j < sample.length; j++) {
      const b = sample[j]!;
      const h = Math.hypot(a.x - b.x, a.y - b.y);
      if (h === 0 || h > maxDistance) continue;
      const lag = Math.min(lags - 1, Math.floor(h / width));
      const d = a.value - b.value;
      sums[lag] = sums[lag]! + (d * d) / 2;
      distances[lag] = distances[lag]! + h;
      counts[lag] = counts[lag]! + 1;
    }
  }
  const out: Lag[] = [];
  for (let k = 0; k < lags; k++) {
    if (counts[k]! > 0)
      out.push({ distance: distances[k]! / counts[k]!, gamma: sums[k]! / counts[k]!, pairs: counts[k]! });
  }
  return out;
}

/**
 * The best of the three models (each with a nugget) for the empirical variogram: for each model and
 * range, nugget and partial sill by weighted least squares (weights: pairs per lag), both kept >= 0.
 */
export function fitVariogram(lags: readonly Lag[]): Variogram | undefined {
  if (lags.length < 2) return undefined;
  const maxLag = lags[lags.length - 1]!.distance;
  const minLag = lags[0]!.distance;
  let best: Variogram | undefined;
  for (const model of Object.keys(MODELS) as VariogramModel[]) {
    for (let r = 0; r < KRIGING.RANGES; r++) {
      const range = minLag + ((1.5 * maxLag - minLag) * r) / (KRIGING.RANGES - 1);
      if (!(range > 0)) continue;
      // gamma = nugget + partialSill * f(h): weighted linear least squares in (nugget, partialSill)
      let sw = 0,
        sf = 0,
        sff = 0,
        sg = 0,
        sfg = 0;
      for (const lag of lags) {
        const f = MODELS[model](lag.distance, range);
        const w = lag.pairs;
        sw += w;
        sf += w * f;
        sff += w * f * f;
        sg += w * lag.gamma;
        sfg += w * f * lag.gamma;
      }
      const det = sw * sff - sf * sf;
      let nugget = det > 1e-12 * sw * sff ? (sg * sff - sf * sfg) / det : 0;
      let partialSill = det > 1e-12 * sw * sff ? (sw * sfg - sf * sg) / det : sff > 0 ? sfg / sff : 0;
      if (nugget < 0) {
        nugget = 0;
        partialSill = sff > 0 ? sfg / sff : 0;
      }
      if (partialSill < 0) {
        partialSill = 0;
        nugget = sg / sw;
      }
      let error = 0;
      for (const lag of lags) {
        const d = nugget + partialSill * MODELS[model](lag.distance, range) - lag.gamma;
        error += lag.pairs * d * d;
      }
      if (!best || error < best.error) best = { model, nugget, partialSill, range, error };
    }
  }
  return best;
}

// --- neighbours ---------------------------------------------------------------------------------

/** Points bucketed on a square grid, for the k nearest of any place. */
export class PointIndex {
  private readonly size: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly minX: number;
  private readonly minY: number;
  private readonly buckets: number[][];

  constructor(readonly points: readonly Sample[]) {
    const [minX, minY, maxX, maxY] = extentOf(points);
    const span = Math.max(maxX - minX, maxY - minY, 1e-9);
    // about two points per bucket
    this.size = Math.max(span / Math.max(1, Math.sqrt(points.length / 2)), 1e-9);
    this.cols = Math.floor((maxX - minX) / this.size) + 1;
    this.rows = Math.floor((maxY - minY) / this.size) + 1;
    this.minX = minX;
    this.minY = minY;
    this.buckets = Array.from({ length: this.cols * this.rows }, () => []);
    points.forEach((p, i) => {
      this.buckets[this.bucketRow(p.y) * this.cols + this.bucketCol(p.x)]!.push(i);
    });
  }

  private bucketCol(x: number): number {
    return Math.max(0, Math.min(this.cols - 1, Math.floor((x - this.minX) / this.size)));
  }

  private bucketRow(y: number): number {
    return Math.max(0, Math.min(this.rows - 1, Math.floor((y - this.minY) / this.size)));
  }

  /** Indices of the k nearest points to (x, y), nearest first, and their distances. */
  nearest(x: number, y: number, k: number): { index: number[]; distance: number[] } {
    k = Math.min(k, this.points.length);
    const index: number[] = [];
    const distance: number[] = [];
    const insert = (i: number, d: number) => {
      if (index.length === k && d >= distance[k - 1]!) return;
      let at = index.length === k ? k - 1 : index.length;
      if (index.length < k) {
        index.push(i);
        distance.push(d);
      }
      while (at > 0 && distance[at - 1]! > d) {
        index[at] = index[at - 1]!;
        distance[at] = distance[at - 1]!;
        at--;
      }
      index[at] = i;
      distance[at] = d;
    };
    const cc = Math.floor((x - this.minX) / this.size);
    const cr = Math.floor((y - this.minY) / this.size);
    const maxRing = Math.max(this.cols, this.rows) + Math.abs(cc) + Math.abs(cr) + 1;
    for (let ring = 0; ring <= maxRing; ring++) {
      // every point of rings beyond is at least (ring - 1) buckets away
      if (index.length === k && (ring - 1) * this.size > distance[k - 1]!) break;
      for (let r = cr - ring; r <= cr + ring; r++) {
        if (r < 0 || r >= this.rows) continue;
        const edge = r === cr - ring || r === cr + ring;
        for (let c = cc - ring; c <= cc + ring; c += edge ? 1 : 2 * ring || 1) {
          if (c < 0 || c >= this.cols) continue;
          for (const i of this.buckets[r * this.cols + c]!) {
            const p = this.points[i]!;
            insert(i, Math.hypot(p.x - x, p.y - y));
          }
        }
      }
    }
    return { index, distance };
  }
}

// --- estimates ----------------------------------------------------------------------------------

/** Solves a x = b in place (Gaussian elimination, partial pivoting); false when singular. */
function solve(a: Float64Array, b: Float64Array, n: number): boolean {
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * n + col]!) > Math.abs(a[pivot * n + col]!)) pivot = r;
    if (Math.abs(a[pivot * n + col]!) < 1e-300) return false;
    if (pivot !== col) {
      for (let c = 0; c < n; c++) {
        const t = a[col * n + c]!;
        a[col * n + c] = a[pivot * n + c]!;
        a[pivot * n + c] = t;
      }
      const t = b[col]!;
      b[col] = b[pivot]!;
      b[pivot] = t;
    }
    const p = a[col * n + col]!;
    for (let r = col + 1; r < n; r++) {
      const f = a[r * n + col]! / p;
      if (f === 0) continue;
      for (let c = col; c < n; c++) a[r * n + c]! -= f * a[col * n + c]!;
      b[r]! -= f * b[col]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let c = r + 1; c < n; c++) s -= a[r * n + c]! * b[c]!;
    b[r] = s / a[r * n + r]!;
  }
  return true;
}

export type Estimator = (x: number, y: number) => number;

/** Inverse distance weighting (power 2) over the k nearest points; a point's own place takes its value. */
export function idwEstimator(points: readonly Sample[], k: number = KRIGING.NEIGHBOURS): Estimator {
  const index = new PointIndex(points);
  return (x, y) => {
    const near = index.nearest(x, y, k);
    let sw = 0;
    let sv = 0;
    for (let i = 0; i < near.index.length; i++) {
      const d = near.distance[i]!;
      const value = points[near.index[i]!]!.value;
      if (d < 1e-9) return value;
      const w = 1 / (d * d);
      sw += w;
      sv += w * value;
    }
    return sv / sw;
  };
}

/** Ordinary kriging over the k nearest points with a fitted variogram (the estimate at a sample is the sample). */
export function krigingEstimator(
  points: readonly Sample[],
  variogram: Variogram,
  k: number = KRIGING.NEIGHBOURS,
): Estimator {
  const index = new PointIndex(points);
  const sill = variogram.nugget + variogram.partialSill;
  // a small diagonal term keeps the gaussian model's nearly singular systems solvable
  const jitter = sill * 1e-9;
  const covariance = (h: number) => sill - variogramAt(variogram, h);
  const fallback = idwEstimator(points, k);
  const size = Math.min(k, points.length) + 1;
  const matrix = new Float64Array(size * size);
  const rhs = new Float64Array(size);
  return (x, y) => {
    const near = index.nearest(x, y, k);
    const m = near.index.length;
    if (near.distance[0]! < 1e-9) return points[near.index[0]!]!.value;
    if (m === 1) return points[near.index[0]!]!.value;
    const n = m + 1;
    const a = matrix.subarray(0, n * n).fill(0);
    const b = rhs.subarray(0, n);
    for (let i = 0; i < m; i++) {
      const p = points[near.index[i]!]!;
      for (let j = i; j < m; j++) {
        const q = points[near.index[j]!]!;
        const c = i === j ? sill + jitter : covariance(Math.hypot(p.x - q.x, p.y - q.y));
        a[i * n + j] = c;
        a[j * n + i] = c;
      }
      a[i * n + m] = 1;
      a[m * n + i] = 1;
      b[i] = covariance(near.distance[i]!);
    }
    b[m] = 1;
    if (!solve(a, b, n)) return fallback(x, y);
    let estimate = 0;
    for (let i = 0; i < m; i++) estimate += b[i]! * points[near.index[i]!]!.value;
    return estimate;
  };
}

export type Interpolation = 'kriging' | 'idw';

/**
 * The estimator for a set of points: constant for one point or equal values; kriging with the
 * fitted variogram when asked and a variogram can be fitted (at least 3 places at distinct
 * distances), else inverse distance weighting. Duplicated places are averaged first.
 */
export function estimatorFor(
  raw: readonly Sample[],
  interpolation: Interpolation,
): { estimate: Estimator; method: Interpolation | 'constant'; variogram?: Variogram } {
  const points = mergeDuplicates(
    raw.filter((p) => Number.isFinite(p.value) && Number.isFinite(p.x) && Number.isFinite(p.y)),
  );
  if (points.length === 0) throw new Error('no points to interpolate');
  const first = points[0]!.value;
  if (points.length === 1 || points.every((p) => p.value === first))
    return { estimate: () => first, method: 'constant' };
  if (interpolation === 'kriging' && points.length >= 3) {
    const variogram = fitVariogram(empiricalVariogram(points));
    if (variogram && variogram.nugget + variogram.partialSill > 0) {
      return { estimate: krigingEstimator(points, variogram), method: 'kriging', variogram };
    }
  }
  return { estimate: idwEstimator(points), method: 'idw' };
}

/** The estimate at each cell centre of the grid where `inside` (when given) is set; NaN elsewhere. */
export function interpolateGrid(estimate: Estimator, grid: CellGrid, inside?: Uint8Array): Float32Array {
  const pixelY = grid.pixelY ?? grid.pixel;
  const out = new Float32Array(grid.width * grid.height).fill(NaN);
  for (let row = 0; row < grid.height; row++) {
    const y = grid.y0 - (row + 0.5) * pixelY;
    for (let col = 0; col < grid.width; col++) {
      const i = row * grid.width + col;
      if (inside && !inside[i]) continue;
      out[i] = estimate(grid.x0 + (col + 0.5) * grid.pixel, y);
    }
  }
  return out;
}

/** Leave-one-out: each point estimated from the others; root mean square and mean absolute error. */
export function leaveOneOut(
  points: readonly Sample[],
  build: (others: Sample[]) => Estimator,
): { rmse: number; mae: number } {
  let se = 0;
  let ae = 0;
  points.forEach((p, i) => {
    const estimate = build(points.filter((_, j) => j !== i));
    const d = estimate(p.x, p.y) - p.value;
    se += d * d;
    ae += Math.abs(d);
  });
  return { rmse: Math.sqrt(se / points.length), mae: ae / points.length };
}
