// Shapefiles inside a zip's entries (boundary files, layer files): every .shp with its .dbf, .prj
// (reprojected to EPSG 4326 by shpjs) and .cpg (the .dbf's encoding). A shapefile's headers are
// untrusted: shpjs loops over the record count a .dbf declares, reading past its bytes as empty
// records (a 385-byte zip claiming 4 billion records ran out of memory), and builds
// every vertex a .shp holds. So both files are walked first, without building anything: every
// size they declare is checked against their real bytes, and records, vertices, rings and cells
// against the caller's bounds, before shpjs reads them.
import { parseDbf, parseShp } from 'shpjs';
import { type DomainError, Invalid } from '../errors';

export interface ShapefileFeature {
  geometry: { type: string; coordinates?: unknown } | null;
  properties: Record<string, unknown>;
}

/** How much of the shapefiles of one file is read, all shapefiles together. */
export interface ShapefileBounds {
  /** Shapes (records of the .shp; a .dbf may not declare more). */
  records: number;
  /** Vertices of every shape. */
  vertices: number;
  /** Rings (parts) of one shape: shpjs matches holes to rings pairwise. */
  partsPerShape: number;
  /** Attribute values (.dbf records x fields). */
  cells: number;
}

/** The features of every shapefile among the entries; `refuse` when there is none, one cannot be read or one passes the bounds. */
export function readShapefiles(
  entries: Record<string, Uint8Array>,
  bounds: ShapefileBounds,
  refuse: (message: string) => DomainError = (message) => new Invalid(message),
): ShapefileFeature[] {
  const names = Object.keys(entries);
  const shps = names.filter((name) => name.toLowerCase().endsWith('.shp'));
  if (shps.length === 0) throw refuse('the zip holds no KML and no shapefile (.shp)');
  const tally: Tally = { records: 0, vertices: 0, cells: 0 };
  const checked: Array<{ base: string; shp: Uint8Array; dbf?: Uint8Array; prj?: string; cpg?: string }> = [];
  for (const shp of shps) {
    const base = shp.slice(0, -4);
    const sibling = (ext: string) =>
      names.find((name) => name.slice(0, -4) === base && name.toLowerCase().endsWith(ext));
    const text = (name: string | undefined) => (name ? Buffer.from(entries[name]!).toString('utf8') : undefined);
    const dbf = sibling('.dbf');
    const named = (message: string) =>
      refuse(`the shapefile ${JSON.stringify(base.slice(0, 100))} cannot be read: ${message}`);
    const shapes = walkShp(entries[shp]!, bounds, tally, named);
    if (dbf) walkDbf(entries[dbf]!, shapes, bounds, tally, named);
    checked.push({
      base,
      shp: entries[shp]!,
      dbf: dbf ? entries[dbf] : undefined,
      prj: text(sibling('.prj')),
      cpg: text(sibling('.cpg')),
    });
  }
  const features: ShapefileFeature[] = [];
  for (const { base, shp, dbf, prj, cpg } of checked) {
    try {
      const geometries = parseShp(shp, prj) as ShapefileFeature['geometry'][];
      const records = dbf ? parseDbf(dbf, cpg) : [];
      geometries.forEach((geometry, i) => {
        features.push({ geometry, properties: records[i] ?? {} });
      });
    } catch (error) {
      throw refuse(`the shapefile ${JSON.stringify(base.slice(0, 100))} cannot be read: ${(error as Error).message}`);
    }
  }
  return features;
}

interface Tally {
  records: number;
  vertices: number;
  cells: number;
}

const SHP_HEADER = 100;
/** Shape types with parts and points (polyline, polygon; their Z and M forms) and with points only (multipoint). */
const WITH_PARTS = new Set([3, 5, 13, 15, 23, 25]);
const MULTIPOINT = new Set([8, 18, 28]);
const POINT = new Set([1, 11, 21]);

/**
 * Walks a .shp's records as shpjs will (a record header: number and content length in 16-bit
 * words, big-endian; then the shape type), checking each record's declared counts against its own
 * bytes and adding its shapes and vertices to the tally. Answers the number of records.
 */
function walkShp(shp: Uint8Array, bounds: ShapefileBounds, tally: Tally, refuse: (m: string) => DomainError): number {
  const view = new DataView(shp.buffer, shp.byteOffset, shp.byteLength);
  if (shp.byteLength < SHP_HEADER || view.getInt32(0) !== 9994) throw refuse('the .shp has no shapefile header');
  let records = 0;
  for (let offset = SHP_HEADER; offset + 8 <= shp.byteLength; ) {
    const length = view.getInt32(offset + 4) * 2;
    if (length < 0 || offset + 8 + length > shp.byteLength)
      throw refuse(`record ${records + 1} of the .shp declares ${length} bytes past the end of the file`);
    records += 1;
    tally.records += 1;
    if (tally.records > bounds.records) throw refuse(`the file holds more than ${bounds.records} shapes`);
    if (length >= 4) {
      const content = offset + 8;
      const type = view.getInt32(content, true);
      let points = 0;
      if (POINT.has(type)) points = 1;
      else if (MULTIPOINT.has(type) && length >= 40) points = view.getInt32(content + 36, true);
      else if (WITH_PARTS.has(type) && length >= 44) {
        const parts = view.getInt32(content + 36, true);
        points = view.getInt32(content + 40, true);
        if (parts < 0 || parts > bounds.partsPerShape)
          throw refuse(`shape ${records} has ${parts} rings, more than ${bounds.partsPerShape}`);
        // type, box, counts, part indices, then 16 bytes a point (Z and M values follow for those types)
        if (points < 0 || 44 + 4 * parts + 16 * points > length)
          throw refuse(`shape ${records} declares ${points} points, more than its ${length} bytes hold`);
      }
      if (points < 0 || points * 16 > length) throw refuse(`shape ${records} declares more points than its bytes hold`);
      tally.vertices += points;
      if (tally.vertices > bounds.vertices) throw refuse(`the file holds more than ${bounds.vertices} vertices`);
    }
    offset += 8 + length;
  }
  return records;
}

/**
 * Checks a .dbf's header (record count, header and record lengths) against its real bytes and the
 * shapes of its .shp: its records must fit in the file, be no more than the shapes, and their
 * values (records x fields) stay within the bound.
 */
function walkDbf(
  dbf: Uint8Array,
  shapes: number,
  bounds: ShapefileBounds,
  tally: Tally,
  refuse: (m: string) => DomainError,
): void {
  if (dbf.byteLength < 33) throw refuse('the .dbf is shorter than its header');
  const view = new DataView(dbf.buffer, dbf.byteOffset, dbf.byteLength);
  const records = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const recordLength = view.getUint16(10, true);
  if (headerLength < 33 || headerLength > dbf.byteLength) throw refuse('the .dbf header is longer than the file');
  if (records > 0 && recordLength < 1) throw refuse('the .dbf declares records of no bytes');
  if (headerLength + records * recordLength > dbf.byteLength)
    throw refuse(
      `the .dbf declares ${records} records of ${recordLength} bytes, more than its ${dbf.byteLength} bytes hold`,
    );
  if (records > shapes) throw refuse(`the .dbf declares ${records} records for ${shapes} shapes`);
  const fields = Math.floor((headerLength - 33) / 32);
  tally.cells += records * fields;
  if (tally.cells > bounds.cells) throw refuse(`the file holds more than ${bounds.cells} attribute values`);
}
