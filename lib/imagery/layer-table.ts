// The features of a layer file or a sampling (read by layer-file.ts, built by samplings/rasterize.ts)
// and what is computed of them: where each is, their extent, each column's statistics and histogram.
import { ringBounds } from './grid';
import { HISTOGRAM_BINS, PERCENTILES } from './layer-limits';

export { HISTOGRAM_BINS, PERCENTILES };

type Position = [number, number];
/** One point or polygon of the file and its values, one per column (null: empty or not a number). */
export interface LayerFeature {
  point?: Position;
  /** MultiPolygon coordinates (polygons, rings, positions), EPSG 4326. */
  polygon?: Position[][][];
  values: Array<number | null>;
}
export interface LayerTable {
  /** The numeric columns, in file order. */
  columns: string[];
  features: LayerFeature[];
}

// --- places -----------------------------------------------------------------------------------

/** Where a feature is, for matching it to a field: the point, or the mean of its polygon's outer vertices. */
export function placeOf(feature: LayerFeature): Position {
  if (feature.point) return feature.point;
  const outer = feature.polygon!.flatMap((rings) => rings[0]!.slice(0, -1));
  return [outer.reduce((s, p) => s + p[0], 0) / outer.length, outer.reduce((s, p) => s + p[1], 0) / outer.length];
}

/** [minX, minY, maxX, maxY] of every point and vertex. */
export const featureBounds = (features: readonly LayerFeature[]): [number, number, number, number] =>
  ringBounds([features.flatMap((f) => (f.point ? [f.point] : f.polygon!.flat(2)))]);

// --- statistics -------------------------------------------------------------------------------

export interface ColumnStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  /** Population standard deviation. */
  std: number;
  /** p1 ... p99, by linear interpolation between the closest ranks. */
  percentiles: Record<string, number>;
}
export interface Histogram {
  /** HISTOGRAM_BINS + 1 edges from min to max; a value equal to max falls in the last bin. */
  bins: number[];
  counts: number[];
}

const round = (value: number) => Number(value.toPrecision(10));

/** Count, extremes, mean, standard deviation and percentiles of a column's numbers; null when it has none. */
export function columnStats(values: readonly number[]): ColumnStats | null {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  let sum = 0;
  for (const v of sorted) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of sorted) squares += (v - mean) ** 2;
  const percentile = (p: number) => {
    const rank = (p / 100) * (n - 1);
    const low = Math.floor(rank);
    const high = Math.min(n - 1, low + 1);
    return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
  };
  return {
    count: n,
    min: sorted[0]!,
    max: sorted[n - 1]!,
    mean: round(mean),
    std: round(Math.sqrt(squares / n)),
    percentiles: Object.fromEntries(PERCENTILES.map((p) => [`p${p}`, round(percentile(p))])),
  };
}

/** Equal-width bins from min to max (one bin holding everything when all values are equal). */
export function histogramOf(values: readonly number[], bins: number = HISTOGRAM_BINS): Histogram | null {
  if (!values.length) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  if (min === max) return { bins: [min, max], counts: [values.length] };
  const width = (max - min) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - min) / width))]! += 1;
  return { bins: Array.from({ length: bins + 1 }, (_, i) => round(i === bins ? max : min + i * width)), counts };
}

/** The numbers of a column among the features. */
export const columnValues = (
  table: LayerTable,
  column: number,
  features: readonly LayerFeature[] = table.features,
): number[] => features.map((f) => f.values[column]).filter((v): v is number => v !== null && v !== undefined);
