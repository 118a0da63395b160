// Layer files (spec 2, "Creating a layer from a file", step 1; docs/imagery.md "Layers from files"):
// a zip of a shapefile, csv, txt or xlsx becomes features (points or polygons in EPSG 4326) with
// the values of their numeric columns; then the column statistics and histograms. The zip is
// untrusted: sizes, entries, names, rows and vertices are bounded, and every refusal is
// ERROR_ARCHIVO.
import { Invalid } from '../errors';
import { type GeometryKit, geometryKit } from '../geo/geometry';
import { shapefileReader } from '../geo/readers';
import type { DelimitedReader } from '../util/delimited';
import { onFirstUse } from '../util/first-use';
import { isZip, unzipper } from '../util/zip';
import { LAYER_FILE_LIMITS } from './layer-limits';
import type { LayerFeature, LayerTable } from './layer-table';

export type { LayerFeature, LayerTable };
export { LAYER_FILE_LIMITS };

type Position = [number, number];

export const FILE_ERROR = 'ERROR_ARCHIVO';
export const fileError = (message: string) => new Invalid(message, { code: FILE_ERROR });

const LAT = ['lat', 'latitude', 'latitud', 'y', 'lat_deg', 'latitude_deg', 'coord_y', 'northing'];
const LON = ['lon', 'long', 'lng', 'longitude', 'longitud', 'x', 'lon_deg', 'longitude_deg', 'coord_x', 'easting'];
const WKT = ['wkt', 'geometry', 'geom', 'the_geom', 'geometria', 'shape'];
const TABLES = ['.csv', '.txt', '.xlsx', '.xls'];
/** Share of a column's non-empty cells that must be numbers for it to be a numeric column. */
const NUMERIC_SHARE = 0.8;

/** The features of a layer file; ERROR_ARCHIVO when the file is not a zip or holds no usable geometry. */
export async function readLayerFile(content: Buffer): Promise<LayerTable> {
  if (content.length === 0) throw fileError('the file is empty');
  if (content.length > LAYER_FILE_LIMITS.FILE_BYTES)
    throw fileError(`the file is larger than ${LAYER_FILE_LIMITS.FILE_BYTES / 1024 / 1024} MiB`);
  if (!isZip(content)) throw fileError('the file is not a zip');
  const entries = (await unzipper()).unzipBounded(
    content,
    { entries: LAYER_FILE_LIMITS.ZIP_ENTRIES, bytes: LAYER_FILE_LIMITS.UNZIPPED_BYTES },
    fileError,
  );
  const names = Object.keys(entries);
  let table: LayerTable;
  if (names.some((name) => name.toLowerCase().endsWith('.shp'))) {
    table = fromRecords(
      (await shapefileReader())
        .readShapefiles(entries, fileError)
        .map((f) => ({ geometry: f.geometry, properties: f.properties })),
    );
  } else {
    const tables = names.filter((name) => TABLES.some((ext) => name.toLowerCase().endsWith(ext))).sort();
    if (!tables.length) throw fileError('the zip holds no shapefile, csv, txt or xlsx');
    const geometry = await geometryKit();
    const read: LayerTable[] = [];
    for (const name of tables) read.push(fromRows(geometry, await rowsOf(name, entries[name]!))); // in order: the first bad entry is the one refused
    table = mergeTables(read);
  }
  if (!table.features.length) throw fileError('the file holds no point or polygon with valid coordinates');
  return table;
}

// --- tables -----------------------------------------------------------------------------------

const isSheet = (name: string) => /\.xlsx?$/i.test(name);
const sheetReader = /* @__PURE__ */ onFirstUse(() => import('./layer-sheet'));
const textReader = /* @__PURE__ */ onFirstUse(() => import('../util/delimited'));

/** The rows of a table entry: a sheet's through SheetJS, a text's delimited (each reader loaded on first use). */
async function rowsOf(name: string, bytes: Uint8Array): Promise<unknown[][]> {
  if (isSheet(name)) return (await sheetReader()).sheetRows(name, bytes, fileError);
  return textRows(await textReader(), bytes);
}

/**
 * Rows of a table's text, cells trimmed: delimited (lib/util/delimited.ts: the delimiter of , ; tab |
 * that splits the rows consistently, quotes honoured), else split at runs of spaces.
 */
export function textRows({ decodeText, delimitedRows }: DelimitedReader, bytes: Uint8Array): string[][] {
  const text = decodeText(bytes);
  const read = delimitedRows(text, LAYER_FILE_LIMITS.FEATURES + 1);
  if (read.truncated) throw fileError(`a table holds more than ${LAYER_FILE_LIMITS.FEATURES} rows`);
  if (read.delimiter === undefined)
    return text
      .split(/\r\n|\n|\r/)
      .filter((line) => line.trim() !== '')
      .map((line) => line.trim().split(/\s+/));
  return read.rows.map((row) => row.map((cell) => cell.trim()));
}

/** A cell as a number: numbers, and text like 12.5, -3, 1e3 or 12,5 (decimal comma). */
export function numberOf(cell: unknown): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell !== 'string') return null;
  const text = cell.trim();
  if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)(e[-+]?\d+)?$/i.test(text)) return null;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) ? value : null;
}

const findColumn = (header: string[], names: string[]): number => {
  const lower = header.map((h) => h.toLowerCase().replace(/["']/g, '').trim());
  for (const name of names) {
    const at = lower.indexOf(name);
    if (at >= 0) return at;
  }
  return -1;
};

/** The numeric columns among `candidates` (indices), by the cells of the rows. */
function numericColumns(
  candidates: number[],
  cellOf: (row: number, column: number) => unknown,
  rows: number,
): number[] {
  return candidates.filter((column) => {
    let filled = 0;
    let numeric = 0;
    for (let r = 0; r < rows; r++) {
      const cell = cellOf(r, column);
      if (cell === null || cell === undefined || cell === '') continue;
      filled += 1;
      if (numberOf(cell) !== null) numeric += 1;
    }
    return numeric > 0 && numeric >= NUMERIC_SHARE * filled;
  });
}

/** Features of a table: coordinates from lat/lon columns (usual names) or a WKT column; the other numeric columns as values. */
function fromRows(kit: GeometryKit, rows: unknown[][]): LayerTable {
  const headerAt = rows.findIndex(
    (row) => row.filter((cell) => cell !== null && String(cell).trim() !== '').length >= 2,
  );
  if (headerAt < 0) return { columns: [], features: [] };
  const header = rows[headerAt]!.map((cell, i) =>
    cell === null || String(cell).trim() === '' ? `column_${i + 1}` : String(cell).trim(),
  );
  const body = rows.slice(headerAt + 1);
  const wkt = findColumn(header, WKT);
  const lat = findColumn(header, LAT);
  const lon = findColumn(header, LON);
  if (wkt < 0 && (lat < 0 || lon < 0))
    throw fileError(
      'a table needs latitude and longitude columns (lat/latitude/y, lon/long/lng/longitude/x) or a WKT column',
    );
  const skip = new Set([wkt, lat, lon]);
  const candidates = header.map((_, i) => i).filter((i) => !skip.has(i));
  const columns = numericColumns(candidates, (r, c) => body[r]![c], body.length).slice(0, LAYER_FILE_LIMITS.COLUMNS);
  const features: LayerFeature[] = [];
  let vertices = 0;
  for (const row of body) {
    const values = columns.map((c) => numberOf(row[c]));
    if (wkt >= 0 && typeof row[wkt] === 'string' && row[wkt]) {
      const geometry = geometryOfWkt(kit, row[wkt] as string);
      if (!geometry) continue;
      vertices += geometry.polygon ? geometry.polygon.flat().length : 1;
      if (vertices > LAYER_FILE_LIMITS.VERTICES)
        throw fileError(`the file holds more than ${LAYER_FILE_LIMITS.VERTICES} vertices`);
      features.push({ ...geometry, values });
    } else if (lat >= 0 && lon >= 0) {
      const point: Position = [numberOf(row[lon]) ?? NaN, numberOf(row[lat]) ?? NaN];
      if (validPosition(point)) features.push({ point, values });
    }
  }
  return { columns: columns.map((c) => header[c]!), features };
}

const validPosition = ([x, y]: number[]): boolean =>
  Number.isFinite(x) && Number.isFinite(y) && Math.abs(x!) <= 180 && Math.abs(y!) <= 90;

function geometryOfWkt(
  { parseGeometry, toGeoJson }: GeometryKit,
  text: string,
): Pick<LayerFeature, 'point' | 'polygon'> | undefined {
  try {
    return geometryOf(toGeoJson(parseGeometry(text, ['Point', 'Polygon', 'MultiPolygon'])));
  } catch {
    return undefined; // an unreadable or invalid row is left out, like a row without coordinates
  }
}

/** A GeoJSON Point, Polygon or MultiPolygon as a feature's geometry; anything else undefined. */
function geometryOf(
  geometry: { type: string; coordinates?: unknown } | null,
): Pick<LayerFeature, 'point' | 'polygon'> | undefined {
  if (!geometry) return undefined;
  if (geometry.type === 'Point') {
    const point = (geometry.coordinates as number[]).slice(0, 2) as Position;
    return validPosition(point) ? { point } : undefined;
  }
  const polygons =
    geometry.type === 'Polygon'
      ? [geometry.coordinates as Position[][]]
      : geometry.type === 'MultiPolygon'
        ? (geometry.coordinates as Position[][][])
        : undefined;
  if (!polygons) return undefined;
  const polygon = polygons.map((rings) => rings.map((ring) => ring.map((p) => [p[0]!, p[1]!] as Position)));
  return polygon.flat(2).every(validPosition) && polygon.length ? { polygon } : undefined;
}

/** Features of shapefile records: each numeric attribute a column. */
function fromRecords(
  records: Array<{ geometry: { type: string; coordinates?: unknown } | null; properties: Record<string, unknown> }>,
): LayerTable {
  if (records.length > LAYER_FILE_LIMITS.FEATURES)
    throw fileError(`the file holds more than ${LAYER_FILE_LIMITS.FEATURES} features`);
  const names = [...new Set(records.flatMap((r) => Object.keys(r.properties)))];
  const columns = numericColumns(
    names.map((_, i) => i),
    (r, c) => records[r]!.properties[names[c]!],
    records.length,
  )
    .slice(0, LAYER_FILE_LIMITS.COLUMNS)
    .map((c) => names[c]!);
  const features: LayerFeature[] = [];
  let vertices = 0;
  for (const record of records) {
    const geometry = geometryOf(record.geometry);
    if (!geometry) continue;
    vertices += geometry.polygon ? geometry.polygon.flat().length : 1;
    if (vertices > LAYER_FILE_LIMITS.VERTICES)
      throw fileError(`the file holds more than ${LAYER_FILE_LIMITS.VERTICES} vertices`);
    features.push({ ...geometry, values: columns.map((name) => numberOf(record.properties[name])) });
  }
  return { columns, features };
}

/** Several tables as one: the union of their columns (a column a table lacks is null in its rows). */
function mergeTables(tables: LayerTable[]): LayerTable {
  if (tables.length === 1) return tables[0]!;
  const columns = [...new Set(tables.flatMap((t) => t.columns))].slice(0, LAYER_FILE_LIMITS.COLUMNS);
  const features = tables.flatMap((t) =>
    t.features.map((f) => ({
      ...f,
      values: columns.map((name) => (t.columns.includes(name) ? f.values[t.columns.indexOf(name)]! : null)),
    })),
  );
  if (features.length > LAYER_FILE_LIMITS.FEATURES)
    throw fileError(`the file holds more than ${LAYER_FILE_LIMITS.FEATURES} features`);
  return { columns, features };
}
