// lib/geo/wkt.ts and lib/fields/rules.ts: WKT parsing, validity and measurements.
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../lib/errors';
import { fieldShapeFrom } from '../../lib/fields/shape';
import type { GeometryError } from '../../lib/geo/geometry';
import * as kit from '../../lib/geo/wkt';

const { areaHectares, parseGeometry, toWkt } = kit;

import { ellipsoidRectangleHectares, relative, sphereRectangleHectares } from '../helpers/geodesy';

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
  it('gives the area on the WGS84 ellipsoid, within 0.01%, at every latitude (not on a sphere)', () => {
    for (const lat of [-60, -45, -34, -3, 0, 45, 64]) {
      for (const size of [0.01, 0.1]) {
        const area = areaHectares(
          parseGeometry(
            `POLYGON((10 ${lat},${10 + size} ${lat},${10 + size} ${lat + size},10 ${lat + size},10 ${lat}))`,
            ['Polygon'],
          ),
        );
        expect(relative(area, ellipsoidRectangleHectares(lat, size))).toBeLessThan(0.0001);
      }
    }
    // the figures of GeographicLib's own Planimeter for a 0.01-degree square
    const square = (lon: number, lat: number) =>
      areaHectares(
        parseGeometry(
          `POLYGON((${lon} ${lat},${lon + 0.01} ${lat},${lon + 0.01} ${lat + 0.01},${lon} ${lat + 0.01},${lon} ${lat}))`,
          ['Polygon'],
        ),
      );
    expect(square(-60, -3)).toBeCloseTo(122.927084, 4);
    expect(square(-68, -45)).toBeCloseTo(87.631433, 4);
    expect(square(25, 64)).toBeCloseTo(54.538096, 4);
    // a sphere is off by +0.45% at 3 S: the test tells them apart
    expect(relative(sphereRectangleHectares(-3, 0.01), square(-60, -3))).toBeGreaterThan(0.004);
  });

  it("subtracts holes and adds the parts of a multipolygon, whatever the rings' orientation", () => {
    const outer = 'POLYGON((0 0,0.1 0,0.1 0.1,0 0.1,0 0),(0.02 0.02,0.02 0.04,0.04 0.04,0.04 0.02,0.02 0.02))';
    const expected = ellipsoidRectangleHectares(0, 0.1) - ellipsoidRectangleHectares(0.02, 0.02);
    expect(relative(areaHectares(parseGeometry(outer, ['Polygon'])), expected)).toBeLessThan(0.0001);
    const clockwise = 'POLYGON((0 0,0 0.1,0.1 0.1,0.1 0,0 0))';
    expect(
      relative(areaHectares(parseGeometry(clockwise, ['Polygon'])), ellipsoidRectangleHectares(0, 0.1)),
    ).toBeLessThan(0.0001);
    const two = 'MULTIPOLYGON(((0 0,0.01 0,0.01 0.01,0 0.01,0 0)),((1 50,1.01 50,1.01 50.01,1 50.01,1 50)))';
    const sum = ellipsoidRectangleHectares(0, 0.01) + ellipsoidRectangleHectares(50, 0.01);
    expect(relative(areaHectares(parseGeometry(two, ['MultiPolygon'])), sum)).toBeLessThan(0.0001);
    expect(areaHectares(parseGeometry('POINT(1 2)', ['Point']))).toBe(0);
  });

  it('derives centroid and bounding box for a field', () => {
    const shape = fieldShapeFrom(kit, 'POLYGON((0 0,2 0,2 1,0 1,0 0))', '2026-01-01');
    expect(shape.centroid).toBe('POINT(1 0.5)');
    expect(shape.bounds).toEqual([0, 0, 2, 1]);
    expect(shape.bbox).toBe('POLYGON((0 0,2 0,2 1,0 1,0 0))');
  });

  it('maps unreadable shapes to code 2 and invalid polygons to code 10', () => {
    const codeOf = (wkt: string) => {
      try {
        fieldShapeFrom(kit, wkt, '2026-01-01');
      } catch (error) {
        return (error as DomainError).code;
      }
    };
    expect(codeOf('LINESTRING(0 0,1 1)')).toBe(2);
    expect(codeOf('POLYGON((0 0,1 1,1 0,0 1,0 0))')).toBe(10);
  });
});
