// WKT geometry in EPSG 4326: parsing, validity, and the derived values the areas report
// (area in hectares, centroid, bounding box). jsts (a port of JTS) parses and validates;
// GeographicLib gives geodesic area on the WGS84 ellipsoid. Loaded on first use, never at a
// function's cold start: code reaches this module through `await geometryKit()` (lib/geo/geometry.ts);
// only types are imported from it.

import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import WKTReader from 'jsts/org/locationtech/jts/io/WKTReader.js';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import 'jsts/org/locationtech/jts/monkey.js';
import geographiclib from 'geographiclib-geodesic';
import { type Bounds, formatNumber } from './bounds';
import { GEOMETRY_LIMITS, GeometryError, type GeometryKind, geoJsonToWkt } from './geometry';

// jsts ships loose typings; this is the part of its Geometry API used here.
export interface JstsCoordinate {
  x: number;
  y: number;
}
export interface JstsGeometry {
  getGeometryType(): string;
  isEmpty(): boolean;
  getCoordinates(): JstsCoordinate[];
  getCentroid(): JstsGeometry;
  getCoordinate(): JstsCoordinate;
  getNumGeometries(): number;
  getGeometryN(n: number): JstsGeometry;
  getExteriorRing(): JstsGeometry;
  getNumInteriorRing(): number;
  getInteriorRingN(n: number): JstsGeometry;
  getEnvelopeInternal(): { getMinX(): number; getMinY(): number; getMaxX(): number; getMaxY(): number };
  within(other: JstsGeometry): boolean;
  covers(other: JstsGeometry): boolean;
  intersects(other: JstsGeometry): boolean;
  buffer(distance: number): JstsGeometry;
}

/** Reads WKT without the checks of parseGeometry (for geometries this service computed). */
export const readWkt = (wkt: string): JstsGeometry => reader.read(wkt) as unknown as JstsGeometry;

const factory = new GeometryFactory();
const reader = new WKTReader(factory);

/** Parses WKT (an `SRID=4326;` prefix is accepted) and checks size, type, coordinates and validity. */
export function parseGeometry(
  text: string,
  allowed: readonly GeometryKind[],
  maxVertices: number = GEOMETRY_LIMITS.VERTICES,
): JstsGeometry {
  if (text.length > GEOMETRY_LIMITS.CHARS) {
    throw new GeometryError('invalid', `a geometry has at most ${GEOMETRY_LIMITS.CHARS} characters of WKT`);
  }
  const trimmed = text.trim();
  const srid = /^SRID=(\d+);/i.exec(trimmed);
  if (srid && srid[1] !== '4326') {
    throw new GeometryError('unreadable', `geometries must be in EPSG 4326, not ${srid[1]}`);
  }
  const wkt = srid ? trimmed.slice(srid[0].length) : trimmed;
  if (!/^[A-Za-z]+\s*(Z|M|ZM)?\s*\(/.test(wkt) && !/EMPTY\s*$/i.test(wkt)) {
    throw new GeometryError('unreadable', 'the shape is not well-known text');
  }
  let geometry: JstsGeometry;
  try {
    geometry = reader.read(wkt) as unknown as JstsGeometry;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/closed linestring|LinearRing|must have/i.test(message)) {
      throw new GeometryError('invalid', `invalid polygon: ${message}`);
    }
    throw new GeometryError('unreadable', `the shape is not well-known text: ${message}`);
  }
  // A MULTIPOLYGON of one part is that polygon (GET shape/limits itself answers MULTIPOLYGON);
  // one of several parts is not one polygon (docs/decisions.md, General).
  if (
    geometry.getGeometryType() === 'MultiPolygon' &&
    allowed.includes('Polygon') &&
    !allowed.includes('MultiPolygon')
  ) {
    const parts = geometry.getNumGeometries();
    if (parts !== 1) {
      throw new GeometryError(
        'wrong_type',
        `expected one polygon, got a MULTIPOLYGON of ${parts} parts: send each part on its own`,
      );
    }
    geometry = geometry.getGeometryN(0);
  }
  const type = geometry.getGeometryType() as GeometryKind;
  if (!allowed.includes(type)) {
    throw new GeometryError('wrong_type', `expected ${allowed.join(' or ')}, got ${geometry.getGeometryType()}`);
  }
  if (geometry.isEmpty()) throw new GeometryError('invalid', 'the geometry is empty');
  if (geometry.getCoordinates().length > maxVertices) {
    throw new GeometryError('invalid', `a geometry has at most ${maxVertices} vertices`);
  }
  for (const c of geometry.getCoordinates()) {
    if (!Number.isFinite(c.x) || !Number.isFinite(c.y) || Math.abs(c.x) > 180 || Math.abs(c.y) > 90) {
      throw new GeometryError('invalid', 'coordinates must be longitude/latitude in EPSG 4326');
    }
  }
  const validity = new IsValidOp(geometry as never);
  if (!validity.isValid()) {
    throw new GeometryError('invalid', `invalid polygon: ${validity.getValidationError().toString()}`);
  }
  return geometry;
}

// --- WKT output, in the compact form PostGIS's ST_AsText uses -----------------------------

const num = formatNumber;
const coords = (list: JstsCoordinate[]): string => list.map((c) => `${num(c.x)} ${num(c.y)}`).join(',');

function polygonRings(polygon: JstsGeometry): JstsCoordinate[][] {
  const rings = [polygon.getExteriorRing().getCoordinates()];
  for (let i = 0; i < polygon.getNumInteriorRing(); i++) rings.push(polygon.getInteriorRingN(i).getCoordinates());
  return rings;
}

export function toWkt(geometry: JstsGeometry): string {
  switch (geometry.getGeometryType()) {
    case 'Point': {
      const c = geometry.getCoordinate();
      return `POINT(${num(c.x)} ${num(c.y)})`;
    }
    case 'LineString':
      return `LINESTRING(${coords(geometry.getCoordinates())})`;
    case 'Polygon':
      return `POLYGON(${polygonRings(geometry)
        .map((ring) => `(${coords(ring)})`)
        .join(',')})`;
    case 'MultiPolygon': {
      const parts: string[] = [];
      for (let i = 0; i < geometry.getNumGeometries(); i++) {
        parts.push(
          `(${polygonRings(geometry.getGeometryN(i))
            .map((ring) => `(${coords(ring)})`)
            .join(',')})`,
        );
      }
      return `MULTIPOLYGON(${parts.join(',')})`;
    }
    default:
      throw new Error(`toWkt: unsupported ${geometry.getGeometryType()}`);
  }
}

type Coordinates = number[] | number[][] | number[][][] | number[][][][];

/** Applies `fn` to every coordinate of a point, polygon or multipolygon (e.g. a reprojection). */
export function mapCoordinates(geometry: JstsGeometry, fn: (x: number, y: number) => [number, number]): JstsGeometry {
  const json = toGeoJson(geometry);
  const walk = (c: Coordinates): Coordinates =>
    typeof c[0] === 'number' ? fn(c[0] as number, c[1] as number) : ((c as Coordinates[]).map(walk) as Coordinates);
  return readWkt(
    geoJsonToWkt({ type: json.type, coordinates: walk(json.coordinates as Coordinates) } as Parameters<
      typeof geoJsonToWkt
    >[0]),
  );
}

/** A polygon or multipolygon as a MULTIPOLYGON. */
export const asMultiPolygonWkt = (geometry: JstsGeometry): string => {
  const wkt = toWkt(geometry);
  return wkt.startsWith('POLYGON') ? `MULTIPOLYGON((${wkt.slice('POLYGON('.length, -1)}))` : wkt;
};

export function toGeoJson(geometry: JstsGeometry): GeoJSON.Point | GeoJSON.Polygon | GeoJSON.MultiPolygon {
  const ring = (list: JstsCoordinate[]) => list.map((c) => [c.x, c.y]);
  switch (geometry.getGeometryType()) {
    case 'Point': {
      const c = geometry.getCoordinate();
      return { type: 'Point', coordinates: [c.x, c.y] };
    }
    case 'Polygon':
      return { type: 'Polygon', coordinates: polygonRings(geometry).map(ring) };
    case 'MultiPolygon': {
      const polygons = [];
      for (let i = 0; i < geometry.getNumGeometries(); i++)
        polygons.push(polygonRings(geometry.getGeometryN(i)).map(ring));
      return { type: 'MultiPolygon', coordinates: polygons };
    }
    default:
      throw new Error(`toGeoJson: unsupported ${geometry.getGeometryType()}`);
  }
}

export { type Bounds, boundsToWkt, unionBounds } from './bounds';

export const boundsOf = (geometry: JstsGeometry): Bounds => {
  const e = geometry.getEnvelopeInternal();
  return [e.getMinX(), e.getMinY(), e.getMaxX(), e.getMaxY()];
};

/**
 * Geodesic area in hectares on the WGS84 ellipsoid (GeographicLib, as PostGIS's geography type
 * computes it): each polygon's outer ring less its holes; 0 for a point.
 */
export function areaHectares(geometry: JstsGeometry): number {
  const type = geometry.getGeometryType();
  if (type === 'Point') return 0;
  let squareMetres = 0;
  const polygons =
    type === 'MultiPolygon'
      ? Array.from({ length: geometry.getNumGeometries() }, (_, i) => geometry.getGeometryN(i))
      : [geometry];
  for (const polygon of polygons) {
    squareMetres += ringArea(polygon.getExteriorRing().getCoordinates());
    for (let i = 0; i < polygon.getNumInteriorRing(); i++)
      squareMetres -= ringArea(polygon.getInteriorRingN(i).getCoordinates());
  }
  return squareMetres / 10_000;
}

/** The area a ring encloses, in square metres, whatever its orientation. */
function ringArea(ring: JstsCoordinate[]): number {
  const polygon = geographiclib.Geodesic.WGS84.Polygon(false);
  const closed = ring.length > 1 && ring[0]!.x === ring[ring.length - 1]!.x && ring[0]!.y === ring[ring.length - 1]!.y;
  const count = closed ? ring.length - 1 : ring.length;
  for (let i = 0; i < count; i++) polygon.AddPoint(ring[i]!.y, ring[i]!.x);
  return Math.abs(polygon.Compute(false, true).area ?? 0);
}

export const centroidWkt = (geometry: JstsGeometry): string => toWkt(geometry.getCentroid());
