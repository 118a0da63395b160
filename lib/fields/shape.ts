// A field's polygon, parsed and measured (spec 2, Fields: codes 2 and 10).
import { Invalid } from '../errors';
import { boundsToWkt } from '../geo/bounds';
import { GeometryError, type GeometryKit } from '../geo/geometry';
import type { FieldShape } from '../platform/model';
import { FIELD_CODES } from './codes';

/** Parses and measures a field polygon: code 2 when it is not a readable polygon, 10 when invalid. */
export function fieldShapeFrom(
  { areaHectares, boundsOf, centroidWkt, parseGeometry, toWkt }: GeometryKit,
  wkt: string,
  startDate: string,
): FieldShape {
  let geometry;
  try {
    geometry = parseGeometry(wkt, ['Polygon']);
  } catch (error) {
    if (error instanceof GeometryError) {
      throw new Invalid(error.message, {
        code: error.reason === 'invalid' ? FIELD_CODES.INVALID_POLYGON : FIELD_CODES.INVALID_SHAPE,
      });
    }
    throw error;
  }
  const areaHa = areaHectares(geometry);
  if (!(areaHa > 0)) throw new Invalid('invalid polygon: its area is zero', { code: FIELD_CODES.INVALID_POLYGON });
  const bounds = boundsOf(geometry);
  return {
    polygon: toWkt(geometry),
    centroid: centroidWkt(geometry),
    areaHa,
    bbox: boundsToWkt(bounds),
    bounds,
    startDate,
  };
}
