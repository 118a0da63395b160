// Spec 2 "Creating a layer from a file" (POST /files, POST /raster), spec 3 POST
// /api/sampling/<uuid>/rasterize and GET api/sampling/analysis_variable/layer_type, against the local
// stack: real zips (jszip, shp-write), layers made by the imagery worker, listed by dates v3 and
// rendered by /api/geoserver/v2, the GeoTIFFs read back by GDAL.
import { randomUUID } from 'node:crypto';
import shpwrite from '@mapbox/shp-write';
import JSZip from 'jszip';
import { PNG } from 'pngjs';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { call, createField, download, eventually, internal, newUser, square, type TestUser } from './helpers/api';
import { gdalinfo, gdalTranslate } from './helpers/gdal';
import * as hostile from './helpers/hostile-files';
import { seededRandom as random } from './helpers/random';

async function zip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const archive = new JSZip();
  for (const [name, content] of Object.entries(entries)) archive.file(name, content);
  return archive.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function upload(user: TestUser, content: Buffer, filename = 'capa.zip') {
  const form = new FormData();
  form.set('file', new Blob([content]), filename);
  return call('POST', '/files', { token: user.token, body: form });
}

const raster = (user: TestUser, json: unknown) => call('POST', '/raster', { token: user.token, json });
const dates = (user: TestUser, fieldId: number) =>
  call('GET', '/api/layers/dates/v3', { token: user.token, query: { field_id: fieldId } });

async function image(user: TestUser, query: Record<string, string | number | boolean>) {
  const { status, bytes } = await download('GET', '/api/geoserver/v2', { token: user.token, query });
  return { status, bytes };
}

/** Band statistics of a GeoTIFF by GDAL. */
async function tiffStats(
  bytes: Buffer,
): Promise<{ min: number; max: number; mean: number; width: number; height: number }> {
  const info = await gdalinfo(bytes, 'tif', ['-stats']);
  const stats = info.bands[0].metadata[''];
  return {
    min: Number(stats.STATISTICS_MINIMUM),
    max: Number(stats.STATISTICS_MAXIMUM),
    mean: Number(stats.STATISTICS_MEAN),
    width: info.size[0],
    height: info.size[1],
  };
}

/** Distinct values of a float32 GeoTIFF's pixels (by GDAL, as XYZ text). */
async function tiffValues(bytes: Buffer): Promise<number[]> {
  const xyz = (await gdalTranslate(bytes, 'tif', ['-q', '-of', 'XYZ'])).toString();
  return [
    ...new Set(
      xyz
        .trim()
        .split('\n')
        .map((line) => Number(line.split(' ')[2]))
        .filter((v) => Number.isFinite(v)),
    ),
  ];
}

/** The layer's date entry once the worker stored it. */
const layerDate = (user: TestUser, fieldId: number, layer: string, date: string) =>
  eventually(
    async () => {
      const response = await dates(user, fieldId);
      return (response.body?.layers?.[layer]?.dates as any[] | undefined)?.find((d) => d.date === date);
    },
    60_000,
    300,
  );

const LON = -61.2;
const LAT = -34.6;

/** A yield monitor's csv: ';' between cells, decimal commas, points inside the field, a few outliers and some outside. */
function yieldCsv(inside: number, outside: number) {
  const next = random(7);
  const rows = ['Latitud;Longitud;Rinde;Humedad;Variedad'];
  const values: number[] = [];
  for (let i = 0; i < inside; i++) {
    const lon = LON + 0.001 + next() * 0.008;
    const lat = LAT + 0.001 + next() * 0.008;
    const rinde = i % 50 === 0 ? 99_999 : 8000 + 3000 * Math.sin((lon - LON) * 600) + next() * 200;
    values.push(rinde);
    rows.push(
      `${lat.toFixed(7).replace('.', ',')};${lon.toFixed(7).replace('.', ',')};${rinde.toFixed(1).replace('.', ',')};${(14 + next()).toFixed(2).replace('.', ',')};DM 46`,
    );
  }
  for (let i = 0; i < outside; i++) rows.push(`${(LAT + 0.5).toFixed(5)};${(LON + 0.5).toFixed(5)};7000;15;DM 46`);
  return { csv: rows.join('\r\n'), values };
}

describe('POST /files', () => {
  it('reads a zipped csv of yield points: the field, the numeric columns, statistics and histograms of the points inside', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(LON, LAT) });
    const { csv, values } = yieldCsv(300, 20);
    const response = await upload(user, await zip({ 'cosecha/rinde.csv': csv }));
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      redis_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      lote_id: fieldId,
      columns: ['Rinde', 'Humedad'],
    });
    const sorted = [...values].sort((a, b) => a - b);
    const stats = data.stats.Rinde;
    expect(stats.count).toBe(300);
    expect(stats.min).toBeCloseTo(sorted[0]!, 1);
    expect(stats.max).toBeCloseTo(99_999, 1);
    expect(stats.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / 300, 0);
    expect(stats.percentiles.p50).toBeCloseTo((sorted[149]! + sorted[150]!) / 2, 0);
    expect(stats.std).toBeGreaterThan(0);
    const histogram = data.histograms.Rinde;
    expect(histogram.bins).toHaveLength(21);
    expect(histogram.bins[0]).toBeCloseTo(stats.min, 1);
    expect(histogram.bins[20]).toBeCloseTo(stats.max, 1);
    expect(histogram.counts.reduce((a: number, b: number) => a + b, 0)).toBe(300);
    expect(histogram.counts[19]).toBe(6); // the outliers, every 50th point
    expect(data.stats.Humedad.min).toBeGreaterThanOrEqual(14);
  });

  it("answers not_found with the extent of a file on none of the caller's fields (another user's field included)", async () => {
    const owner = await newUser();
    await createField(owner, { shape: square(LON, LAT) });
    const stranger = await newUser();
    const csv = 'lat,lon,rinde\n-34.595,-61.195,9000\n-34.592,-61.191,9100\n';
    const response = await upload(stranger, await zip({ 'rinde.csv': csv }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        not_found: true,
        lote: 'POLYGON((-61.195 -34.595,-61.191 -34.595,-61.191 -34.592,-61.195 -34.592,-61.195 -34.595))',
      },
    });
  });

  it('answers ERROR_ARCHIVO for a zip bomb, a path traversal, a non-zip, an empty zip and a table without coordinates', async () => {
    const user = await newUser();
    await createField(user, { shape: square(LON, LAT) });
    const refused = async (content: Buffer, pattern: RegExp) => {
      const response = await upload(user, content);
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe('ERROR_ARCHIVO');
      expect(response.body.info).toMatch(pattern);
    };
    await refused(await zip({ 'rinde.csv': Buffer.alloc(80 * 1024 * 1024, 0x20) }), /more than 64 MiB uncompressed/);
    await refused(await zip({ '../../etc/rinde.csv': 'lat,lon,rinde\n-34.595,-61.195,9000\n' }), /outside its folder/);
    await refused(Buffer.from('lat,lon,rinde\n-34.595,-61.195,9000\n'), /not a zip/);
    await refused(await zip({}), /no shapefile, csv, txt or xlsx/);
    await refused(await zip({ 'rinde.csv': 'campo,rinde\nA,9000\nB,9100\n' }), /latitude and longitude/);
    await refused(await zip({ 'lotes.shp': Buffer.from('not a shapefile at all') }), /cannot be read/);
    const none = await call('POST', '/files', { token: user.token, json: { file: 'x' } });
    expect(none.status).toBe(400);
    expect(none.body.error_code).toBe('ERROR_ARCHIVO');
    const anonymous = await call('POST', '/files', { body: new FormData() });
    expect(anonymous.status).toBe(401);
  });

  it('answers ERROR_ARCHIVO within 2 s for small hostile files (17 tables of 200,000 rows, a million columns, workbook bombs, a .dbf of 4 billion records)', async () => {
    const user = await newUser();
    await createField(user, { shape: square(LON, LAT) });
    await upload(user, await zip({ 'rinde.csv': 'lat,lon,rinde\n' })); // a cold function is not what is timed
    const files: Array<[hostile.HostileFile, RegExp]> = [
      [hostile.manyTables(), /more than 200000 rows/],
      [hostile.manyColumns(), /more than 1000 columns/],
      [hostile.zipped(hostile.sharedStringsBomb()), /sharedStrings\.xml" is larger than 16 MiB/],
      [hostile.zipped(hostile.cellsBomb()), /more than 2000000 cells/],
      [hostile.zipped(hostile.wideSheet()), /more than 1000 columns/],
      [hostile.dbfRecordsBomb(), /\.dbf declares 4294967280 records/],
      [hostile.shpVerticesBomb(), /lote\.shp" is larger than 32 MiB/],
    ];
    for (const [file, message] of files) {
      const started = performance.now();
      const response = await upload(user, file.content, file.filename);
      expect([file.label, response.status, response.body.error_code]).toEqual([file.label, 400, 'ERROR_ARCHIVO']);
      expect(response.body.info).toMatch(message);
      expect(performance.now() - started, file.label).toBeLessThan(2000);
    }
  });

  it('lands a zipped shapefile of polygons in UTM (with its .prj) on the right field, and makes a layer of them', async () => {
    const user = await newUser();
    await createField(user, { shape: square(LON, LAT) });
    const target = await createField(user, { shape: square(LON + 0.05, LAT) });
    const utm = '+proj=utm +zone=20 +south +datum=WGS84 +units=m +no_defs';
    const prj =
      'PROJCS["WGS 84 / UTM zone 20S",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],' +
      'PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",-63],PARAMETER["scale_factor",0.9996],' +
      'PARAMETER["false_easting",500000],PARAMETER["false_northing",10000000],UNIT["metre",1]]';
    // two zones, west and east halves of the target field
    const zone = (lon: number, width: number, dosis: number) => ({
      type: 'Feature',
      properties: { DOSIS: dosis, ZONA: `z${dosis}` },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [lon, LAT],
            [lon, LAT + 0.01],
            [lon + width, LAT + 0.01],
            [lon + width, LAT],
            [lon, LAT],
          ].map((p) => proj4('EPSG:4326', utm, p)),
        ],
      },
    });
    const geojson = {
      type: 'FeatureCollection',
      features: [zone(LON + 0.05, 0.005, 80), zone(LON + 0.055, 0.005, 120)],
    };
    const content = (await shpwrite.zip(
      geojson as never,
      { outputType: 'nodebuffer', prj, types: { polygon: 'zonas' } } as never,
    )) as Buffer;
    const response = await upload(user, content);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ lote_id: target.fieldId, columns: ['DOSIS'] });
    expect(response.body.data.stats.DOSIS).toMatchObject({ count: 2, min: 80, max: 120, mean: 100 });
    const made = await raster(user, {
      redis_id: response.body.data.redis_id,
      date: '2026-10-01 12:00:00',
      lote_id: target.fieldId,
      data: {
        DOSIS: {
          id_layer: 13,
          mean: null,
          min: null,
          max: null,
          meta: { numerador_media: 'kg', denominador_media: 'ha' },
        },
      },
    });
    expect(made.status).toBe(200);
    expect(made.body.data.layers).toEqual([
      {
        column: 'DOSIS',
        id_layer: 13,
        layer_name: 'fertilizante',
        operation: 'fertilizante',
        date: '2026-10-01T12:00:00Z',
        // a zone shapefile is painted zone by zone, as the layer's dates later say
        interpolation: 'polygons',
      },
    ]);
    const entry = await layerDate(user, target.fieldId, 'fertilizante', '2026-10-01T12:00:00Z');
    expect(entry).toMatchObject({
      min: 80,
      max: 120,
      cloudy: false,
      metadata: {
        numerador_media: 'kg',
        denominador_media: 'ha',
        id_layer: 13,
        column: 'DOSIS',
        interpolation: 'polygons',
      },
    });
    const tiff = await image(user, {
      field_id: target.fieldId,
      layer_name: 'fertilizante',
      operation: 'fertilizante',
      date: '2026-10-01T12:00:00Z',
      format: 'image/tiff',
    });
    expect(tiff.status).toBe(200);
    expect((await tiffValues(tiff.bytes)).sort()).toEqual([120, 80]);
  });
});

describe('POST /raster', () => {
  it('makes a rinde layer by kriging within the outlier bounds, listed by dates v3 and rendered; the mean is rescaled when asked', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(LON, LAT) });
    const { csv } = yieldCsv(400, 0);
    const uploaded = await upload(user, await zip({ 'rinde.csv': csv }));
    expect(uploaded.status).toBe(200);
    const redisId = uploaded.body.data.redis_id;
    const made = await raster(user, {
      redis_id: redisId,
      date: '2026-04-20 00:00:00',
      lote_id: fieldId,
      data: {
        Rinde: {
          id_layer: 5,
          mean: null,
          min: 5000,
          max: 12000,
          meta: { numerador_media: 'kg', denominador_media: 'ha' },
          interpolation_type: 'kriging',
        },
        Humedad: {
          id_layer: 42,
          mean: 15.5,
          min: null,
          max: null,
          meta: { numerador_media: '%', denominador_media: null },
        },
      },
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ code: 0, data: { job_id: expect.any(String), field_id: fieldId } });
    const rinde = await layerDate(user, fieldId, 'rinde', '2026-04-20T00:00:00Z');
    expect(rinde.metadata).toMatchObject({
      interpolation: 'kriging',
      variogram: { model: expect.any(String) },
      numerador_media: 'kg',
    });
    expect(rinde.min).toBeGreaterThanOrEqual(5000);
    expect(rinde.max).toBeLessThanOrEqual(12000);
    const listed = await dates(user, fieldId);
    expect(listed.body.layers.rinde.operations).toEqual([{ operation: 'rinde', name: 'rinde' }]);
    expect(listed.body.layers.sentinel2).toBeDefined();
    const query = { field_id: fieldId, layer_name: 'rinde', operation: 'rinde', date: '2026-04-20T00:00:00Z' };
    const tiff = await image(user, { ...query, format: 'image/tiff' });
    expect(tiff.status).toBe(200);
    const stats = await tiffStats(tiff.bytes);
    expect(stats.min).toBeGreaterThanOrEqual(5000);
    expect(stats.max).toBeLessThanOrEqual(12000);
    expect(stats.min).toBeCloseTo(rinde.min, 0);
    const png = await image(user, { ...query, format: 'image/png', transparent: true });
    expect(png.status).toBe(200);
    const decoded = PNG.sync.read(png.bytes);
    expect(decoded.width).toBe(stats.width);
    expect(decoded.data[3]).toBe(0); // the corner is outside the field
    const humedad = await layerDate(user, fieldId, 'rinde_hum', '2026-04-20T00:00:00Z');
    expect(humedad.metadata).toMatchObject({ interpolation: 'idw', mean_rescaled_to: 15.5 });
    const wet = await tiffStats(
      (await image(user, { ...query, layer_name: 'rinde_hum', operation: 'rinde_hum', format: 'image/tiff' })).bytes,
    );
    expect(wet.mean).toBeCloseTo(15.5, 3);
  });

  it("refuses an unknown or another user's upload, a satellite or unknown layer type, a column that is not numeric, crossed bounds", async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(LON, LAT) });
    const uploaded = await upload(user, await zip({ 'rinde.csv': yieldCsv(50, 0).csv }));
    const base = {
      redis_id: uploaded.body.data.redis_id,
      date: '2026-04-20 00:00:00',
      lote_id: fieldId,
      data: { Rinde: { id_layer: 5, mean: null, min: null, max: null, meta: {} } },
    };
    const expectError = async (who: TestUser, body: unknown, status: number, code: string) => {
      const response = await raster(who, body);
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.error_code).toBe(code);
    };
    await expectError(user, { ...base, redis_id: 'f'.repeat(32) }, 404, 'NOT_FOUND');
    await expectError(await newUser(), base, 404, 'NOT_FOUND');
    await expectError(user, { ...base, data: { Rinde: { ...base.data.Rinde, id_layer: 31 } } }, 400, 'PARAMETER_ERROR');
    await expectError(
      user,
      { ...base, data: { Rinde: { ...base.data.Rinde, id_layer: 9999 } } },
      400,
      'PARAMETER_ERROR',
    );
    await expectError(user, { ...base, data: { Variedad: base.data.Rinde } }, 400, 'PARAMETER_ERROR');
    await expectError(
      user,
      { ...base, data: { Rinde: { ...base.data.Rinde, min: 10, max: 5 } } },
      400,
      'PARAMETER_ERROR',
    );
    await expectError(user, { ...base, data: { Rinde: { ...base.data.Rinde, min: 1e9 } } }, 400, 'PARAMETER_ERROR');
    await expectError(user, { ...base, date: '2026-02-30 00:00:00' }, 400, 'PARAMETER_ERROR');
    await expectError(user, { ...base, data: {} }, 400, 'PARAMETER_ERROR');
    const other = await createField(user, { shape: square(LON + 1, LAT) });
    await expectError(user, { ...base, lote_id: other.fieldId }, 400, 'PARAMETER_ERROR');
    // nothing was queued by the refusals: no rinde layer appears
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await dates(user, fieldId)).body.layers.rinde).toBeUndefined();
  });

  it('colours a layer with a scale template of the caller', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(LON, LAT) });
    const uploaded = await upload(
      user,
      await zip({
        'rinde.csv':
          'lat,lon,rinde\n-34.595,-61.195,6000\n-34.595,-61.1935,6000\n-34.593,-61.195,10000\n-34.593,-61.1935,10000\n',
      }),
    );
    await raster(user, {
      redis_id: uploaded.body.data.redis_id,
      date: '2026-04-21 00:00:00',
      lote_id: fieldId,
      data: { rinde: { id_layer: 5, mean: null, min: null, max: null, meta: {} } },
    });
    await layerDate(user, fieldId, 'rinde', '2026-04-21T00:00:00Z');
    const template = await call('POST', '/api/layers/scale_template', {
      token: user.token,
      json: {
        template_name: 'Rinde en dos',
        layer_name: 'rinde',
        operation: 'rinde',
        type_distribution: 'equidistant',
        cant_intervals: 2,
        range_min: 0,
        range_max: 20000,
        colors_scale: {
          colors: [
            [255, 0, 0],
            [0, 0, 255],
          ],
          scale: [0, 8000, 20000],
        },
      },
    });
    expect(template.status).toBe(200);
    const png = await image(user, {
      field_id: fieldId,
      layer_name: 'rinde',
      operation: 'rinde',
      date: '2026-04-21T00:00:00Z',
      transparent: true,
      scale_template_id: template.body.scale_template.scale_template_id,
    });
    expect(png.status).toBe(200);
    const { data } = PNG.sync.read(png.bytes);
    const colours = new Set<string>();
    for (let i = 0; i < data.length; i += 4) if (data[i + 3]) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    expect([...colours].sort()).toEqual(['0,0,255', '255,0,0']);
  });
});

describe('samplings: layers', () => {
  it('lists the analysis variables by depth range with the layer type ids of the spec', async () => {
    const user = await newUser();
    const response = await call('GET', '/api/sampling/analysis_variable/layer_type', { token: user.token });
    expect(response.status).toBe(200);
    expect(typeof response.body.code).toBe('string');
    const data = response.body.data;
    expect(Object.keys(data)).toEqual([
      '0-20',
      '20-30',
      '30-40',
      '40-50',
      '50-60',
      '60-70',
      '70-80',
      '80-90',
      '90-100',
      '100-110',
      '110-120',
      '120-130',
      '130-140',
      '140-150',
    ]);
    expect(data['0-20'].MO).toEqual({ operation: 'MO_20', layer_name: 'MO_20', id_layer: 45 });
    expect(data['140-150'].Limo).toMatchObject({ layer_name: 'Limo_150', id_layer: 220 });
    expect(data['0-20'].Densidad.id_layer).toBe(17);
    expect(data['20-30'].Densidad.id_layer).toBe(221);
    expect(data['60-70'].Electroconductividad.id_layer).toBe(36);
    expect(data['0-20'].Electroconductividad.id_layer).toBe(390);
    expect(Object.keys(data['0-20'])).toHaveLength(14);
  });

  const CENTRED = [
    [-61.198, -34.598, 2.0, 10],
    [-61.192, -34.598, 3.0, 14],
    [-61.198, -34.592, 4.0, 18],
    [-61.192, -34.592, 5.0, 22],
    [-61.195, -34.595, 3.5, 16],
  ];

  /** A sampling of a new field with one analysis (MO and P), its samples recorded as spots. */
  async function sampling(
    samples = CENTRED,
    zoning: (fieldId: number, token: string) => Promise<unknown> = async () => ({ info: {}, type: 'none' }),
  ) {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: square(LON, LAT) });
    const group = randomUUID();
    const created = await internal('/internal/samplings', {
      sampling_name: 'Muestreo',
      field_id: fieldId,
      yeargroup: 2026,
      zoning: await zoning(fieldId, owner.token),
      analysis: {
        'Suelo 0-20': [
          { name: 'MO', unit_id: 2 },
          { name: 'P', unit_id: 7 },
        ],
      },
      groups: [{ group_uuid: group, color: '#D7191C', name: 'A' }],
      points: [],
    });
    expect(created.status).toBe(200);
    const { sampling_uuid: samplingUuid, sample_set_uuid: sampleSetUuid } = created.body.data;
    for (const [lon, lat, mo, p] of samples) {
      const spot = await call('POST', '/spots/spot', {
        token: owner.token,
        json: {
          field_id: fieldId,
          shape: `POINT(${lon} ${lat})`,
          name: 'Suelo 0-20',
          group_uuid: group,
          sample_set: { sample_set_uuid: sampleSetUuid, sample_set_type: 'soil_sampling' },
          data: {
            variables: [
              { name: 'MO', unit_id: 2, value: mo },
              { name: 'P', unit_id: 7, value: p },
            ],
          },
        },
      });
      expect(spot.status).toBe(200);
    }
    return { owner, fieldId, samplingUuid };
  }

  it('over the map the sampling references: each zone takes the mean of the samples inside it', async () => {
    const zone = (lon: number, name: string, id: number) => ({
      type: 'Feature',
      properties: { nombre: name, id },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [lon, LAT],
            [lon + 0.005, LAT],
            [lon + 0.005, LAT + 0.01],
            [lon, LAT + 0.01],
            [lon, LAT],
          ],
        ],
      },
    });
    const samples = [
      [LON + 0.002, LAT + 0.002, 2, 10],
      [LON + 0.003, LAT + 0.008, 4, 10],
      [LON + 0.008, LAT + 0.005, 6, 10],
    ];
    const { owner, fieldId, samplingUuid } = await sampling(samples, async (id, token) => {
      const map = await call('POST', '/api/users/me/maps', {
        token,
        json: {
          nombre: 'Ambientes',
          id_lote: id,
          id_tipo: 1,
          geojson: { type: 'FeatureCollection', features: [zone(LON, 'oeste', 0), zone(LON + 0.005, 'este', 1)] },
        },
      });
      expect(map.status).toBe(200);
      const listed = await call('GET', '/api/users/me/maps', { token, query: { id_lote: id } });
      return { info: { map_id: String(listed.body.data[0].id) }, type: 'map' };
    });
    const response = await call('POST', `/api/sampling/${samplingUuid}/rasterize`, {
      token: owner.token,
      json: {
        layers: [
          { analysis: 'Suelo 0-20', variable_name: 'MO', layer_date: '2026-05-04T00:00:00Z', layer_name: 'MO_20' },
        ],
        interpolation_polygon: true,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.layers[0].interpolation).toBe('polygons');
    const entry = await layerDate(owner, fieldId, 'MO_20', '2026-05-04T00:00:00Z');
    expect([entry.min, entry.max]).toEqual([3, 6]);
    const tiff = await image(owner, {
      field_id: fieldId,
      layer_name: 'MO_20',
      operation: 'MO_20',
      date: '2026-05-04T00:00:00Z',
      format: 'image/tiff',
    });
    expect((await tiffValues(tiff.bytes)).sort()).toEqual([3, 6]);
  });

  it('rasterizes samples by kriging and over the field, one layer per item; -11 for a reader who cannot change the sampling, 404 for a stranger', async () => {
    const { owner, fieldId, samplingUuid } = await sampling();
    const path = `/api/sampling/${samplingUuid}/rasterize`;
    const kriged = await call('POST', path, {
      token: owner.token,
      json: {
        layers: [
          { analysis: 'Suelo 0-20', variable_name: 'MO', layer_date: '2026-05-01T00:00:00Z', layer_name: 'MO_20' },
          { analysis: 'Suelo 0-20', variable_name: 'P', layer_date: '2026-05-01T00:00:00Z', layer_name: 'P_20' },
        ],
        interpolation_polygon: false,
      },
    });
    expect(kriged.status).toBe(200);
    expect(kriged.body.data.layers.map((l: any) => [l.layer_name, l.interpolation])).toEqual([
      ['MO_20', 'kriging'],
      ['P_20', 'kriging'],
    ]);
    const mo = await layerDate(owner, fieldId, 'MO_20', '2026-05-01T00:00:00Z');
    expect(mo.min).toBeGreaterThanOrEqual(2);
    expect(mo.max).toBeLessThanOrEqual(5);
    expect(mo.max - mo.min).toBeGreaterThan(1); // a surface, not one value
    const p = await layerDate(owner, fieldId, 'P_20', '2026-05-01T00:00:00Z');
    expect(p.min).toBeGreaterThanOrEqual(10);
    expect(p.max).toBeLessThanOrEqual(22);
    const polygon = await call('POST', path, {
      token: owner.token,
      json: {
        layers: [
          { analysis: 'Suelo 0-20', variable_name: 'MO', layer_date: '2026-05-02T00:00:00Z', layer_name: 'MO_20' },
        ],
        interpolation_polygon: true,
      },
    });
    expect(polygon.status).toBe(200);
    const flat = await layerDate(owner, fieldId, 'MO_20', '2026-05-02T00:00:00Z');
    expect(flat.min).toBeCloseTo(3.5, 5); // the field takes the mean of its samples
    expect(flat.max).toBeCloseTo(3.5, 5);
    const tiff = await image(owner, {
      field_id: fieldId,
      layer_name: 'MO_20',
      operation: 'MO_20',
      date: '2026-05-02T00:00:00Z',
      format: 'image/tiff',
    });
    expect(await tiffValues(tiff.bytes)).toEqual([3.5]);

    // a stranger is answered exactly as for a sampling nobody made; a reader of the field gets -11
    const rasterizeBody = {
      layers: [
        { analysis: 'Suelo 0-20', variable_name: 'MO', layer_date: '2026-05-03T00:00:00Z', layer_name: 'MO_20' },
      ],
      interpolation_polygon: true,
    };
    const stranger = await newUser();
    const unknown = randomUUID();
    const foreign = await call('POST', path, { token: stranger.token, json: rasterizeBody });
    const nobody = await call('POST', `/api/sampling/${unknown}/rasterize`, {
      token: stranger.token,
      json: rasterizeBody,
    });
    expect([foreign.status, foreign.text.replaceAll(samplingUuid, '<uuid>')]).toEqual([
      nobody.status,
      nobody.text.replaceAll(unknown, '<uuid>'),
    ]);
    expect([foreign.status, foreign.body.code]).toEqual([404, -1]);
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    const refused = await call('POST', path, { token: reader.token, json: rasterizeBody });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(-11);
    const unknownLayer = await call('POST', path, {
      token: owner.token,
      json: {
        layers: [
          { analysis: 'Suelo 0-20', variable_name: 'MO', layer_date: '2026-05-03T00:00:00Z', layer_name: 'sentinel2' },
        ],
        interpolation_polygon: true,
      },
    });
    expect(unknownLayer.status).toBe(400);
    const unknownAnalysis = await call('POST', path, {
      token: owner.token,
      json: {
        layers: [{ analysis: 'Foliar', variable_name: 'MO', layer_date: '2026-05-03T00:00:00Z', layer_name: 'MO_20' }],
        interpolation_polygon: true,
      },
    });
    expect(unknownAnalysis.status).toBe(400);
    const missing = await call('POST', `/api/sampling/${randomUUID()}/rasterize`, {
      token: owner.token,
      json: {
        layers: [
          { analysis: 'Suelo 0-20', variable_name: 'MO', layer_date: '2026-05-03T00:00:00Z', layer_name: 'MO_20' },
        ],
        interpolation_polygon: true,
      },
    });
    expect(missing.status).toBe(404);
  });
});
