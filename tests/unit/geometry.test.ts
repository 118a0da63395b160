// lib/geo/wkt.ts and lib/fields/rules.ts: WKT parsing, validity and measurements.
import { describe, expect, it } from 'vitest';
import { areaHectares, GeometryError, parseGeometry, toWkt } from '../../lib/geo/wkt';
import { fieldShapeFrom } from '../../lib/fields/shape';
import { DomainError } from '../../lib/errors';

const R = 6_371_008.8;
const sphericalRectangleHa = (lat1: number, lat2: number, dLon: number) =>
  (R ** 2 * (dLon * Math.PI) / 180 * Math.abs(Math.sin((lat2 * Math.PI) / 180) - Math.sin((lat1 * Math.PI) / 180))) / 10_000;

const reasonOf = (wkt: string) => {
  try {
    parseGeometry(wkt, ['Polygon']);
    return 'ok';
  } catch (error) {
    return (error as GeometryError).reason;
  }
};

describe('parseGeometry', () => {
  it('accepts a valid polygon, with or without SRID=4326', () => {
    expect(reasonOf('POLYGON((0 0,1 0,1 1,0 1,0 0))')).toBe('ok');
    expect(reasonOf('SRID=4326;POLYGON((0 0,1 0,1 1,0 1,0 0))')).toBe('ok');
  });

  it('tells unreadable text and wrong types from invalid polygons', () => {
    expect(reasonOf('nonsense')).toBe('unreadable');
    expect(reasonOf('SRID=3857;POLYGON((0 0,1 0,1 1,0 0))')).toBe('unreadable');
    expect(reasonOf('POINT(1 2)')).toBe('wrong_type');
    expect(reasonOf('POLYGON((0 0,1 1,1 0,0 1,0 0))')).toBe('invalid');
    expect(reasonOf('POLYGON((0 0,1 0,1 1,0 1))')).toBe('invalid');
    expect(reasonOf('POLYGON((190 0,191 0,191 1,190 0))')).toBe('invalid');
  });

  it('writes WKT compactly, as PostGIS does', () => {
    expect(toWkt(parseGeometry('POLYGON ((0 0, 1 0, 1 1, 0 0))', ['Polygon']))).toBe('POLYGON((0 0,1 0,1 1,0 0))');
    expect(toWkt(parseGeometry('POINT (1.5 -2)', ['Point']))).toBe('POINT(1.5 -2)');
  });
});

describe('measurements', () => {
  it('gives geodesic area in hectares, within 0.5% of the spherical formula', () => {
    for (const lat of [-60, -34, 0, 45]) {
      const area = areaHectares(parseGeometry(`POLYGON((10 ${lat},10.1 ${lat},10.1 ${lat + 0.1},10 ${lat + 0.1},10 ${lat}))`, ['Polygon']));
      const expected = sphericalRectangleHa(lat, lat + 0.1, 0.1);
      expect(Math.abs(area - expected) / expected).toBeLessThan(0.005);
    }
  });

  it('derives centroid and bounding box for a field', () => {
    const shape = fieldShapeFrom('POLYGON((0 0,2 0,2 1,0 1,0 0))', '2026-01-01');
    expect(shape.centroid).toBe('POINT(1 0.5)');
    expect(shape.bounds).toEqual([0, 0, 2, 1]);
    expect(shape.bbox).toBe('POLYGON((0 0,2 0,2 1,0 1,0 0))');
  });

  it('maps unreadable shapes to code 2 and invalid polygons to code 10', () => {
    const codeOf = (wkt: string) => {
      try {
        fieldShapeFrom(wkt, '2026-01-01');
      } catch (error) {
        return (error as DomainError).code;
      }
    };
    expect(codeOf('LINESTRING(0 0,1 1)')).toBe(2);
    expect(codeOf('POLYGON((0 0,1 1,1 0,0 1,0 0))')).toBe(10);
  });
});
