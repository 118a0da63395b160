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
    {
      entries: LAYER_FILE_LIMITS.ZIP_ENTRIES,
      bytes: LAYER_FILE_LIMITS.UNZIPPED_BYTES,
      entryBytes: (name) =>
        /\.(csv|txt|xls)$/i.test(name)
          ? LAYER_FILE_LIMITS.TABLE_BYTES
          : /\.shp$/i.test(name)
            ? LAYER_FILE_LIMITS.SHP_BYTES
            : undefined,
    },
    fileError,
  );
  const names = Object.keys(entries);
  let table: LayerTable;
  if (names.some((name) => name.toLowerCase().endsWith('.shp'))) {
    table = fromRecords(
      (await shapefileReader())
        .readShapefiles(
          entries,
          {
            records: LAYER_FILE_LIMITS.FEATURES,
            vertices: LAYER_FILE_LIMITS.VERTICES,
            partsPerShape: LAYER_FILE_LIMITS.RINGS_PER_SHAPE,
            cells: LAYER_FILE_LIMITS.CELLS,
          },
          fileError,
        )
        .map((f) => ({ geometry: f.geometry, properties: f.properties })),
    );
  } else {
    const tables = names.filter((name) => TABLES.some((ext) => name.toLowerCase().endsWith(ext))).sort();
    if (!tables.length) throw fileError('the zip holds no shapefile, csv, txt or xlsx');
    const geometry = await geometryKit();
    const read: LayerTable[] = [];
    // rows and cells of every table together, spent as they are read: 17 tables of 200,000 rows
    // are refused in the second, not after all are read
    const budget: TableBudget = { rows: LAYER_FILE_LIMITS.FEATURES, cells: LAYER_FILE_LIMITS.CELLS };
    // the lines of every text table counted on the bytes first (a row is a line in a layer's table)
    let lines = 0;
    for (const name of tables.filter((name) => !isSheet(name))) {
      lines += Math.max(0, linesOf(entries[name]!, LAYER_FILE_LIMITS.FEATURES + tables.length + 1) - 1); // less its header
      if (lines > LAYER_FILE_LIMITS.FEATURES) throw tooManyRows();
    }
    const rows: unknown[][][] = [];
    for (const name of tables) rows.push(await rowsOf(name, entries[name]!, budget)); // every table read before any is interpreted
    for (const tableRows of rows) read.push(fromRows(geometry, tableRows)); // in order: the first bad entry is the one refused
    table = mergeTables(read);
  }
  if (!table.features.length) throw fileError('the file holds no point or polygon with valid coordinates');
  return table;
}

// --- tables -----------------------------------------------------------------------------------

const isSheet = (name: string) => /\.xlsx?$/i.test(name);
const sheetReader = /* @__PURE__ */ onFirstUse(() => import('./layer-sheet'));
const textReader = /* @__PURE__ */ onFirstUse(() => import('../util/delimited'));

/** What the tables of one file may still hold: rows (a header each table) and cells, all tables together. */
export interface TableBudget {
  rows: number;
  cells: number;
}

const tooManyRows = () => fileError(`the tables hold more than ${LAYER_FILE_LIMITS.FEATURES} rows`);
const tooManyColumns = () => fileError(`a table holds more than ${LAYER_FILE_LIMITS.TABLE_COLUMNS} columns`);
const tooManyCells = () => fileError(`the tables hold more than ${LAYER_FILE_LIMITS.CELLS} cells`);

/** The lines of a text (\n, \r\n or \r ending them; a last one without), counted on its bytes up to `limit`. */
function linesOf(content: Uint8Array, limit: number): number {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  let feeds = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0 && feeds <= limit; at = bytes.indexOf(0x0a, at + 1)) feeds += 1;
  let returns = 0;
  if (feeds === 0)
    for (let at = bytes.indexOf(0x0d); at >= 0 && returns <= limit; at = bytes.indexOf(0x0d, at + 1)) returns += 1;
  const breaks = Math.max(feeds, returns);
  const last = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a && bytes[bytes.length - 1] !== 0x0d ? 1 : 0;
  return breaks + last;
}

/** Spends a table's rows and cells from the budget; refused when it has not enough. */
function spend(budget: TableBudget, rows: unknown[][]): void {
  budget.rows -= rows.length;
  budget.cells -= rows.reduce((sum, row) => sum + row.length, 0);
  if (budget.rows < -1) throw tooManyRows(); // one header row may pass: the budget counts features
  if (budget.cells < 0) throw tooManyCells();
}

/** The rows of a table entry: a sheet's through SheetJS, a text's delimited (each reader loaded on first use). */
async function rowsOf(name: string, bytes: Uint8Array, budget: TableBudget): Promise<unknown[][]> {
  const rows = isSheet(name)
    ? await (await sheetReader()).sheetRows(name, bytes, budget, fileError)
    : textRows(await textReader(), bytes, budget);
  spend(budget, rows);
  return rows;
}

/**
 * Rows of a table's text, cells trimmed: delimited (lib/util/delimited.ts: the delimiter of , ; tab |
 * that splits the rows consistently, quotes honoured), else split at runs of spaces. Reading stops
 * at the first row or cell past the budget (or a row of more than TABLE_COLUMNS cells).
 */
export function textRows(
  { decodeText, delimitedRows }: DelimitedReader,
  bytes: Uint8Array,
  budget: TableBudget = { rows: LAYER_FILE_LIMITS.FEATURES, cells: LAYER_FILE_LIMITS.CELLS },
): string[][] {
  const text = decodeText(bytes);
  const read = delimitedRows(text, budget.rows + 1, {
    columns: LAYER_FILE_LIMITS.TABLE_COLUMNS,
    cells: budget.cells,
  });
  if (read.overflow === 'columns') throw tooManyColumns();
  if (read.overflow === 'cells') throw tooManyCells();
  if (read.truncated) throw tooManyRows();
  if (read.delimiter === undefined) {
    const rows: string[][] = [];
    let cells = 0;
    for (const line of text.split(/\r\n|\n|\r/)) {
      if (line.trim() === '') continue;
      const row = line.trim().split(/\s+/, LAYER_FILE_LIMITS.TABLE_COLUMNS + 1);
      if (row.length > LAYER_FILE_LIMITS.TABLE_COLUMNS) throw tooManyColumns();
      if ((cells += row.length) > budget.cells) throw tooManyCells();
      if (rows.push(row) > budget.rows + 1) throw tooManyRows();
    }
    return rows;
  }
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
