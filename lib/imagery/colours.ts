// The colour scale of rendered layers (GET /api/geoserver/v2 as PNG; docs/imagery.md, Rendering):
// each index's value range and the red-to-green stops. Plain data and arithmetic, no Node import:
// the renderer (render.ts) colours pixels with it and the web console (console/) draws the
// legend of the same scale from it.
import type { IndexOperation } from './layers';

/** A value range: of the colour scale, or of the 16 bits of an encoded PNG. */
export interface ValueRange {
  min: number;
  max: number;
}

/** Colour scale of each index: value range and colour stops (red to green). */
export const COLOUR_SCALES: Record<IndexOperation, ValueRange> = {
  ndvi1: { min: 0, max: 1 },
  gndvi1: { min: 0, max: 1 },
  msavi2: { min: 0, max: 1 },
  ndre: { min: 0, max: 0.6 },
};
/** The range the encoded PNG of an index carries. */
export const INDEX_RANGE: ValueRange = { min: -1, max: 1 };
/** The scale's colours, evenly spaced from its range's minimum to its maximum. */
export const COLOUR_STOPS: ReadonlyArray<readonly [number, number, number]> = [
  [165, 0, 38],
  [244, 109, 67],
  [254, 224, 139],
  [217, 239, 139],
  [102, 189, 99],
  [0, 104, 55],
];

/** The colour of `value` on the red-to-green scale stretched over `range`. */
export function colourIn(range: ValueRange, value: number): [number, number, number] {
  const span = range.max - range.min || 1;
  const t = Math.max(0, Math.min(1, (value - range.min) / span)) * (COLOUR_STOPS.length - 1);
  const i = Math.min(COLOUR_STOPS.length - 2, Math.floor(t));
  const f = t - i;
  const [a, b] = [COLOUR_STOPS[i]!, COLOUR_STOPS[i + 1]!];
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * f)) as [number, number, number];
}

export const colourOf = (operation: IndexOperation, value: number): [number, number, number] =>
  colourIn(COLOUR_SCALES[operation], value);
