// Map types, bounds and the date form of user maps: plain values the schemas read (no geometry library).

export const MAP_TYPES = {
  1: 'zonings',
  2: 'yield',
  3: 'altimetry',
  4: 'nutrients',
  5: 'anomalies',
  6: 'prescription',
} as const;

export const MAP_LIMITS = {
  NAME: 200,
  FEATURES: 500,
  /** Vertices of all the features of a map. */
  VERTICES: 50_000,
  /** The GeoJSON as JSON text (the map is one record of at most 400 KB). */
  GEOJSON_BYTES: 300 * 1024,
  ZONES: 500,
} as const;

/** 'YYYY-MM-DD HH:MM:SS.ffffff' of an ISO instant (microseconds from its milliseconds). */
export const fechaIni = (iso: string): string =>
  `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23).padEnd(3, '0')}000`;
