// The web console's plain parts (console/; docs/console.md): reading the API's WKT for the map,
// and the legend of a layer from the scale its PNG is coloured with (the renderer's own scale,
// lib/imagery/colours.ts). What the console shows in a browser: tests/console.test.ts.
import { describe, expect, it } from 'vitest';
import { legendOf, type ScaleTemplate } from '../../console/legend';
import { boundsOf, labelPoint, parseWkt } from '../../console/wkt';
import { COLOUR_SCALES, COLOUR_STOPS, colourIn } from '../../lib/imagery/colours';

describe('console: WKT from the API to the map', () => {
  it('reads the POLYGON of getfields, MULTIPOLYGON with holes and POINT, ignoring Z and M', () => {
    expect(parseWkt('POLYGON((-60.57 -33.89,-60.56 -33.89,-60.56 -33.88,-60.57 -33.89))')).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [-60.57, -33.89],
          [-60.56, -33.89],
          [-60.56, -33.88],
          [-60.57, -33.89],
        ],
      ],
    });
    expect(
      parseWkt('MULTIPOLYGON (((0 0, 4 0, 4 4, 0 0), (1 1, 2 1, 2 2, 1 1)), ((10 10, 11 10, 11 11, 10 10)))'),
    ).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0],
            [4, 0],
            [4, 4],
            [0, 0],
          ],
          [
            [1, 1],
            [2, 1],
            [2, 2],
            [1, 1],
          ],
        ],
        [
          [
            [10, 10],
            [11, 10],
            [11, 11],
            [10, 10],
          ],
        ],
      ],
    });
    expect(parseWkt('point z (-63.5 -31.5 12)')).toEqual({ type: 'Point', coordinates: [-63.5, -31.5] });
    expect(parseWkt('POINT(1e-3 -2.5E1)')).toEqual({ type: 'Point', coordinates: [0.001, -25] });
  });

  it('gives nothing for another type or a malformed text', () => {
    for (const text of [
      '',
      'LINESTRING(0 0,1 1)',
      'POLYGON((0 0,1 0,1 1,0 0)',
      'POLYGON((0 0,1 0,1 x,0 0))',
      'POLYGON((0 0,1 0,1 1,0 0)) trailing',
      'POINT(1)',
      'POINT((1 2))',
      'MULTIPOLYGON((0 0,1 0,1 1,0 0))',
    ]) {
      expect(parseWkt(text), text).toBeUndefined();
    }
  });

  it('bounds a geometry and places its label at the mean of its outer vertices', () => {
    const triangle = parseWkt('POLYGON((0 0,3 0,0 3,0 0))')!;
    expect(boundsOf(triangle)).toEqual([0, 0, 3, 3]);
    expect(labelPoint(triangle)).toEqual([1, 1]);
    expect(labelPoint(parseWkt('POINT(5 6)')!)).toEqual([5, 6]);
    expect(boundsOf(parseWkt('MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 7,5 5)))')!)).toEqual([0, 0, 6, 7]);
  });
});

describe('console: the legend of the layer on the map', () => {
  const date = { min: 3200, max: 9100 };

  it("is the renderer's scale: an index over its fixed range, a file's layer over its date's min and max", () => {
    const ramp = COLOUR_STOPS.map(([r, g, b]) => `rgb(${r}, ${g}, ${b})`);
    expect(legendOf('ndvi1', date)).toEqual({ kind: 'ramp', colours: ramp, min: 0, max: 1 });
    expect(legendOf('ndre', date)).toEqual({ kind: 'ramp', colours: ramp, min: 0, max: 0.6 });
    expect(legendOf('rinde', date)).toEqual({ kind: 'ramp', colours: ramp, min: 3200, max: 9100 });
    // the ramp's ends are the colours the renderer gives the range's ends
    expect(ramp[0]).toBe(`rgb(${colourIn(COLOUR_SCALES.ndvi1, 0).join(', ')})`);
    expect(ramp.at(-1)).toBe(`rgb(${colourIn(COLOUR_SCALES.ndvi1, 1).join(', ')})`);
  });

  it('is no scale for true colour', () => {
    expect(legendOf('rgb1', date)).toEqual({ kind: 'text', text: 'True colour (red, green, blue bands)' });
  });

  it("is a template's classes: its boundaries when equidistant, the image's quantiles otherwise", () => {
    const template: ScaleTemplate = {
      scale_template_id: 7,
      template_name: 'Tres clases',
      layer_name: 'sentinel2',
      operation: 'ndvi1',
      type_distribution: 'equidistant',
      range_min: 0,
      range_max: 0.9,
      colors_scale: {
        colors: [
          [200, 0, 0],
          [250, 250, 0],
          [0, 150, 0],
        ],
        scale: [0, 0.3, 0.6, 0.9],
      },
    };
    expect(legendOf('ndvi1', date, template)).toEqual({
      kind: 'classes',
      classes: [
        { colour: 'rgb(200, 0, 0)', label: '0 – 0.3' },
        { colour: 'rgb(250, 250, 0)', label: '0.3 – 0.6' },
        { colour: 'rgb(0, 150, 0)', label: '0.6 – 0.9' },
      ],
    });
    expect(legendOf('ndvi1', date, { ...template, type_distribution: 'quantiles' })).toEqual({
      kind: 'classes',
      classes: [
        { colour: 'rgb(200, 0, 0)', label: 'class 1' },
        { colour: 'rgb(250, 250, 0)', label: 'class 2' },
        { colour: 'rgb(0, 150, 0)', label: 'class 3' },
      ],
      note: 'quantiles of the image, within 0 – 0.9',
    });
  });
});
