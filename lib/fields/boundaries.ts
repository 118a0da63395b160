// Field boundaries from files (spec 2, Fields: "KML/KMZ/Shapefile to WKT conversion"; the path and
// answer are ours, docs/decisions.md "Boundary files"). A .kml, a .kmz (a zip holding a KML) or a
// .zip holding a shapefile becomes the list of polygons it holds, as WKT in EPSG 4326, each checked
// as agregarlote would check it. The files are untrusted: sizes, zip entries, XML declarations and
// vertices are bounded before anything is parsed at length.
import { DomainError, Invalid } from '../errors';
import { type GeometryKit, geoJsonToWkt, geometryKit } from '../geo/geometry';
import type { KmlFeature } from '../geo/kml';
import { kmlReader, shapefileReader } from '../geo/readers';
import { isZip, unzipper } from '../util/zip';
import { checkFieldArea, checkFieldExtent } from './rules';
import { fieldShapeFrom } from './shape';

export const BOUNDARY_LIMITS = {
  /** The file as sent. */
  FILE_BYTES: 4 * 1024 * 1024,
  /** Entries of a zip (a shapefile has 3 to 8 files; a KMZ a KML and its images). */
  ZIP_ENTRIES: 100,
  /** What a zip's entries hold, uncompressed, all together. */
  UNZIPPED_BYTES: 64 * 1024 * 1024,
  /** Vertices in the whole file. */
  VERTICES: 200_000,
  /** Polygons answered. */
  POLYGONS: 1_000,
  /** A KML (a .kml as sent, or the KML inside a .kmz) in bytes. */
  KML_BYTES: 16 * 1024 * 1024,
  /** Tags and attributes of a KML (the nodes of its DOM, about 1 KB of heap each). */
  KML_MARKUP: 60_000,
  /** A .shp: the vertices at 16 bytes and 10,000 shapes' headers fit in it twice over. */
  SHP_BYTES: 8 * 1024 * 1024,
  /** Shapes in a shapefile's .shp (polygons, and the points and lines listed as skipped). */
  SHAPES: 10_000,
  /** Rings of one shape of a shapefile. */
  RINGS_PER_SHAPE: 1_000,
  /** Attribute values of a shapefile's .dbf (records x fields). */
  DBF_VALUES: 500_000,
} as const;

const KML_BOUNDS = {
  bytes: BOUNDARY_LIMITS.KML_BYTES,
  markup: BOUNDARY_LIMITS.KML_MARKUP,
  vertices: BOUNDARY_LIMITS.VERTICES,
};
const SHAPEFILE_BOUNDS = {
  records: BOUNDARY_LIMITS.SHAPES,
  vertices: BOUNDARY_LIMITS.VERTICES,
  partsPerShape: BOUNDARY_LIMITS.RINGS_PER_SHAPE,
  cells: BOUNDARY_LIMITS.DBF_VALUES,
};
/** The entries of a zip that are read: a KMZ's KML, a shapefile's parts (images and the rest are never inflated). */
const BOUNDARY_ENTRY = /\.(kml|shp|shx|dbf|prj|cpg)$/i;

export interface BoundaryPolygon {
  name: string | null;
  /** Part of a multi-polygon (1, 2, ...), or null for a polygon on its own. */
  part: number | null;
  wkt: string;
  /** Hectares on the WGS84 ellipsoid; null when the ring cannot be measured. */
  area: number | null;
  /** As agregarlote would answer: 0 accepted, else its field-creation code (2, 10, 11). */
  code: number;
  valid: boolean;
  info?: string;
}

export interface BoundarySkipped {
  name: string | null;
  type: string;
  reason: string;
}

export interface Boundaries {
  format: 'kml' | 'kmz' | 'shapefile';
  polygons: BoundaryPolygon[];
  skipped: BoundarySkipped[];
}

type Position = number[];
/** A feature read from a file (the shape KML features have; shapefile features fit it). */
type Feature = KmlFeature;

const refuse = (message: string) => new Invalid(message);

/** The polygons a boundary file holds. `nameField` chooses the .dbf attribute that names a shapefile's shapes. */
export async function readBoundaries(
  file: { content: Buffer; filename: string },
  options: { nameField?: string; maxHectares: number },
): Promise<Boundaries> {
  if (file.content.length === 0) throw refuse('the file is empty');
  if (file.content.length > BOUNDARY_LIMITS.FILE_BYTES)
    throw refuse(`the file is larger than ${BOUNDARY_LIMITS.FILE_BYTES / 1024 / 1024} MiB`);
  let format: Boundaries['format'];
  let features: Feature[];
  let names: (properties: Record<string, unknown>) => string | null;
  if (isZip(file.content)) {
    const entries = (await unzipper()).unzipBounded(file.content, {
      entries: BOUNDARY_LIMITS.ZIP_ENTRIES,
      bytes: BOUNDARY_LIMITS.UNZIPPED_BYTES,
      wanted: (name) => BOUNDARY_ENTRY.test(name),
      entryBytes: (name) =>
        /\.kml$/i.test(name) ? BOUNDARY_LIMITS.KML_BYTES : /\.shp$/i.test(name) ? BOUNDARY_LIMITS.SHP_BYTES : undefined,
    });
    const kmlEntry = Object.keys(entries).find((name) => name.toLowerCase().endsWith('.kml'));
    if (kmlEntry) {
      format = 'kmz';
      features = (await kmlReader()).readKml(entries[kmlEntry]!, KML_BOUNDS, refuse);
      names = kmlName;
    } else {
      format = 'shapefile';
      features = (await shapefileReader()).readShapefiles(entries, SHAPEFILE_BOUNDS, refuse) as Feature[];
      names = shapefileName(options.nameField);
    }
  } else if (
    /^\s*(<\?xml|<kml)/i.test(
      file.content
        .subarray(0, 512)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    )
  ) {
    format = 'kml';
    features = (await kmlReader()).readKml(file.content, KML_BOUNDS, refuse);
    names = kmlName;
  } else {
    throw refuse('the file is not a KML, a KMZ or a zipped shapefile');
  }
  return { format, ...polygonsOf(await geometryKit(), features, names, options.maxHectares) };
}

// --- KML --------------------------------------------------------------------------------------

const kmlName = (properties: Record<string, unknown>) =>
  typeof properties.name === 'string' && properties.name.trim() ? properties.name.trim() : null;

// --- shapefiles -------------------------------------------------------------------------------

const NAME_ATTRIBUTES = ['name', 'nombre', 'nome', 'lote', 'field', 'campo'];

const shapefileName = (chosen: string | undefined) => (properties: Record<string, unknown>) => {
  const key = chosen
    ? Object.keys(properties).find((k) => k.toLowerCase() === chosen.toLowerCase())
    : Object.keys(properties).find((k) => NAME_ATTRIBUTES.includes(k.toLowerCase()));
  const value = key === undefined ? undefined : properties[key];
  return value === undefined || value === null || String(value).trim() === '' ? null : String(value).trim();
};

// --- polygons ---------------------------------------------------------------------------------

function polygonsOf(
  geometry: GeometryKit,
  features: Feature[],
  nameOf: (properties: Record<string, unknown>) => string | null,
  maxHectares: number,
) {
  const polygons: BoundaryPolygon[] = [];
  const skipped: BoundarySkipped[] = [];
  let vertices = 0;
  // every polygon of a feature (a multi-polygon's parts, a KML MultiGeometry's polygons)
  const collect = (geometry: Feature['geometry'], name: string | null, found: Position[][][]): void => {
    if (!geometry) {
      skipped.push({ name, type: 'none', reason: 'the feature has no geometry' });
      return;
    }
    switch (geometry.type) {
      case 'Polygon':
        found.push(geometry.coordinates as Position[][]);
        break;
      case 'MultiPolygon':
        found.push(...(geometry.coordinates as Position[][][]));
        break;
      case 'GeometryCollection':
        for (const child of geometry.geometries ?? []) collect(child, name, found);
        break;
      default:
        skipped.push({ name, type: geometry.type, reason: 'not a polygon' });
    }
  };
  for (const feature of features) {
    const name = nameOf(feature.properties ?? {});
    const found: Position[][][] = [];
    collect(feature.geometry, name, found);
    // a field is one polygon: the parts of one feature are answered each on its own (docs/decisions.md)
    found.forEach((rings, i) => {
      vertices += rings.reduce((sum, ring) => sum + ring.length, 0);
      if (vertices > BOUNDARY_LIMITS.VERTICES)
        throw refuse(`the file holds more than ${BOUNDARY_LIMITS.VERTICES} vertices`);
      if (polygons.length >= BOUNDARY_LIMITS.POLYGONS)
        throw refuse(`the file holds more than ${BOUNDARY_LIMITS.POLYGONS} polygons`);
      polygons.push(
        checked(
          geometry,
          name,
          found.length > 1 ? i + 1 : null,
          geoJsonToWkt({ type: 'Polygon', coordinates: rings }),
          maxHectares,
        ),
      );
    });
  }
  return { polygons, skipped };
}

/** The polygon as agregarlote would take it: its code, and its area when it can be measured. */
function checked(
  geometry: GeometryKit,
  name: string | null,
  part: number | null,
  wkt: string,
  maxHectares: number,
): BoundaryPolygon {
  let shape;
  try {
    shape = fieldShapeFrom(geometry, wkt, '1970-01-01');
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind === 'internal') throw error;
    return {
      name,
      part,
      wkt,
      area: measurable(geometry, wkt),
      code: Number(error.code ?? 2),
      valid: false,
      info: error.message,
    };
  }
  const area = Number(shape.areaHa.toFixed(4));
  try {
    checkFieldArea(shape.areaHa, maxHectares);
    checkFieldExtent(shape.bounds);
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind === 'internal') throw error;
    return { name, part, wkt: shape.polygon, area, code: Number(error.code ?? 11), valid: false, info: error.message };
  }
  return { name, part, wkt: shape.polygon, area, code: 0, valid: true };
}

/** The area of a shape agregarlote refuses, when its rings can still be measured. */
function measurable({ areaHectares, readWkt }: GeometryKit, wkt: string): number | null {
  try {
    return Number(areaHectares(readWkt(wkt)).toFixed(4));
  } catch {
    return null;
  }
}
