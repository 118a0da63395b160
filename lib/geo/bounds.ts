// Bounding boxes and number formatting for WKT output; no geometry library needed.

export type Bounds = [number, number, number, number];

/** Numbers as WKT writes them: no trailing float noise (12 decimals at most). */
export const formatNumber = (value: number): string => String(Number(value.toFixed(12)));

export const unionBounds = (list: Bounds[]): Bounds | undefined =>
  list.length === 0
    ? undefined
    : list.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);

export const boundsToWkt = ([minX, minY, maxX, maxY]: Bounds): string => {
  const n = formatNumber;
  return `POLYGON((${n(minX)} ${n(minY)},${n(maxX)} ${n(minY)},${n(maxX)} ${n(maxY)},${n(minX)} ${n(maxY)},${n(minX)} ${n(minY)}))`;
};

/** The largest body of a request that carries a detailed boundary (fields, season shapes): 50,000 vertices at full precision, form-encoded, with room. */
export const GEOMETRY_ROUTE_MAX_BYTES = 4 * 1024 * 1024;
