// Spec 2, "Imagery layers", "Layer type catalogue" and GET /api/fields/ndvi, against the local
// stack: a new field's scenes come from the local STAC catalogue (scripts/local/catalogue.ts) through
// the production search-and-read path; images are read back by GDAL (gdalinfo, compiled to
// WebAssembly: tests/helpers/gdal.ts) and pngjs, independent of the encoders we use.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PNG } from 'pngjs';
import proj4 from 'proj4';
import { beforeAll, describe, expect, it } from 'vitest';
import { acquisitionIndex, acquisitions, skyOf } from '../scripts/local/scenes';
import {
  call,
  createField,
  download,
  eventually,
  IMAGERY_AREA,
  newUser,
  square,
  stack,
  type TestUser,
} from './helpers/api';
import { gdalinfo as gdalInfo } from './helpers/gdal';

const PERIOD_DAYS = 15;
// where the test stack's catalogue has scenes (tests/helpers/shapes.ts)
const LON = IMAGERY_AREA[0] + 0.5;
const LAT = IMAGERY_AREA[1] + 0.1;
const SHAPE = square(LON, LAT);
const UTM20S = '+proj=utm +zone=20 +south +datum=WGS84 +units=m +no_defs';

interface DateEntry {
  date: string;
  min: number;
  max: number;
  cloudy: boolean;
}

const dates = (user: TestUser, fieldId: number) =>
  call('GET', '/api/layers/dates/v3', { token: user.token, query: { field_id: fieldId } });

async function image(user: TestUser, query: Record<string, string | number | boolean>) {
  const { status, type, bytes } = await download('GET', '/api/geoserver/v2', { token: user.token, query });
  return { status, type, bytes, json: () => JSON.parse(bytes.toString()) };
}

async function gdalinfo(bytes: Buffer, extension: string): Promise<any> {
  const info = await gdalInfo(bytes, extension, ['-stats']);
  // the statistics at full precision (the JSON's minimum and maximum are rounded to 3 decimals)
  for (const band of info.bands) {
    band.min = Number(band.metadata?.['']?.STATISTICS_MINIMUM);
    band.max = Number(band.metadata?.['']?.STATISTICS_MAXIMUM);
  }
  return info;
}

/** RGBA pixels of a PNG (pngjs expands RGB to RGBA). */
async function decodePng(bytes: Buffer): Promise<{ width: number; height: number; pixels: Buffer }> {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, pixels: png.data };
}

/** The field's grid as the spec gives it: its bounds in UTM at 10 m, plus 2 pixels each side. */
function expectedGrid(shape: string) {
  const coords = [...shape.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m) =>
    proj4('EPSG:4326', UTM20S, [Number(m[1]), Number(m[2])]),
  );
  const xs = coords.map((c) => c[0]!);
  const ys = coords.map((c) => c[1]!);
  const left = Math.floor(Math.min(...xs) / 10) - 2;
  const right = Math.ceil(Math.max(...xs) / 10) + 2;
  const bottom = Math.floor(Math.min(...ys) / 10) - 2;
  const top = Math.ceil(Math.max(...ys) / 10) + 2;
  return { width: right - left, height: top - bottom, x0: left * 10, y0: top * 10 };
}

let user: TestUser;
let fieldId: number;
let entries: DateEntry[];

beforeAll(async () => {
  user = await newUser();
  ({ fieldId } = await createField(user, { shape: SHAPE }));
  // every acquisition of the local catalogue in the test stack's period (tests/setup/stack.ts: 15 days)
  const expected = acquisitions(Date.now() - PERIOD_DAYS * 86_400_000, Date.now()).length;
  expect(expected).toBeGreaterThanOrEqual(3);
  entries = await eventually(
    async () => {
      const response = await dates(user, fieldId);
      const list = response.body?.layers?.sentinel2?.dates as DateEntry[] | undefined;
      return list && list.length === expected ? list : undefined;
    },
    90_000,
    500,
  );
}, 120_000);

describe('GET /api/layers/types', () => {
  it('lists every id of the spec with its name, depth families included', async () => {
    const response = await call('GET', '/api/layers/types', { token: user.token });
    expect(response.status).toBe(200);
    const byId = new Map(
      (response.body.layer_types as Array<{ id: number; nombre: string }>).map((t) => [t.id, t.nombre]),
    );
    const fixed: Record<number, string> = {
      1: 'ndvi1',
      2: 'ndvip1',
      3: 'gndvi1',
      4: 'gndvip1',
      5: 'rinde',
      6: 'rgb1',
      7: 'rgbp1',
      8: 'altimetria',
      9: 'siembra',
      10: 'herbicida',
      11: 'fungicida',
      12: 'insecticida',
      13: 'fertilizante',
      14: 'enmienda',
      15: 'profundidad_suelo',
      22: 'margen_bruto',
      24: 'ndvi0.8',
      25: 'vigor planta',
      26: 'tcari/osavi',
      27: 'NDRE',
      29: 'RGB0.8',
      31: 'sentinel2',
      32: 'landsat',
      34: 'aplicación',
      35: 'humedad',
      39: 'siembra_vel_avance',
      40: 'siembra_var',
      41: 'siembra_fecha',
      42: 'rinde_hum',
      43: 'rinde_vel_avance',
      44: 'rinde_fecha',
      234: 'aplicación_fecha',
      235: 'aplicación_hum',
      236: 'aplicación_presion',
      237: 'aplicación_temp',
      238: 'aplicación_vel_avance',
      239: 'costo',
      240: 'ingreso',
    };
    for (const [id, name] of Object.entries(fixed)) expect(byId.get(Number(id))).toBe(name);
    const depths = [20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150];
    const consecutive: Record<string, number> = {
      MO: 45,
      N: 59,
      P: 73,
      K: 87,
      S: 101,
      PH: 115,
      Ca: 129,
      Mg: 143,
      Na: 157,
      Arena: 179,
      Arcilla: 193,
      Limo: 207,
    };
    for (const [family, first] of Object.entries(consecutive)) {
      for (const [i, depth] of depths.entries()) expect(byId.get(first + i)).toBe(`${family}_${depth}`);
    }
    expect(byId.get(17)).toBe('Densidad_20');
    for (const [i, depth] of depths.slice(1).entries()) expect(byId.get(221 + i)).toBe(`Densidad_${depth}`);
    const ec: Record<number, number> = {
      20: 390,
      30: 171,
      40: 172,
      50: 391,
      60: 173,
      70: 36,
      80: 392,
      90: 174,
      100: 175,
      110: 393,
      120: 176,
      130: 177,
      140: 178,
      150: 37,
    };
    for (const [depth, id] of Object.entries(ec)) expect(byId.get(id)).toBe(`Electroconductividad_${depth}`);
    expect(byId.size).toBe(Object.keys(fixed).length + 14 * 14);
  });
});

describe('GET /api/layers/dates/v3', () => {
  it('gives a new field its satellite dates, newest first, with the five operations', async () => {
    const response = await dates(user, fieldId);
    expect(response.body.code).toBe(0);
    expect(response.body.layers.sentinel2.operations).toEqual([
      { operation: 'ndvi1', name: 'NDVI' },
      { operation: 'gndvi1', name: 'GNDVI' },
      { operation: 'rgb1', name: 'RGB' },
      { operation: 'msavi2', name: 'MSAVI2' },
      { operation: 'ndre', name: 'NDRE' },
    ]);
    const list = response.body.layers.sentinel2.dates as DateEntry[];
    expect(list.map((d) => d.date)).toEqual([...list.map((d) => d.date)].sort().reverse());
    for (const entry of list) {
      expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(entry.min).toBeGreaterThanOrEqual(-1);
      expect(entry.max).toBeLessThanOrEqual(1);
      expect(entry.min).toBeLessThanOrEqual(entry.max);
    }
    // the local scenes cloud every third acquisition over about half the ground
    expect(list.some((d) => d.cloudy)).toBe(true);
    expect(list.some((d) => !d.cloudy)).toBe(true);
  });

  it('refuses a field the caller cannot read (404) and a missing field_id (400), in the imagery shape', async () => {
    const stranger = await newUser();
    const hidden = await dates(stranger, fieldId);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ error_code: 'NOT_FOUND' });
    const missing = await call('GET', '/api/layers/dates/v3', { token: user.token });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error_code: 'PARAMETER_ERROR' });
    expect((await call('GET', '/api/layers/dates/v3', { query: { field_id: fieldId } })).status).toBe(401);
  });
});

describe('GET /api/fields/ndvi', () => {
  it('gives the mean NDVI of cloud-free dates only, within the date range', async () => {
    const response = await call('GET', '/api/fields/ndvi', { token: user.token, query: { field_id: fieldId } });
    expect(response.status).toBe(200);
    expect(response.body.code).toBe(0);
    expect(response.body.field_id).toBe(fieldId);
    const series = response.body.ndvi as Array<{ date: string; ndvi_mean: number }>;
    const clear = entries.filter((d) => !d.cloudy);
    expect(series.map((s) => s.date).sort()).toEqual(clear.map((d) => d.date.slice(0, 10)).sort());
    for (const point of series) {
      const entry = clear.find((d) => d.date.startsWith(point.date))!;
      expect(point.ndvi_mean).toBeGreaterThanOrEqual(entry.min);
      expect(point.ndvi_mean).toBeLessThanOrEqual(entry.max);
    }
    const first = clear[clear.length - 1]!.date.slice(0, 10);
    const ranged = await call('GET', '/api/fields/ndvi', {
      token: user.token,
      query: { field_id: fieldId, date_from: first, date_to: first },
    });
    expect(ranged.body.ndvi.map((s: { date: string }) => s.date)).toEqual([first]);
    const wrong = await call('GET', '/api/fields/ndvi', {
      token: user.token,
      query: { field_id: fieldId, date_from: '2026-02-30' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.res).toBe('error');
  });
});

describe('GET /api/geoserver/v2', () => {
  // a date without a cloudy pixel (the local catalogue's clear acquisitions): its min and max are the
  // extremes of every pixel
  const clearDate = () => entries.find((d) => skyOf(acquisitionIndex(Date.parse(d.date))) === 'clear')!;
  const base = () => ({ field_id: fieldId, layer_name: 'sentinel2', operation: 'ndvi1', date: clearDate().date });

  it('GeoTIFF of an index: the field bounds at 10 m plus 2 pixels, UTM EPSG, NODATA nan, values of the date', async () => {
    const grid = expectedGrid(SHAPE);
    const response = await image(user, { ...base(), format: 'image/tiff', transparent: true });
    expect(response.status).toBe(200);
    expect(response.type).toBe('image/tiff');
    const info = await gdalinfo(response.bytes, 'tif');
    expect(info.size).toEqual([grid.width, grid.height]);
    expect(info.coordinateSystem.wkt).toContain('ID["EPSG",32720]');
    expect(info.geoTransform).toEqual([grid.x0, 10, 0, grid.y0, 0, -10]);
    const band = info.bands[0];
    expect(band.type).toBe('Float32');
    expect(String(band.noDataValue)).toBe('NaN');
    // inside the perimeter only (transparent): the date's min and max
    expect(band.min).toBeCloseTo(clearDate().min, 6);
    expect(band.max).toBeCloseTo(clearDate().max, 6);
  });

  it('GeoTIFF of rgb1: three uint8 bands with NODATA 0', async () => {
    const response = await image(user, { ...base(), operation: 'rgb1', format: 'image/tiff' });
    expect(response.status).toBe(200);
    const info = await gdalinfo(response.bytes, 'tif');
    expect(info.bands).toHaveLength(3);
    for (const band of info.bands) {
      expect(band.type).toBe('Byte');
      expect(band.noDataValue).toBe(0);
      expect(band.maximum).toBeGreaterThan(0);
    }
  });

  it('PNG: RGBA through the colour scale, alpha 0 outside the field when transparent', async () => {
    const grid = expectedGrid(SHAPE);
    const opaque = await decodePng((await image(user, { ...base() })).bytes);
    expect([opaque.width, opaque.height]).toEqual([grid.width, grid.height]);
    expect(opaque.pixels[3]).toBe(255); // the corner, in the margin, has data
    const masked = await image(user, { ...base(), transparent: 'true' });
    expect(masked.type).toBe('image/png');
    const png = await decodePng(masked.bytes);
    expect(png.pixels[3]).toBe(0); // the corner is outside the field
    const centre = ((png.height >> 1) * png.width + (png.width >> 1)) * 4;
    expect(png.pixels[centre + 3]).toBe(255);
  });

  it('encoded PNG decodes back to the GeoTIFF values within half a step (1/65534)', async () => {
    const tiff = await gdalinfo((await image(user, { ...base(), format: 'image/tiff' })).bytes, 'tif');
    const encoded = await decodePng((await image(user, { ...base(), format: 'image/encoded' })).bytes);
    const values: number[] = [];
    for (let i = 0; i < encoded.width * encoded.height; i++) {
      const code = encoded.pixels[i * 4]! * 256 + encoded.pixels[i * 4 + 1]!;
      expect(encoded.pixels[i * 4 + 2]).toBe(0);
      if (code) values.push(((code - 1) / 65534) * 2 - 1);
    }
    expect(values.length).toBe(encoded.width * encoded.height);
    // the documented precision: half a step of 2/65534
    expect(Math.abs(Math.min(...values) - tiff.bands[0].min)).toBeLessThanOrEqual(1 / 65534 + 1e-7);
    expect(Math.abs(Math.max(...values) - tiff.bands[0].max)).toBeLessThanOrEqual(1 / 65534 + 1e-7);
  });

  it('epsg=3857 with bbox, width and height gives exactly width x height in EPSG 3857', async () => {
    const [x0, y0] = proj4('EPSG:4326', 'EPSG:3857', [LON - 0.001, LAT - 0.001]);
    const [x1, y1] = proj4('EPSG:4326', 'EPSG:3857', [LON + 0.011, LAT + 0.011]);
    const query = { ...base(), epsg: 3857, bbox: `${x0},${y0},${x1},${y1}`, width: 300, height: 200 };
    const tiff = await gdalinfo((await image(user, { ...query, format: 'image/tiff' })).bytes, 'tif');
    expect(tiff.size).toEqual([300, 200]);
    expect(tiff.coordinateSystem.wkt).toContain('ID["EPSG",3857]');
    expect(tiff.geoTransform[0]).toBeCloseTo(x0!, 3);
    expect(tiff.geoTransform[3]).toBeCloseTo(y1!, 3);
    const png = await decodePng((await image(user, query)).bytes);
    expect([png.width, png.height]).toEqual([300, 200]);
  });

  it("any EPSG code of the registry (SIRGAS 2000, POSGAR 2007, UTM, France's Lambert-93): without bbox, the field's bounding box there plus 2 square pixels", async () => {
    const lons = [...SHAPE.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map(
      (m) => [Number(m[1]), Number(m[2])] as [number, number],
    );
    for (const [epsg, name] of [
      [4674, 'SIRGAS 2000'],
      [5343, 'POSGAR 2007 / Argentina 1'],
      [5346, 'POSGAR 2007 / Argentina 4'],
      [5349, 'POSGAR 2007 / Argentina 7'],
      [4326, 'WGS 84'],
      [32721, 'WGS 84 / UTM zone 21S'],
      [2154, 'RGF93 v1 / Lambert-93'],
    ] as const) {
      const response = await image(user, { ...base(), epsg, format: 'image/tiff', transparent: true });
      expect(response.status, String(epsg)).toBe(200);
      const tiff = await gdalinfo(response.bytes, 'tif');
      expect(tiff.coordinateSystem.wkt, String(epsg)).toContain(`ID["EPSG",${epsg}]`);
      expect(tiff.coordinateSystem.wkt).toContain(name);
      const [x0, p, , y0, , py] = tiff.geoTransform as number[];
      // square pixels
      expect(-py!, String(epsg)).toBeCloseTo(p!, 12);
      // the field's corners in that EPSG, by GDAL's own transformer's inputs (proj4 with the registry's definition)
      const definition = (await import('proj4-list')).default[`EPSG:${epsg}`]![1];
      const corners = lons.map((c) => proj4('EPSG:4326', definition, c));
      const minX = Math.min(...corners.map((c) => c[0]!));
      const maxX = Math.max(...corners.map((c) => c[0]!));
      const maxY = Math.max(...corners.map((c) => c[1]!));
      const minY = Math.min(...corners.map((c) => c[1]!));
      const [width, height] = tiff.size as [number, number];
      expect(Math.abs(x0! - (minX - 2 * p!)), String(epsg)).toBeLessThan(p! * 1e-3);
      expect(Math.abs(x0! + width * p! - (maxX + 2 * p!))).toBeLessThan(p! * 1e-3);
      expect(Math.abs(y0! - (maxY + 2 * p!))).toBeLessThan(p! * 1e-3);
      const bottomMargin = (minY - (y0! - height * p!)) / p!;
      expect(bottomMargin).toBeGreaterThanOrEqual(2 - 1e-3);
      expect(bottomMargin).toBeLessThan(3);
      // the field's data is there
      expect(tiff.bands[0].max).toBeGreaterThan(0);
    }
  });

  it('answers a clear error for each wrong parameter, 404 for an unknown date, operation or layer', async () => {
    const expectError = async (query: Record<string, string | number | boolean>, status: number, code: string) => {
      const response = await image(user, query);
      expect(response.status, JSON.stringify(query)).toBe(status);
      expect(response.json()).toMatchObject({ error_code: code, info: expect.any(String) });
    };
    await expectError({ ...base(), bbox: '1,2,3,4' }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), width: 10, height: 10 }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), bbox: '3,2,1,4', width: 10, height: 10 }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), bbox: 'a,b,c,d', width: 10, height: 10 }, 400, 'PARAMETER_ERROR');
    // a code the EPSG registry does not have
    await expectError({ ...base(), epsg: 99_999 }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), epsg: 4327 }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), epsg: 12_345_678 }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), format: 'image/jpeg' }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), date: '2026-01-01' }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), bbox: '0,0,1,1', width: 5000, height: 10 }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), operation: 'rgb1', format: 'image/encoded' }, 400, 'PARAMETER_ERROR');
    await expectError({ ...base(), date: '1999-01-01T00:00:00Z' }, 404, 'NOT_FOUND');
    await expectError({ ...base(), operation: 'evi' }, 404, 'NOT_FOUND');
    await expectError({ ...base(), layer_name: 'landsat' }, 404, 'NOT_FOUND');
    const stranger = await newUser();
    const hidden = await image(stranger, base());
    expect(hidden.status).toBe(404);
  });
});

describe('/api/layers/scale_template', () => {
  const template = {
    template_name: 'Vigor 3 clases',
    layer_name: 'sentinel2',
    operation: 'ndvi1',
    palette: 'RdYlGn',
    type_distribution: 'equidistant',
    cant_intervals: 3,
    range_min: 0,
    range_max: 1,
    hierarchy: ['bajo', 'medio', 'alto'],
    colors_scale: {
      colors: [
        [215, 25, 28],
        [255, 255, 191],
        [26, 150, 65],
      ],
      scale: [0, 0.3, 0.6, 1],
    },
  };
  const scalePath = '/api/layers/scale_template';

  it("creates, lists, changes and deletes the caller's templates, with every field of the spec", async () => {
    const owner = await newUser();
    const created = await call('POST', scalePath, { token: owner.token, json: template });
    expect(created.status).toBe(200);
    expect(created.body.code).toBe('CREATED_SCALE_TEMPLATE');
    const id = created.body.scale_template.scale_template_id as number;
    expect(created.body.scale_template).toEqual({ scale_template_id: id, ...template });
    const listed = await call('GET', scalePath, { token: owner.token });
    expect(listed.body).toEqual({
      scale_templates: [{ scale_template_id: id, ...template }],
      code: 'RETRIEVED_SCALE_TEMPLETES',
    });
    const changed = await call('PATCH', scalePath, {
      token: owner.token,
      json: { scale_template_id: id, type_distribution: 'quantiles', template_name: 'Cuantiles' },
    });
    expect(changed.body.scale_template).toMatchObject({
      scale_template_id: id,
      type_distribution: 'quantiles',
      template_name: 'Cuantiles',
      cant_intervals: 3,
    });
    // another user sees none of it and can change none of it
    const other = await newUser();
    expect((await call('GET', scalePath, { token: other.token })).body.scale_templates).toEqual([]);
    expect(
      (await call('PATCH', scalePath, { token: other.token, json: { scale_template_id: id, template_name: 'x' } }))
        .status,
    ).toBe(404);
    expect((await call('DELETE', scalePath, { token: other.token, query: { scale_template_id: id } })).status).toBe(
      404,
    );
    expect((await call('DELETE', scalePath, { token: owner.token, query: { scale_template_id: id } })).body).toEqual({
      code: 'DELETED_SCALE_TEMPLATE',
    });
    expect((await call('GET', scalePath, { token: owner.token })).body.scale_templates).toEqual([]);
    expect((await call('DELETE', scalePath, { token: owner.token, query: { scale_template_id: id } })).status).toBe(
      404,
    );
  });

  it('refuses a template that breaks its rules, in the imagery shape, storing nothing', async () => {
    const owner = await newUser();
    const bad = [
      { ...template, colors_scale: { ...template.colors_scale, scale: [0, 0.6, 0.3, 1] } },
      { ...template, colors_scale: { ...template.colors_scale, colors: [[1, 2, 3]] } },
      {
        ...template,
        colors_scale: {
          ...template.colors_scale,
          colors: [
            [1, 2, 300],
            [1, 2, 3],
            [1, 2, 3],
          ],
        },
      },
      { ...template, range_min: 1, range_max: 0 },
      { ...template, type_distribution: 'natural breaks' },
      { ...template, layer_name: 'no-such-layer' },
      { ...template, operation: 'rgb1' },
      { ...template, template_name: '' },
    ];
    for (const json of bad) {
      const response = await call('POST', scalePath, { token: owner.token, json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(response.body).toMatchObject({ error_code: 'PARAMETER_ERROR' });
    }
    expect((await call('GET', scalePath, { token: owner.token })).body.scale_templates).toEqual([]);
  });

  it('colours a PNG with the template when asked (scale_template_id)', async () => {
    const id = (await call('POST', scalePath, { token: user.token, json: template })).body.scale_template
      .scale_template_id as number;
    const clear = entries.find((d) => !d.cloudy)!;
    const response = await image(user, {
      field_id: fieldId,
      layer_name: 'sentinel2',
      operation: 'ndvi1',
      date: clear.date,
      scale_template_id: id,
      transparent: true,
    });
    expect(response.status).toBe(200);
    const png = await decodePng(response.bytes);
    const allowed = new Set(template.colors_scale.colors.map((c) => c.join(',')));
    let coloured = 0;
    for (let i = 0; i < png.width * png.height; i++) {
      if (!png.pixels[i * 4 + 3]) continue;
      coloured++;
      expect(allowed.has([...png.pixels.subarray(i * 4, i * 4 + 3)].join(','))).toBe(true);
    }
    expect(coloured).toBeGreaterThan(0);
    // a template of another operation, or with a GeoTIFF, is a parameter error
    const wrong = await image(user, {
      field_id: fieldId,
      layer_name: 'sentinel2',
      operation: 'ndre',
      date: clear.date,
      scale_template_id: id,
    });
    expect(wrong.status).toBe(400);
    const stranger = await newUser();
    const theirs = (await call('POST', scalePath, { token: stranger.token, json: template })).body.scale_template
      .scale_template_id as number;
    expect(
      (
        await image(user, {
          field_id: fieldId,
          layer_name: 'sentinel2',
          operation: 'ndvi1',
          date: clear.date,
          scale_template_id: theirs,
        })
      ).status,
    ).toBe(404);
  });
});

describe('the daily schedule', () => {
  it('queues a tile job for the fields of every tile (one search each): a date lost since is stored again', async () => {
    const { endpoints, table, ports } = stack();
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: 'us-east-1',
        endpoint: endpoints.dynamodb,
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      }),
    );
    const lost = entries[0]!;
    await db.send(
      new DeleteCommand({
        TableName: table,
        Key: { pk: `FIELD#${fieldId}`, sk: `IMAGERY#sentinel2#${lost.date.slice(0, 10)}` },
      }),
    );
    expect((await dates(user, fieldId)).body.layers.sentinel2.dates).toHaveLength(entries.length - 1);
    // what EventBridge does once a day: invoke the scheduled function
    const invoked = await fetch(
      `http://127.0.0.1:${ports.lambda}/2015-03-31/functions/surco-imagery-local-imageryDaily/invocations`,
      { method: 'POST', body: '{}' },
    );
    expect(invoked.status).toBe(200);
    const queued = (await invoked.json()) as { fields: number; tiles: number };
    expect(queued.fields).toBeGreaterThanOrEqual(1);
    expect(queued.tiles).toBeGreaterThanOrEqual(1);
    expect(queued.tiles).toBeLessThanOrEqual(queued.fields);
    const back = await eventually(
      async () => {
        const list = (await dates(user, fieldId)).body.layers.sentinel2.dates as DateEntry[];
        return list.some((d) => d.date === lost.date) ? list : undefined;
      },
      150_000,
      500,
    ); // the schedule queues a job for every field of the test run: ours waits its turn
    expect(back.find((d) => d.date === lost.date)).toEqual(lost);
    db.destroy();
  }, 180_000);
});

describe('season shape change', () => {
  it('reprocesses the imagery for the new shape and releases the lock only after', async () => {
    const owner = await newUser({ claims: ['*'] });
    const small = square(LON + 0.05, LAT, 0.008);
    const { fieldId: id } = await createField(owner, { shape: small });
    await eventually(
      async () => ((await dates(owner, id)).body?.layers?.sentinel2?.dates?.length >= 3 ? true : undefined),
      90_000,
      500,
    );
    const grown = square(LON + 0.05, LAT, 0.012);
    const posted = await call('POST', '/api/fields/v2/shapes', {
      token: owner.token,
      json: { field_id: id, campaign: new Date().getUTCFullYear(), shape: grown },
    });
    expect(posted.body).toEqual({ info: 'shape was created', data: { images_reprocessing: true } });
    const latest = (await dates(owner, id)).body.layers.sentinel2.dates[0].date as string;
    const sizeOf = async () =>
      (
        await gdalinfo(
          (
            await image(owner, {
              field_id: id,
              layer_name: 'sentinel2',
              operation: 'ndvi1',
              date: latest,
              format: 'image/tiff',
            })
          ).bytes,
          'tif',
        )
      ).size;
    // while locked, a reader still finds images (of the old shape); once released, every date is of the new shape
    await eventually(
      async () =>
        (await call('GET', '/api/fields/v2/shape/lock', { token: owner.token, query: { field_id: id } })).status === 200
          ? true
          : undefined,
      150_000,
      250,
    );
    const grid = expectedGrid(grown);
    expect(await sizeOf()).toEqual([grid.width, grid.height]);
    for (const entry of (await dates(owner, id)).body.layers.sentinel2.dates as DateEntry[]) {
      const info = await gdalinfo(
        (
          await image(owner, {
            field_id: id,
            layer_name: 'sentinel2',
            operation: 'ndvi1',
            date: entry.date,
            format: 'image/tiff',
          })
        ).bytes,
        'tif',
      );
      expect(info.size).toEqual([grid.width, grid.height]);
    }
  }, 300_000);
});
