// Layers from files (lib/imagery/layer-file.ts, lib/imagery/user-layers.ts) against memory:
// reading tables and zips, statistics, matching a field, the layer job's values.
import * as XLSX from '@e965/xlsx';
import shpwrite from '@mapbox/shp-write';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { layerBuilder } from '../../lib/imagery/layer-build';
import { LAYER_FILE_LIMITS, numberOf, readLayerFile, textRows as rowsOf } from '../../lib/imagery/layer-file';
import { columnStats, histogramOf, type LayerTable } from '../../lib/imagery/layer-table';
import { decodeRaster } from '../../lib/imagery/raster';
import type { ImageryDate } from '../../lib/imagery/service';
import {
  type LayerJob,
  type LayerUpload,
  type UploadAnswer,
  type UserLayerRepository,
  userLayers,
} from '../../lib/imagery/user-layers';
import type { Field, FieldShape } from '../../lib/platform/model';
import * as delimited from '../../lib/util/delimited';
import { memoryField, memoryGate } from './helpers/memory-gate';

const principal = { user: { id: 9 } } as Principal;

async function zip(entries: Record<string, string | Buffer | Uint8Array>): Promise<Buffer> {
  const archive = new JSZip();
  for (const [name, content] of Object.entries(entries)) archive.file(name, content);
  return archive.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const textRows = (text: string) => rowsOf(delimited, Buffer.from(text, 'utf8'));

/** An upload that landed on a field (the answer names it). */
function landed(answer: UploadAnswer): Exclude<UploadAnswer, { not_found: true }> {
  if ('not_found' in answer) throw new Error(`the file landed on no field: ${answer.lote}`);
  return answer;
}

describe('tables', () => {
  it('finds the delimiter, honours quotes and reads decimal commas', () => {
    expect(textRows('a;b;c\n1,5;2;"x;y"\n')).toEqual([
      ['a', 'b', 'c'],
      ['1,5', '2', 'x;y'],
    ]);
    expect(textRows('a\tb\n1\t2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(textRows('a,b\n"1,5",2\n')).toEqual([
      ['a', 'b'],
      ['1,5', '2'],
    ]);
    expect(textRows('a b  c\n1 2  3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    expect([
      numberOf('12,5'),
      numberOf(' -3 '),
      numberOf('1e3'),
      numberOf('abc'),
      numberOf(''),
      numberOf(7),
      numberOf(NaN),
    ]).toEqual([12.5, -3, 1000, null, null, 7, null]);
  });

  it('reads points from lat/lon columns of any usual name, and points and polygons from a WKT column', async () => {
    const csv =
      'LONGITUDE,LATITUDE,Yld Mass(Dry)(tonne/ha),Product\n-60.5,-33.9,9.5,Soja\n-60.49,-33.89,10.5,Soja\n999,-33.9,1,Soja\n';
    const table = await readLayerFile(await zip({ 'yield.csv': csv }));
    expect(table.columns).toEqual(['Yld Mass(Dry)(tonne/ha)']);
    expect(table.features).toEqual([
      { point: [-60.5, -33.9], values: [9.5] },
      { point: [-60.49, -33.89], values: [10.5] },
    ]);
    const wkt =
      'wkt|dosis\nPOINT(-60.5 -33.9)|80\n"POLYGON((-60.5 -33.9,-60.49 -33.9,-60.49 -33.89,-60.5 -33.9))"|120\nnot wkt|5\n';
    const mixed = await readLayerFile(await zip({ 'dosis.txt': wkt }));
    expect(mixed.features.map((f) => [Boolean(f.point), Boolean(f.polygon), f.values[0]])).toEqual([
      [true, false, 80],
      [false, true, 120],
    ]);
  });

  it("reads an xlsx sheet and a shapefile's numeric attributes", async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['lat', 'lng', 'rinde'],
        [-33.9, -60.5, 9000],
        [-33.89, -60.49, 9500],
      ]),
      'datos',
    );
    const xlsx = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    expect((await readLayerFile(await zip({ 'rinde.xlsx': xlsx }))).features.map((f) => f.values[0])).toEqual([
      9000, 9500,
    ]);
    const geojson = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { DOSIS: 80, NOMBRE: 'z1' },
          geometry: { type: 'Point', coordinates: [-60.5, -33.9] },
        },
      ],
    };
    const shp = (await shpwrite.zip(
      geojson as never,
      { outputType: 'nodebuffer', types: { point: 'dosis' } } as never,
    )) as Buffer;
    const table = await readLayerFile(shp);
    expect(table.columns).toEqual(['DOSIS']);
    expect(table.features[0]!.point![0]).toBeCloseTo(-60.5, 9);
  });

  it('refuses what is not a usable zip, every time with ERROR_ARCHIVO', async () => {
    const refused = async (content: Buffer) => {
      try {
        await readLayerFile(content);
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return 'accepted';
    };
    expect(await refused(Buffer.alloc(0))).toBe('ERROR_ARCHIVO');
    expect(await refused(Buffer.from('lat,lon\n1,2\n'))).toBe('ERROR_ARCHIVO');
    expect(await refused(await zip({ 'a.csv': 'lat,lon,v\n95,2,1\n' }))).toBe('ERROR_ARCHIVO'); // latitude out of range: no feature
    expect(await refused(await zip({ 'a/../../b.csv': 'lat,lon,v\n1,2,1\n' }))).toBe('ERROR_ARCHIVO');
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}.csv`, 'lat,lon,v\n1,2,3\n']));
    expect(await refused(await zip(many))).toBe('ERROR_ARCHIVO');
    expect(await refused(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 7)]))).toBe(
      'ERROR_ARCHIVO',
    );
    // an xlsx is a zip: a bomb inside it (80 MiB of one sheet, 80 KB compressed) is refused before SheetJS reads it
    const bomb = await zip({ 'xl/worksheets/sheet1.xml': Buffer.alloc(80 * 1024 * 1024, 0x20) });
    expect(bomb.length).toBeLessThan(LAYER_FILE_LIMITS.FILE_BYTES);
    const nested = await zip({ 'rinde.xlsx': bomb });
    await expect(readLayerFile(nested)).rejects.toThrow(/more than 64 MiB uncompressed/);
  });
});

describe('statistics', () => {
  it('count, extremes, mean, standard deviation, percentiles and equal-width histograms', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const stats = columnStats(values)!;
    expect(stats).toMatchObject({ count: 10, min: 1, max: 10, mean: 5.5 });
    expect(stats.std).toBeCloseTo(Math.sqrt(8.25), 9);
    expect(stats.percentiles).toMatchObject({ p50: 5.5, p25: 3.25, p75: 7.75, p1: 1.09, p99: 9.91 });
    const histogram = histogramOf(values, 3)!;
    expect(histogram.bins).toEqual([1, 4, 7, 10]);
    expect(histogram.counts).toEqual([3, 3, 4]);
    expect(histogramOf([2, 2, 2])).toEqual({ bins: [2, 2], counts: [3] });
    expect(columnStats([])).toBeNull();
  });
});

const FIELD_1 = 'POLYGON((-60.5 -33.9,-60.49 -33.9,-60.49 -33.89,-60.5 -33.89,-60.5 -33.9))';
const FIELD_2 = 'POLYGON((-60.48 -33.9,-60.47 -33.9,-60.47 -33.89,-60.48 -33.89,-60.48 -33.9))';
const shapeOf = (polygon: string, bounds: [number, number, number, number]) =>
  ({ polygon, bounds, areaHa: 100 }) as FieldShape;

function memory() {
  const shapes = new Map<number, FieldShape>([
    [1, shapeOf(FIELD_1, [-60.5, -33.9, -60.49, -33.89])],
    [2, shapeOf(FIELD_2, [-60.48, -33.9, -60.47, -33.89])],
    [3, shapeOf(FIELD_2, [-60.48, -33.9, -60.47, -33.89])],
  ]);
  const fields = new Map<number, Field>([...shapes].map(([id, shape]) => [id, memoryField(id, { shape })]));
  const tables = new Map<string, LayerTable>();
  const uploads = new Map<string, LayerUpload>();
  const entries = new Map<string, ImageryDate>();
  const rasters = new Map<string, Uint8Array>();
  const jobs: LayerJob[] = [];
  const repository: UserLayerRepository = {
    fieldShape: async (id) => shapes.get(id),
    date: async (id, layer, day) => entries.get(`${id}|${layer}|${day}`),
    store: async (id, entry, raster) => {
      if (raster) rasters.set(entry.objectKey, raster);
      entries.set(`${id}|${entry.layer}|${entry.day}`, entry);
    },
    saveTable: async (key, table) => void tables.set(key, JSON.parse(JSON.stringify(table))),
    table: async (key) => tables.get(key),
    saveUpload: async (upload) => void uploads.set(`${upload.ownerId}|${upload.id}`, upload),
    upload: async (owner, id) => uploads.get(`${owner}|${id}`),
    publishLayers: async (job) => void jobs.push(job),
  };
  // the caller writes fields 1 and 2 and only reads 3 (which lies where 2 does)
  return { repository, entries, rasters, jobs, uploads, gate: memoryGate({ writes: [1, 2], reads: [3], fields }) };
}

const pointsIn = (lon: number, lat: number, n: number, value: (i: number) => number) =>
  Array.from({ length: n }, (_, i) => ({
    point: [lon + 0.001 + (i % 10) * 0.0008, lat + 0.001 + Math.floor(i / 10) * 0.0008] as [number, number],
    values: [value(i)],
  }));

describe('layers from files', () => {
  it('an upload lands on the written field holding most of its points, and keeps only those', async () => {
    const m = memory();
    const layers = userLayers({ repository: m.repository, gate: m.gate });
    const table: LayerTable = {
      columns: ['rinde'],
      features: [...pointsIn(-60.5, -33.9, 5, () => 1), ...pointsIn(-60.48, -33.9, 30, (i) => 100 + i)],
    };
    const answer = landed(await layers.upload(principal, table));
    expect(answer.lote_id).toBe(2);
    expect(answer.stats!.rinde).toMatchObject({ count: 30, min: 100, max: 129 });
    const missed = await layers.upload(principal, { columns: ['rinde'], features: pointsIn(10, 10, 2, () => 1) });
    expect(missed).toEqual({
      not_found: true,
      lote: 'POLYGON((10.001 10.001,10.0018 10.001,10.0018 10.001,10.001 10.001,10.001 10.001))',
    });
    const one = await layers.upload(principal, { columns: ['rinde'], features: [{ point: [10, 10], values: [1] }] });
    expect(one).toEqual({ not_found: true, lote: 'POINT(10 10)' });
  });

  it("takes the fields' current shapes from the gate's listing when it has them, reading none again", async () => {
    const m = memory();
    let shapeReads = 0;
    const { readable, shape } = m.gate;
    m.gate.shape = (field, campaign) => {
      shapeReads += 1;
      return shape(field, campaign);
    };
    const layers = userLayers({ repository: m.repository, gate: m.gate });
    const table: LayerTable = { columns: ['rinde'], features: pointsIn(-60.48, -33.9, 5, () => 1) };
    expect(landed(await layers.upload(principal, table)).lote_id).toBe(2);
    expect(shapeReads).toBe(2); // a listing without shapes: each written field's (1 and 2) is read
    m.gate.readable = async (caller) =>
      (await readable(caller)).map((entry) => ({ ...entry, shape: entry.field.shape }));
    shapeReads = 0;
    expect(landed(await layers.upload(principal, table)).lote_id).toBe(2);
    expect(shapeReads).toBe(0);
  });

  it('a field the caller only reads is never matched', async () => {
    const m = memory();
    const layers = userLayers({ repository: m.repository, gate: memoryGate({ writes: [], reads: [2, 3] }) });
    expect(
      'not_found' in
        (await layers.upload(principal, { columns: ['v'], features: pointsIn(-60.48, -33.9, 5, () => 1) })),
    ).toBe(true);
  });

  it('an upload expires after a day, and belongs to its uploader', async () => {
    const m = memory();
    let now = new Date('2026-11-01T00:00:00Z');
    const layers = userLayers({ repository: m.repository, gate: m.gate, now: () => now });
    const { redis_id } = landed(
      await layers.upload(principal, { columns: ['rinde'], features: pointsIn(-60.5, -33.9, 20, (i) => i) }),
    );
    const request = {
      redis_id: redis_id!,
      lote_id: 1,
      datetime: '2026-11-01T00:00:00Z',
      layers: [
        { column: 'rinde', id_layer: 5, mean: null, min: null, max: null, meta: {}, interpolation: 'idw' as const },
      ],
    };
    await expect(layers.fromUpload({ user: { id: 10 } } as Principal, request)).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(layers.fromUpload(principal, { ...request, lote_id: 2 })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(layers.fromUpload(principal, request)).resolves.toMatchObject({ field_id: 1 });
    now = new Date('2026-11-02T00:00:01Z');
    await expect(layers.fromUpload(principal, request)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('the job drops values outside the bounds, rescales to the asked mean, and is idempotent', async () => {
    const m = memory();
    const layers = userLayers({ repository: m.repository, gate: m.gate });
    const features = pointsIn(-60.5, -33.9, 60, (i) => (i % 20 === 0 ? 1e6 : 5000 + i * 10));
    const { redis_id } = landed(await layers.upload(principal, { columns: ['rinde'], features }));
    const spec = {
      column: 'rinde',
      id_layer: 5,
      mean: null,
      min: 0,
      max: 10_000,
      meta: { numerador_media: 'kg', denominador_media: 'ha' },
      interpolation: 'kriging' as const,
    };
    await layers.fromUpload(principal, {
      redis_id: redis_id!,
      lote_id: 1,
      datetime: '2026-04-01T00:00:00Z',
      layers: [spec, { ...spec, column: 'rinde', id_layer: 42, mean: 6000 }],
    });
    const builder = layerBuilder({ repository: m.repository });
    const made = await builder.build(m.jobs[0]!);
    expect(made.map((e) => e.layer)).toEqual(['rinde', 'rinde_hum']);
    const [rinde, calibrated] = made;
    expect(rinde!.max).toBeLessThanOrEqual(10_000);
    expect(rinde!.min).toBeGreaterThanOrEqual(5000);
    expect(calibrated!.mean).toBeCloseTo(6000, 2);
    const stored = decodeRaster(m.rasters.get(rinde!.objectKey)!);
    expect('layer' in stored).toBe(true);
    const before = [...m.rasters.keys()];
    await builder.build(m.jobs[0]!);
    expect([...m.rasters.keys()]).toEqual(before);
    expect(m.entries.size).toBe(2);
  });

  it('refuses a satellite layer type, an unknown column, crossed bounds and a column without values in its bounds', async () => {
    const m = memory();
    const layers = userLayers({ repository: m.repository, gate: m.gate });
    const { redis_id } = landed(
      await layers.upload(principal, { columns: ['rinde'], features: pointsIn(-60.5, -33.9, 5, (i) => i) }),
    );
    const base = {
      column: 'rinde',
      id_layer: 5,
      mean: null,
      min: null,
      max: null,
      meta: {},
      interpolation: 'idw' as const,
    };
    const attempt = (spec: Partial<typeof base> & Record<string, unknown>) =>
      layers.fromUpload(principal, {
        redis_id: redis_id!,
        lote_id: 1,
        datetime: '2026-04-01T00:00:00Z',
        layers: [{ ...base, ...spec } as typeof base],
      });
    for (const spec of [
      { id_layer: 31 },
      { id_layer: 32 },
      { column: 'otro' },
      { min: 3, max: 1 } as never,
      { min: 100 } as never,
    ]) {
      await expect(attempt(spec)).rejects.toMatchObject({ kind: 'invalid' });
    }
    expect(m.jobs).toEqual([]);
  });
});
