// The bounds of a layer file and the form of its statistics (lib/imagery/layer-file.ts), apart so
// that the route schemas use them without bundling the readers.
export const LAYER_FILE_LIMITS = {
  /** The zip as sent (a Lambda request carries 6 MB, base64 takes 4/3). */
  FILE_BYTES: 4 * 1024 * 1024,
  ZIP_ENTRIES: 100,
  /** The entries' declared sizes, all together. */
  UNZIPPED_BYTES: 64 * 1024 * 1024,
  /** Points or polygons in the file. */
  FEATURES: 200_000,
  /** Polygon vertices in the file. */
  VERTICES: 1_000_000,
  /** Numeric columns kept. */
  COLUMNS: 100,
  /** A table's text (.csv, .txt), an .xls, or one XML part of an .xlsx, uncompressed. */
  TABLE_BYTES: 16 * 1024 * 1024,
  /** A .shp: 1,000,000 vertices at 16 bytes and 200,000 shapes' headers fit in it. */
  SHP_BYTES: 32 * 1024 * 1024,
  /** Columns of a table (a row with more is refused as it is read). */
  TABLE_COLUMNS: 1_000,
  /** Cells of every table together (rows x columns, or a shapefile's records x fields), counted as they are read. */
  CELLS: 2_000_000,
  /** Shared strings (and rich-text runs) of an .xlsx: a WKT a row at most. */
  SHARED_STRINGS: 200_000,
  /** Rings of one shape of a shapefile. */
  RINGS_PER_SHAPE: 1_000,
} as const;

/** The percentiles of a column's statistics. */
export const PERCENTILES = [1, 5, 10, 25, 50, 75, 90, 95, 99] as const;
/** Bins of a column's histogram. */
export const HISTOGRAM_BINS = 20;
