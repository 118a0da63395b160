// Expansion limits of season shapes (spec 2, Season shapes). The rule (docs/decisions.md): a new
// shape must lie inside the polygon the field was created with, grown by EXPANSION_LIMIT_M metres.
// Limits are measured from the creation shape, not the latest one, so that repeated expansions
// cannot creep. Buffering is done in metres, in an azimuthal equidistant projection centred on
// the field; the result is given in EPSG 4326 and 3857.
import proj4 from 'proj4';
import type { GeometryKit, JstsGeometry } from '../geo/geometry';
import type { Field } from '../platform/model';

export const EXPANSION_LIMIT_M = 1000;

const centroidOf = (wkt: string): [number, number] => {
  const match = /POINT\(([-\d.eE]+) ([-\d.eE]+)\)/.exec(wkt);
  if (!match) throw new Error(`not a point: ${wkt}`);
  return [Number(match[1]), Number(match[2])];
};

export interface ExpansionLimits {
  /** The allowed area, EPSG 4326. */
  geometry: JstsGeometry;
  wkt4326: string;
  wkt3857: string;
}

export function expansionLimits(
  { asMultiPolygonWkt, mapCoordinates, readWkt }: GeometryKit,
  field: Field,
): ExpansionLimits {
  const [lon0, lat0] = centroidOf(field.shape.centroid);
  const local = `+proj=aeqd +lat_0=${lat0} +lon_0=${lon0} +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`;
  const toLocal = proj4('EPSG:4326', local);
  const metric = mapCoordinates(readWkt(field.shape.polygon), (x, y) => toLocal.forward([x, y]) as [number, number]);
  // 32 segments per quadrant: a smooth boundary without many vertices.
  const grown = (metric as unknown as { buffer(d: number, q: number): JstsGeometry }).buffer(EXPANSION_LIMIT_M, 32);
  const geometry = mapCoordinates(grown, (x, y) => toLocal.inverse([x, y]) as [number, number]);
  const mercator = proj4('EPSG:4326', 'EPSG:3857');
  const projected = mapCoordinates(geometry, (x, y) => mercator.forward([x, y]) as [number, number]);
  return { geometry, wkt4326: asMultiPolygonWkt(geometry), wkt3857: asMultiPolygonWkt(projected) };
}
