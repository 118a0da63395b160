// The imagery rules against memory (lib/imagery): band math, the date's figures and the 5% cloudy
// rule, the field grid, rendering helpers, the choice of scenes, the stored form, and ingestion's
// idempotency and lock release with a memory repository and scene source.

import { fromArrayBuffer } from 'geotiff';
import { PNG } from 'pngjs';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import * as geometry from '../../lib/geo/wkt';
import { CLOUDY_SHARE, dateFigures, sceneProducts } from '../../lib/imagery/bands';
import { transformer } from '../../lib/imagery/crs';
import { loadEpsg } from '../../lib/imagery/epsg-catalogue';
import { fieldGrid, fieldMask, ringsOfWkt } from '../../lib/imagery/field-grid';
import { writeGeoTiff } from '../../lib/imagery/geotiff-writer';
import { type Grid, projectRings, rasterize, ringBounds } from '../../lib/imagery/grid';
import { cropProducts, imageryIngestion } from '../../lib/imagery/ingest';
import { firstLookLane, runLane, URGENT_SHARE } from '../../lib/imagery/lanes';
import { decodeScene, encodeScene } from '../../lib/imagery/raster';
import { decodeValue, encodeValue, sourceIndices, targetGrid } from '../../lib/imagery/render';
import { imageryRendering } from '../../lib/imagery/rendering';
import { type ScaleInput, type ScaleRepository, scaleTemplates } from '../../lib/imagery/scale-templates';
import { classBoundaries, classOf, type ScaleTemplate } from '../../lib/imagery/scales';
import {
  FIRST_LOOK_DAYS,
  type FieldJob,
  type ImageryDate,
  type ImageryRepository,
  imageryReaders,
  type SceneJob,
  type TileSceneJob,
} from '../../lib/imagery/service';
import { chooseScenes, type Scene, sceneOf } from '../../lib/imagery/stac';
import { tileExtent, tileOf } from '../../lib/imagery/tiles';
import { layerTypes } from '../../lib/imagery/types';
import type { FieldShape } from '../../lib/platform/model';
import { blockPixels, innerLonLatBox, tilesOver, utmBoundsOf } from '../../scripts/local/catalogue';
import { acquisitionIndex, groundPixel, toDn } from '../../scripts/local/scenes';
import { memoryGate } from './helpers/memory-gate';

const principal = { user: { id: 9 } } as Principal;
const POLYGON = 'POLYGON((-60.5 -33.9, -60.49 -33.9, -60.49 -33.89, -60.5 -33.89, -60.5 -33.9))';

describe('band math', () => {
  it('computes the indices from digital numbers with the scale and offset, and marks SCL 3, 8, 9, 10 cloudy', () => {
    // reflectance = DN * 0.0001 - 0.1: red 0.05, green 0.08, blue 0.04, nir 0.45, rededge 0.2
    const dn = (r: number) => Math.round((r + 0.1) * 10000);
    const bands = (scl: number) => ({
      red: [dn(0.05)],
      green: [dn(0.08)],
      blue: [dn(0.04)],
      nir: [dn(0.45)],
      rededge1: [dn(0.2)],
      scl: [scl],
      radiometry: { scale: 0.0001, offset: -0.1 },
    });
    const clear = sceneProducts(bands(4));
    expect(clear.indices.ndvi1[0]).toBeCloseTo(0.8, 4);
    expect(clear.indices.gndvi1[0]).toBeCloseTo((0.45 - 0.08) / 0.53, 4);
    expect(clear.indices.ndre[0]).toBeCloseTo(0.25 / 0.65, 4);
    const k = 2 * 0.45 + 1;
    expect(clear.indices.msavi2[0]).toBeCloseTo((k - Math.sqrt(k * k - 8 * 0.4)) / 2, 4);
    expect(clear.cloud[0]).toBe(0);
    // 0.3 of reflectance is 255 (0.05 is 42.5: 42 after the float arithmetic)
    expect([...clear.rgb]).toEqual([42, 68, 34]);
    for (const scl of [3, 8, 9, 10]) expect(sceneProducts(bands(scl)).cloud[0]).toBe(1);
    // no data: SCL 0 or a zero band
    expect(sceneProducts(bands(0)).indices.ndvi1[0]).toBeNaN();
    expect(sceneProducts({ ...bands(4), nir: [0] }).indices.ndvi1[0]).toBeNaN();
  });

  it('flags a date cloudy at 5% of the pixels inside the field, and averages clear pixels only', () => {
    const n = 20;
    const ndvi = new Float32Array(n).fill(0.5);
    ndvi[0] = 0.1;
    const inside = new Uint8Array(n).fill(1);
    const cloud = new Uint8Array(n);
    cloud[0] = 1; // 1 of 20 = 5%
    const figures = dateFigures(ndvi, cloud, inside);
    expect(CLOUDY_SHARE).toBe(0.05);
    expect(figures.cloudy).toBe(true);
    // min and max over the clear pixels: the cloud's 0.1 is not the crop's
    expect(figures.min).toBeCloseTo(0.5, 6);
    expect(figures.max).toBeCloseTo(0.5, 6);
    expect(figures.mean).toBeCloseTo(0.5, 6);
    // a date clouded over everywhere: the extremes of every pixel with data, no mean
    const overcast = dateFigures(ndvi, new Uint8Array(n).fill(1), inside);
    expect([overcast.min, overcast.max, overcast.mean]).toEqual([0.1, 0.5, null]);
    // 1 of 21: under the threshold; a cloudy pixel outside the field does not count
    const more = new Float32Array(21).fill(0.5);
    const cloud21 = new Uint8Array(21);
    cloud21[0] = 1;
    expect(dateFigures(more, cloud21, new Uint8Array(21).fill(1)).cloudy).toBe(false);
    const outside = new Uint8Array(n).fill(1);
    outside[0] = 0;
    expect(dateFigures(ndvi, cloud, outside).cloudy).toBe(false);
  });
});

describe('local scenes', () => {
  it('give bare soil a soil spectrum (green below red, blue below green) and a green crop green above red', () => {
    // clear acquisitions (every third) near 2026-07-10, bare soil in the south, and 2026-02-03, the crop's peak
    const clear = (time: number) => acquisitionIndex(time) - (acquisitionIndex(time) % 3);
    const soil = groundPixel(500_000, 6_400_000, clear(Date.UTC(2026, 6, 10)), true);
    expect(soil.green).toBeLessThan(soil.red);
    expect(soil.blue).toBeLessThan(soil.green);
    const crop = groundPixel(500_000, 6_400_000, clear(Date.UTC(2026, 1, 3)), true);
    expect(crop.green).toBeGreaterThan(crop.red);
    expect((crop.nir - crop.red) / (crop.nir + crop.red)).toBeGreaterThan(0.6);
  });

  it("are served by tile: a block's pixels are the ground's, and every search over a place finds the same items", async () => {
    const tile = tileExtent('32720:4:64');
    for (const index of [2501, 2502, 2503]) {
      // a block of the 10 m file and one of the 20 m file, at their first and last pixels
      for (const [size, bx, by, col, row] of [
        [10, 3, 5, 0, 0],
        [10, 3, 5, 127, 90],
        [20, 1, 2, 64, 127],
      ] as const) {
        const pixels = blockPixels(tile, size, index, 128, bx, by);
        const x = tile.x0 + (bx * 128 + col + 0.5) * size;
        const y = tile.y1 - (by * 128 + row + 0.5) * size;
        const ground = groundPixel(x, y, index, true);
        if (size === 10) expect(pixels.nir![row * 128 + col]).toBe(toDn(ground.nir));
        else expect(pixels.scl![row * 128 + col]).toBe(ground.scl);
      }
    }
    const near = tilesOver(await utmBoundsOf([-63.9, -31.9, -63.89, -31.89]));
    const wider = tilesOver(await utmBoundsOf([-63.95, -31.95, -63.85, -31.85]));
    expect(near).toContain('32720:4:64');
    expect(wider).toEqual(expect.arrayContaining(near));
    // the item's box lies inside its tile: a field inside the box is inside the tile
    const [west, south, east, north] = await innerLonLatBox(tile);
    const toUtm = await transformer(4326, 32720);
    for (const corner of [toUtm([west, south]), toUtm([east, north]), toUtm([west, north]), toUtm([east, south])]) {
      // to a micrometre: the corners are projected there and back
      expect(corner[0]).toBeGreaterThanOrEqual(tile.x0 - 1e-6);
      expect(corner[0]).toBeLessThanOrEqual(tile.x1 + 1e-6);
      expect(corner[1]).toBeGreaterThanOrEqual(tile.y0 - 1e-6);
      expect(corner[1]).toBeLessThanOrEqual(tile.y1 + 1e-6);
    }
  });
});

describe('grids', () => {
  it('gives a field its UTM zone at 10 m, aligned to 10 m, with 2 pixels around its bounds', async () => {
    const grid = await fieldGrid(geometry, POLYGON);
    expect(grid.epsg).toBe(32720);
    expect(grid.pixel).toBe(10);
    expect(grid.x0 % 10).toBe(0);
    expect(grid.y0 % 10).toBe(0);
    const corners = [
      [-60.5, -33.9],
      [-60.49, -33.9],
      [-60.49, -33.89],
      [-60.5, -33.89],
    ].map((c) => proj4('EPSG:4326', '+proj=utm +zone=20 +south +datum=WGS84 +units=m +no_defs', c));
    const xs = corners.map((c) => c[0]!);
    const ys = corners.map((c) => c[1]!);
    expect(grid.x0).toBe((Math.floor(Math.min(...xs) / 10) - 2) * 10);
    expect(grid.y0).toBe((Math.ceil(Math.max(...ys) / 10) + 2) * 10);
    expect(grid.width).toBe(Math.ceil(Math.max(...xs) / 10) - Math.floor(Math.min(...xs) / 10) + 4);
    expect(grid.height).toBe(Math.ceil(Math.max(...ys) / 10) - Math.floor(Math.min(...ys) / 10) + 4);
    const mask = await fieldMask(ringsOfWkt(geometry, POLYGON), grid);
    // the margin is outside, the centre inside
    expect(mask[0]).toBe(0);
    expect(mask[grid.width * 2 + 2]).toBe(0);
    expect(mask[(grid.height >> 1) * grid.width + (grid.width >> 1)]).toBe(1);
  });

  it('fills rings by the even-odd rule (holes stay out)', () => {
    const grid: Grid = { epsg: 32720, x0: 0, y0: 10, pixel: 1, width: 10, height: 10 };
    const outer: Array<[number, number]> = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const hole: Array<[number, number]> = [
      [4, 4],
      [6, 4],
      [6, 6],
      [4, 6],
      [4, 4],
    ];
    const mask = rasterize([outer, hole], grid);
    expect(mask.reduce((a, b) => a + b, 0)).toBe(100 - 4);
    expect(mask[4 * 10 + 4]).toBe(0);
  });

  it('warps identically onto its own grid, and a bbox gives exactly width x height', async () => {
    const grid: Grid = { epsg: 32720, x0: 1000, y0: 2000, pixel: 10, width: 7, height: 5 };
    expect([...(await sourceIndices(grid, grid))]).toEqual(Array.from({ length: 35 }, (_, i) => i));
    const scene = { grid } as Parameters<typeof targetGrid>[0];
    const target = await targetGrid(scene, { epsg: 3857, bbox: [0, 0, 300, 200], width: 30, height: 20 });
    expect([target.width, target.height, target.pixel, target.pixelY]).toEqual([30, 20, 10, 10]);
  });

  it("without bbox, another EPSG's image is the field's bounding box there plus exactly 2 square pixels", async () => {
    const grid = await fieldGrid(geometry, POLYGON);
    const rings = ringsOfWkt(geometry, POLYGON);
    for (const code of [4674, 5346]) expect(await loadEpsg(code)).toBe(true);
    expect(await loadEpsg(99_999)).toBe(false);
    for (const epsg of [4326, 3857, 4674, 5346, 32721]) {
      const target = await targetGrid({ grid, rings }, { epsg });
      const [minX, minY, maxX, maxY] = ringBounds(projectRings(rings, await transformer(4326, epsg)));
      const p = target.pixel;
      expect(target.pixelY ?? p, String(epsg)).toBe(p);
      expect(Math.abs(target.x0 - (minX - 2 * p))).toBeLessThan(p * 1e-6);
      expect(Math.abs(target.x0 + target.width * p - (maxX + 2 * p))).toBeLessThan(p * 1e-6);
      expect(Math.abs(target.y0 - (maxY + 2 * p))).toBeLessThan(p * 1e-6);
      const bottom = target.y0 - target.height * p;
      expect(minY - bottom).toBeGreaterThanOrEqual(2 * p * (1 - 1e-6));
      expect(minY - bottom).toBeLessThan(3 * p);
      // about the stored 10 m pixel (the field is ~930 m wide)
      expect(target.width - 4).toBeGreaterThan(80);
      expect(target.width - 4).toBeLessThan(110);
    }
  });
});

describe('encoded PNG values', () => {
  it('maps [-1, 1] to 1..65535 with 0 for no data, within half a step', () => {
    expect(encodeValue(NaN)).toBe(0);
    expect(encodeValue(-1)).toBe(1);
    expect(encodeValue(1)).toBe(65535);
    expect(decodeValue(0)).toBeNaN();
    for (const value of [-0.7312, 0, 0.1234, 0.99999])
      expect(Math.abs(decodeValue(encodeValue(value)) - value)).toBeLessThanOrEqual(1 / 65534);
  });
});

const scene = (overrides: Partial<Scene> = {}): Scene => ({
  id: 'S2A_20HNH_20261101_0_L2A',
  datetime: '2026-11-01T14:00:00Z',
  day: '2026-11-01',
  epsg: 32720,
  bbox: [-61, -34.5, -60, -33.5],
  hrefs: { red: 'r', green: 'g', blue: 'b', nir: 'n', rededge1: 'e', scl: 's' },
  radiometry: { scale: 0.0001, offset: -0.1 },
  ...overrides,
});

describe('scenes', () => {
  it('reads an Earth Search item; the offset applies only when the item says it was not applied', () => {
    const item = (applied: boolean | undefined) => ({
      id: 'x',
      bbox: [0, 0, 1, 1],
      properties: {
        datetime: '2026-11-01T14:03:07.123Z',
        'proj:epsg': 32720,
        ...(applied === undefined ? {} : { 'earthsearch:boa_offset_applied': applied }),
      },
      assets: Object.fromEntries(
        ['red', 'green', 'blue', 'nir', 'rededge1', 'scl'].map((b) => [
          b,
          { href: `https://example.org/${b}.tif`, 'raster:bands': [{ scale: 0.0001, offset: -0.1 }] },
        ]),
      ),
    });
    expect(sceneOf(item(true))!.radiometry).toEqual({ scale: 0.0001, offset: 0 });
    expect(sceneOf(item(false))!.radiometry).toEqual({ scale: 0.0001, offset: -0.1 });
    expect(sceneOf(item(false))!.datetime).toBe('2026-11-01T14:03:07Z');
    expect(sceneOf({ id: 'broken' })).toBeUndefined();
  });

  it('keeps one scene per day: one covering the field, of its zone first, then the least cloudy', () => {
    const field: [number, number, number, number] = [-60.5, -33.9, -60.49, -33.89];
    const chosen = chooseScenes(
      [
        scene({ id: 'other-zone', epsg: 32721, cloudCover: 0 }),
        scene({ id: 'cloudy', cloudCover: 40 }),
        scene({ id: 'clear', cloudCover: 1 }),
        scene({ id: 'not-covering', bbox: [-60.495, -34, -60, -33], cloudCover: 0 }),
        scene({ id: 'older', day: '2026-10-27', datetime: '2026-10-27T14:00:00Z' }),
      ],
      field,
      32720,
    );
    expect(chosen.map((s) => s.id)).toEqual(['clear', 'older']);
  });
});

describe('stored scenes', () => {
  it('decode to what was encoded (indices to 1e-4, no data kept)', () => {
    const grid: Grid = { epsg: 32720, x0: 0, y0: 20, pixel: 10, width: 2, height: 2 };
    const f = (values: number[]) => Float32Array.from(values);
    const stored = {
      grid,
      rings: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ] as Array<Array<[number, number]>>,
      shapeVersion: 'v',
      sceneId: 's',
      datetime: '2026-11-01T14:00:00Z',
      indices: {
        ndvi1: f([0.1234, NaN, -1, 1]),
        gndvi1: f([0, 0, 0, 0]),
        msavi2: f([0.5, 0.5, 0.5, 0.5]),
        ndre: f([0.2, 0.2, 0.2, 0.2]),
      },
      rgb: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
      cloud: Uint8Array.from([0, 1, 0, 1]),
    };
    const back = decodeScene(encodeScene(stored));
    expect(back.grid).toEqual(grid);
    expect(back.indices.ndvi1[0]).toBeCloseTo(0.1234, 6);
    expect(back.indices.ndvi1[1]).toBeNaN();
    expect([back.indices.ndvi1[2], back.indices.ndvi1[3]]).toEqual([-1, 1]);
    expect([...back.rgb]).toEqual([...stored.rgb]);
    expect([...back.cloud]).toEqual([0, 1, 0, 1]);
  });
});

/** A memory repository and a scene source whose bands are uniform: NDVI 0.8, cloudy when asked. */
function memory(options: { cloudyDays?: string[]; days?: string[] } = {}) {
  const shapes = new Map<number, FieldShape>([
    [1, { polygon: POLYGON, bounds: [-60.5, -33.9, -60.49, -33.89] } as FieldShape],
  ]);
  const entries = new Map<string, ImageryDate>();
  const rasters = new Map<string, Uint8Array>();
  const runs = new Map<number, { pending: Set<string>; locks: Set<string> }>();
  const released: string[] = [];
  const published: SceneJob[] = [];
  const backfills: FieldJob[] = [];
  const tileScenes: TileSceneJob[] = [];
  const writes = { entries: 0, rasters: 0, runs: 0 };
  const purposes: string[] = [];
  const reads: string[] = [];
  /** Season shapes of field 1 by campaign (the shape above for the others). */
  const campaignShapes = new Map<number, FieldShape>();
  const repository: ImageryRepository = {
    fieldShape: async (id, campaign) =>
      campaign !== undefined && id === 1 && campaignShapes.has(campaign)
        ? campaignShapes.get(campaign)
        : shapes.get(id),
    dates: async (id) => [...entries].filter(([key]) => key.startsWith(`${id}|`)).map(([, entry]) => entry),
    date: async (id, _layer, day) => entries.get(`${id}|${day}`),
    store: async (id, entry, raster) => {
      if (raster) rasters.set(entry.objectKey, raster);
      entries.set(`${id}|${entry.day}`, entry);
      writes.entries++;
      if (raster) writes.rasters++;
    },
    raster: async (key) => rasters.get(key),
    startRun: async (id, days, lockId) => {
      writes.runs++;
      const run = runs.get(id) ?? { pending: new Set<string>(), locks: new Set<string>() };
      for (const d of days) run.pending.add(d);
      if (lockId) run.locks.add(lockId);
      runs.set(id, run);
    },
    finishDay: async (id, day) => {
      const run = runs.get(id);
      if (!run) return { empty: true };
      run.pending.delete(day);
      if (run.pending.size) return { empty: false };
      runs.delete(id);
      return { empty: true, lockIds: [...run.locks] };
    },
    releaseLock: async (_id, lockId) => {
      released.push(lockId);
      return true;
    },
    publishScenes: async (jobs, purpose) => {
      published.push(...jobs);
      purposes.push(purpose);
    },
    publishBackfill: async (job) => void backfills.push(job),
    publishTileScenes: async (jobs) => void tileScenes.push(...jobs),
  };
  const days = options.days ?? ['2026-11-01', '2026-11-06', '2026-11-11'];
  const source = {
    search: async () => days.map((day) => scene({ id: `S-${day}`, day, datetime: `${day}T14:00:00Z` })),
    readBand: async (href: string, grid: Grid) => {
      reads.push(href);
      const n = grid.width * grid.height;
      const value = { r: 1500, g: 1800, b: 1400, n: 5500, e: 3000, s: 4 }[href.split('#')[0] as 'r'] ?? 0;
      return new Uint16Array(n).fill(value);
    },
  };
  const cloudy = new Set(options.cloudyDays ?? []);
  const sourceWithClouds = {
    ...source,
    search: async () =>
      (await source.search()).map((s) => ({ ...s, hrefs: { ...s.hrefs, scl: cloudy.has(s.day) ? 's9' : 's' } })),
    readBand: async (href: string, grid: Grid) =>
      href === 's9' ? new Uint16Array(grid.width * grid.height).fill(9) : source.readBand(href, grid),
  };
  return {
    repository,
    source: sourceWithClouds,
    entries,
    rasters,
    released,
    published,
    backfills,
    tileScenes,
    writes,
    purposes,
    reads,
    shapes,
    campaignShapes,
  };
}

describe('ingestion', () => {
  const now = () => new Date('2026-11-20T00:00:00Z');

  it('queues the scenes not stored for the current shape, stores each once, and releases the lock after the last', async () => {
    const m = memory({ cloudyDays: ['2026-11-06'] });
    const ingestion = imageryIngestion({
      repository: m.repository,
      source: m.source,
      settings: () => ({ periodDays: 30 }),
      now,
    });
    expect(await ingestion.ingestField({ field_id: 1, lock_id: 'lock-1' })).toEqual({ queued: 3 });
    expect(m.published.map((job) => job.scene.day)).toEqual(['2026-11-11', '2026-11-06', '2026-11-01']);
    for (const job of m.published.slice(0, 2)) await ingestion.ingestScene(job);
    expect(m.released).toEqual([]);
    await ingestion.ingestScene(m.published[2]!);
    expect(m.released).toEqual(['lock-1']);
    const cloudy = [...m.entries.values()].find((e) => e.day === '2026-11-06')!;
    expect(cloudy.cloudy).toBe(true);
    expect(cloudy.mean).toBeNull();
    const clear = [...m.entries.values()].find((e) => e.day === '2026-11-01')!;
    expect(clear.mean).toBeCloseTo((0.45 - 0.05) / (0.45 + 0.05), 4);
    // a redelivered scene job reads nothing; a second field job queues nothing
    const readsBefore = m.reads.length;
    await ingestion.ingestScene(m.published[0]!);
    expect(m.reads.length).toBe(readsBefore);
    m.published.length = 0;
    expect(await ingestion.ingestField({ field_id: 1, lock_id: 'lock-2' })).toEqual({ queued: 0 });
    expect(m.released).toEqual(['lock-1', 'lock-2']);
  });

  it('a scene whose bands cannot be read fails its job (to be retried), storing nothing and keeping its day open', async () => {
    const m = memory();
    const ingestion = imageryIngestion({
      repository: m.repository,
      source: m.source,
      settings: () => ({ periodDays: 30 }),
      now,
    });
    await ingestion.ingestField({ field_id: 1, lock_id: 'lock-1' });
    const failing = imageryIngestion({
      repository: m.repository,
      source: { ...m.source, readBand: async () => Promise.reject(new Error('range request answered 503')) },
      settings: () => ({ periodDays: 30 }),
      now,
    });
    await expect(failing.ingestScene(m.published[0]!)).rejects.toThrow('503');
    expect(m.entries.size).toBe(0);
    expect(m.released).toEqual([]);
    // the retry that succeeds stores it; the lock waits for the other days
    await ingestion.ingestScene(m.published[0]!);
    expect(m.entries.size).toBe(1);
    expect(m.released).toEqual([]);
  });

  it('the daily job searches a few days back for a field with dates of its shape, the whole period for one without', async () => {
    const m = memory();
    const searched: number[] = [];
    const source = {
      ...m.source,
      search: async (_bounds: [number, number, number, number], from: Date, to: Date) => {
        searched.push(Math.round((to.getTime() - from.getTime()) / 86_400_000));
        return m.source.search();
      },
    };
    const ingestion = imageryIngestion({
      repository: m.repository,
      source,
      settings: () => ({ periodDays: 365 }),
      now,
    });
    await ingestion.ingestField({ field_id: 1, recent_days: 10 });
    for (const job of m.published) await ingestion.ingestScene(job);
    await ingestion.ingestField({ field_id: 1, recent_days: 10 });
    expect(searched).toEqual([365, 10]);
  });

  it('a first look cuts the newest scene at once and hands the rest of the period (and the lock) to the backfill lane', async () => {
    const m = memory();
    const searched: number[] = [];
    const source = {
      ...m.source,
      search: async (_bounds: [number, number, number, number], from: Date, to: Date) => {
        searched.push(Math.round((to.getTime() - from.getTime()) / 86_400_000));
        return m.source.search();
      },
    };
    const ingestion = imageryIngestion({
      repository: m.repository,
      source,
      settings: () => ({ periodDays: 365 }),
      now,
    });
    expect(await ingestion.ingestField({ field_id: 1, newest: true, lock_id: 'lock-1' })).toEqual({
      queued: 0,
      cut: 1,
    });
    expect(searched).toEqual([FIRST_LOOK_DAYS]);
    expect([...m.entries.values()].map((e) => e.day)).toEqual(['2026-11-11']);
    expect(m.published).toEqual([]);
    expect(m.backfills).toEqual([{ field_id: 1, lock_id: 'lock-1' }]);
    expect(m.released).toEqual([]);
    // the backfill job queues the other days, newest first, and the last of them releases the lock
    expect(await ingestion.ingestField(m.backfills[0]!)).toEqual({ queued: 2 });
    expect(searched).toEqual([FIRST_LOOK_DAYS, 365]);
    expect(m.published.map((job) => job.scene.day)).toEqual(['2026-11-06', '2026-11-01']);
    for (const job of m.published) await ingestion.ingestScene(job);
    expect(m.released).toEqual(['lock-1']);
    // a redelivered first look cuts nothing again
    expect(await ingestion.ingestField({ field_id: 1, newest: true })).toEqual({ queued: 0, cut: 0 });
  });

  it("a tenant's first looks go to the urgent lane up to its share, then to the bulk lane", () => {
    expect(Array.from({ length: URGENT_SHARE + 2 }, (_, i) => firstLookLane(i + 1))).toEqual([
      ...Array(URGENT_SHARE).fill('imageryUrgent'),
      'imageryBulk',
      'imageryBulk',
    ]);
    // a run that holds a new shape's lock (its re-cut) goes to the bulk lane, other runs to backfill
    expect([runLane(true), runLane(false)]).toEqual(['imageryBulk', 'imagery']);
  });

  it("a season shape re-cuts only its campaign's dates, re-masking the stored pixels where the stored grid covers it", async () => {
    const m = memory({ days: ['2025-12-27', '2026-01-01', '2026-11-11'] });
    const ingestion = imageryIngestion({
      repository: m.repository,
      source: m.source,
      settings: () => ({ periodDays: 365 }),
      now,
    });
    await ingestion.ingestField({ field_id: 1 });
    for (const job of m.published) await ingestion.ingestScene(job);
    const before = new Map([...m.entries.values()].map((e) => [e.day, e]));
    expect([...before.keys()].sort()).toEqual(['2025-12-27', '2026-01-01', '2026-11-11']);
    // campaign 2026 shrinks to a square inside the old one
    const inner = 'POLYGON((-60.498 -33.898, -60.494 -33.898, -60.494 -33.894, -60.498 -33.894, -60.498 -33.898))';
    m.campaignShapes.set(2026, { polygon: inner, bounds: [-60.498, -33.898, -60.494, -33.894] } as FieldShape);
    m.published.length = 0;
    m.reads.length = 0;
    expect(await ingestion.ingestField({ field_id: 1, lock_id: 'lock-2026' })).toEqual({ queued: 2 });
    expect(m.published.map((job) => job.scene.day)).toEqual(['2026-11-11', '2026-01-01']);
    for (const job of m.published) await ingestion.ingestScene(job);
    // re-masked from the stored pixels: no band read
    expect(m.reads).toEqual([]);
    expect(m.released).toEqual(['lock-2026']);
    // the first run's scenes went to the backfill lane, the new shape's re-cut (its lock held) to the bulk lane
    expect(m.purposes).toEqual(['backfill', 'reshape']);
    const after = new Map([...m.entries.values()].map((e) => [e.day, e]));
    expect(after.get('2025-12-27')).toEqual(before.get('2025-12-27'));
    for (const day of ['2026-01-01', '2026-11-11']) {
      expect(after.get(day)!.shapeVersion).not.toBe(before.get(day)!.shapeVersion);
      const stored = decodeScene(m.rasters.get(after.get(day)!.objectKey)!);
      const old = decodeScene(m.rasters.get(before.get(day)!.objectKey)!);
      expect(stored.rings).toEqual([
        [
          [-60.498, -33.898],
          [-60.494, -33.898],
          [-60.494, -33.894],
          [-60.498, -33.894],
          [-60.498, -33.898],
        ],
      ]);
      expect(stored.grid.width).toBeLessThan(old.grid.width);
      expect(stored.grid.height).toBeLessThan(old.grid.height);
      expect(old.grid.x0).toBeLessThan(stored.grid.x0);
      expect(old.grid.y0).toBeGreaterThan(stored.grid.y0);
    }
    // a shape beyond the stored grid reads the scene again
    const outer = 'POLYGON((-60.502 -33.902, -60.49 -33.902, -60.49 -33.89, -60.502 -33.89, -60.502 -33.902))';
    m.campaignShapes.set(2026, { polygon: outer, bounds: [-60.502, -33.902, -60.49, -33.89] } as FieldShape);
    m.published.length = 0;
    await ingestion.ingestField({ field_id: 1 });
    for (const job of m.published) await ingestion.ingestScene(job);
    expect(m.reads.length).toBe(2 * 6);
    expect(decodeScene(m.rasters.get(m.entries.get('1|2026-11-11')!.objectKey)!).grid.width).toBeGreaterThan(
      decodeScene(m.rasters.get(before.get('2026-11-11')!.objectKey)!).grid.width,
    );
  });

  it('re-masking crops the stored pixels to a grid inside the stored one, and nothing else', () => {
    const grid: Grid = { epsg: 32720, x0: 0, y0: 30, pixel: 10, width: 3, height: 3 };
    const values = Float32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const stored = {
      grid,
      rings: [],
      shapeVersion: 'v',
      sceneId: 's',
      datetime: '2026-11-01T14:00:00Z',
      indices: { ndvi1: values, gndvi1: values, msavi2: values, ndre: values },
      rgb: Uint8Array.from({ length: 27 }, (_, i) => i),
      cloud: Uint8Array.from([0, 0, 0, 0, 1, 0, 0, 0, 0]),
    };
    const inner = cropProducts(stored, { epsg: 32720, x0: 10, y0: 20, pixel: 10, width: 2, height: 2 })!;
    expect([...inner.indices.ndvi1]).toEqual([4, 5, 7, 8]);
    expect([...inner.rgb]).toEqual([12, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26]);
    expect([...inner.cloud]).toEqual([1, 0, 0, 0]);
    expect(cropProducts(stored, { epsg: 32720, x0: 10, y0: 20, pixel: 10, width: 3, height: 2 })).toBeUndefined();
    expect(cropProducts(stored, { epsg: 32721, x0: 10, y0: 20, pixel: 10, width: 1, height: 1 })).toBeUndefined();
    expect(cropProducts(stored, { epsg: 32720, x0: 0, y0: 40, pixel: 10, width: 1, height: 1 })).toBeUndefined();
  });

  it('a scene job of an older shape stores nothing but closes its day', async () => {
    const m = memory();
    const ingestion = imageryIngestion({
      repository: m.repository,
      source: m.source,
      settings: () => ({ periodDays: 30 }),
      now,
    });
    await ingestion.ingestField({ field_id: 1, lock_id: 'lock-1' });
    m.shapes.set(1, {
      polygon: POLYGON.replace('-60.49 -33.89', '-60.48 -33.88'),
      bounds: [-60.5, -33.9, -60.48, -33.88],
    } as FieldShape);
    for (const job of m.published) await ingestion.ingestScene(job);
    expect(m.entries.size).toBe(0);
    expect(m.reads).toEqual([]);
    expect(m.released).toEqual(['lock-1']);
  });

  it('readers list dates newest first, the NDVI of clear dates, and refuse what the caller cannot read', async () => {
    const m = memory({ cloudyDays: ['2026-11-06'] });
    const ingestion = imageryIngestion({
      repository: m.repository,
      source: m.source,
      settings: () => ({ periodDays: 30 }),
      now,
    });
    await ingestion.ingestField({ field_id: 1 });
    for (const job of m.published) await ingestion.ingestScene(job);
    const readers = imageryReaders({ repository: m.repository, gate: memoryGate({ writes: [1], reads: [] }) });
    const layers = await readers.dates(principal, 1);
    expect(layers.sentinel2!.dates.map((d) => d.date)).toEqual([
      '2026-11-11T14:00:00Z',
      '2026-11-06T14:00:00Z',
      '2026-11-01T14:00:00Z',
    ]);
    expect((await readers.ndviSeries(principal, 1)).map((p) => p.date)).toEqual(['2026-11-01', '2026-11-11']);
    expect((await readers.ndviSeries(principal, 1, '2026-11-02', '2026-11-30')).map((p) => p.date)).toEqual([
      '2026-11-11',
    ]);
    await expect(readers.ndviSeries(principal, 1, '2026-11-30', '2026-11-02')).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(readers.dates(principal, 5)).rejects.toMatchObject({ kind: 'not_found' });
    const rendering = imageryRendering({
      repository: m.repository,
      gate: memoryGate({ writes: [1], reads: [] }),
      scales: templates.owned,
    });
    const params = {
      field_id: 1,
      layer_name: 'sentinel2',
      operation: 'ndvi1',
      date: '2026-11-11T14:00:00Z',
      format: 'image/png' as const,
      transparent: false,
    };
    expect((await rendering.render(principal, params)).contentType).toBe('image/png');
    await expect(rendering.render(principal, { ...params, date: '2026-11-12T14:00:00Z' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(rendering.render(principal, { ...params, operation: 'evi' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(
      rendering.render(principal, { ...params, operation: 'rgb1', format: 'image/encoded' }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    // an image larger than an answer may carry is refused, not cut
    const small = imageryRendering({
      repository: m.repository,
      gate: memoryGate({ writes: [1], reads: [] }),
      scales: templates.owned,
      maxImageBytes: 1000,
    });
    await expect(
      small.render(principal, {
        ...params,
        format: 'image/tiff',
        epsg: 3857,
        bbox: [0, 0, 1000, 1000],
        width: 500,
        height: 500,
      }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    // a PNG coloured by the caller's scale template: only its colours; another user's template is unknown
    const template = await templates.create(principal, scaleInput({}));
    const png = PNG.sync.read((await rendering.render(principal, { ...params, scale_template_id: template.id })).body);
    const colours = new Set<string>();
    for (let i = 0; i < png.width * png.height; i++)
      if (png.data[i * 4 + 3]) colours.add(png.data.subarray(i * 4, i * 4 + 3).join(','));
    expect([...colours].every((c) => template.colors.map((t) => t.join(',')).includes(c))).toBe(true);
    await expect(
      rendering.render({ user: { id: 10 } } as Principal, { ...params, scale_template_id: template.id }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(
      rendering.render(principal, { ...params, scale_template_id: template.id, format: 'image/tiff' }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    await expect(
      rendering.render(principal, { ...params, scale_template_id: template.id, operation: 'ndre' }),
    ).rejects.toMatchObject({ kind: 'invalid' });
  });
});

/** A user's scale templates in memory. */
function memoryScales(): ScaleRepository {
  const stored = new Map<string, ScaleTemplate>();
  let next = 0;
  return {
    list: async (ownerId) => [...stored.values()].filter((t) => t.ownerId === ownerId),
    get: async (ownerId, id) => stored.get(`${ownerId}|${id}`),
    nextId: async () => ++next,
    put: async (t) => void stored.set(`${t.ownerId}|${t.id}`, t),
    remove: async (ownerId, id) => stored.delete(`${ownerId}|${id}`),
  };
}
const templates = scaleTemplates({ repository: memoryScales() });
const scaleInput = (overrides: Partial<ScaleInput>): ScaleInput => ({
  name: 'Vigor',
  layerName: 'sentinel2',
  operation: 'ndvi1',
  palette: 'RdYlGn',
  distribution: 'equidistant',
  intervals: 3,
  rangeMin: 0,
  rangeMax: 1,
  hierarchy: [],
  colors: [
    [200, 0, 0],
    [250, 250, 0],
    [0, 150, 0],
  ],
  scale: [0, 0.3, 0.6, 1],
  ...overrides,
});

describe('tiles', () => {
  const now = () => new Date('2026-11-20T00:00:00Z');
  const EAST = 'POLYGON((-60.48 -33.9, -60.47 -33.9, -60.47 -33.89, -60.48 -33.89, -60.48 -33.9))';

  /** Fields 1 and 2, 1 km apart; a source that counts its searches and its shared band reads. */
  function twoFields(days: string[]) {
    const m = memory({ days });
    m.shapes.set(2, { polygon: EAST, bounds: [-60.48, -33.9, -60.47, -33.89] } as FieldShape);
    const searches: Array<[number, number, number, number]> = [];
    const shared: Array<{ href: string; grids: number }> = [];
    const source = {
      ...m.source,
      search: async (bounds: [number, number, number, number]) => {
        searches.push(bounds);
        return m.source.search();
      },
      readBands: async (href: string, grids: readonly Grid[]) => {
        shared.push({ href, grids: grids.length });
        return Promise.all(grids.map((grid) => m.source.readBand(href, grid)));
      },
    };
    const ingestion = imageryIngestion({ repository: m.repository, source, settings: () => ({ periodDays: 30 }), now });
    return { m, searches, shared, ingestion };
  }

  it('groups fields by the 100 km square of their north-west corner; the tile holds the whole field', async () => {
    const a = await tileOf([-60.5, -33.9, -60.49, -33.89]);
    expect(await tileOf([-60.48, -33.9, -60.47, -33.89])).toBe(a);
    expect(await tileOf([-62.5, -33.9, -62.49, -33.89])).not.toBe(a);
    expect(a.startsWith('32720:')).toBe(true);
    const extent = tileExtent(a);
    const [x0, y0] = (await transformer(4326, 32720))([-60.5, -33.9]);
    const [x1, y1] = (await transformer(4326, 32720))([-60.49, -33.89]);
    expect(extent.x1 - extent.x0).toBe(109_800);
    expect(x0).toBeGreaterThan(extent.x0);
    expect(x1).toBeLessThan(extent.x1);
    expect(y0).toBeGreaterThan(extent.y0);
    expect(y1).toBeLessThan(extent.y1);
  });

  it('two fields on one tile and date: one catalogue search, one scene job, each band read once for both; a redelivered job changes nothing', async () => {
    const days = ['2026-11-01'];
    const { m, searches, shared, ingestion } = twoFields(days);
    const tile = await tileOf([-60.5, -33.9, -60.49, -33.89]);
    // fields without a date of their shape get their own field job (the whole period) first
    expect(await ingestion.ingestTile({ tile, field_ids: [1, 2] })).toEqual({ searched: 0, queued: 0, backfills: 2 });
    expect(m.backfills).toEqual([{ field_id: 1 }, { field_id: 2 }]);
    for (const job of m.backfills) await ingestion.ingestField(job);
    for (const job of m.published) await ingestion.ingestScene(job);
    searches.length = 0;
    shared.length = 0;
    // a new acquisition: one search for both, one tile scene job carrying both
    days.push('2026-11-16');
    expect(await ingestion.ingestTile({ tile, field_ids: [1, 2] })).toEqual({ searched: 1, queued: 1, backfills: 0 });
    expect(searches).toHaveLength(1);
    expect(searches[0]![0]).toBeLessThanOrEqual(-60.5);
    expect(searches[0]![2]).toBeGreaterThanOrEqual(-60.47);
    expect(m.tileScenes).toHaveLength(1);
    expect(m.tileScenes[0]!.scene.day).toBe('2026-11-16');
    expect(m.tileScenes[0]!.fields.map((f) => f.field_id)).toEqual([1, 2]);
    expect(await ingestion.ingestTileScene(m.tileScenes[0]!)).toEqual({ cut: 2 });
    // one shared read per band, both grids in it; no field read alone
    expect(shared.map((read) => read.grids)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(new Set(shared.map((read) => read.href)).size).toBe(6);
    expect(m.entries.get('1|2026-11-16')!.sceneId).toBe('S-2026-11-16');
    expect(m.entries.get('2|2026-11-16')!.sceneId).toBe('S-2026-11-16');
    expect(m.entries.get('2|2026-11-16')!.objectKey).toContain('imagery/2/');
    // redelivered: no read, no write
    const before = { ...m.writes };
    const entries = new Map(m.entries);
    expect(await ingestion.ingestTileScene(m.tileScenes[0]!)).toEqual({ cut: 0 });
    expect(shared).toHaveLength(6);
    expect(m.writes).toEqual(before);
    expect(m.entries).toEqual(entries);
    // the next daily run finds nothing new: one search, nothing queued
    m.tileScenes.length = 0;
    expect(await ingestion.ingestTile({ tile, field_ids: [1, 2] })).toEqual({ searched: 1, queued: 0, backfills: 0 });
  });

  it('a field on two tiles gets the scenes of both: a day of either tile, one scene a day', async () => {
    const { m, ingestion } = twoFields(['2026-11-01']);
    await ingestion.ingestField({ field_id: 1 });
    for (const job of m.published) await ingestion.ingestScene(job);
    const covering: [number, number, number, number] = [-61, -34.5, -60, -33.5];
    const onTile = (name: string, day: string, cloudCover: number) =>
      scene({
        id: `S2A_${name}_${day.replaceAll('-', '')}_0_L2A`,
        day,
        datetime: `${day}T14:00:00Z`,
        bbox: covering,
        cloudCover,
      });
    const source = {
      ...m.source,
      search: async () => [
        onTile('20HNH', '2026-11-11', 5),
        onTile('20HPH', '2026-11-14', 5),
        onTile('20HNH', '2026-11-16', 30),
        onTile('20HPH', '2026-11-16', 2),
      ],
    };
    const tiles = imageryIngestion({ repository: m.repository, source, settings: () => ({ periodDays: 30 }), now });
    const tile = await tileOf([-60.5, -33.9, -60.49, -33.89]);
    expect(await tiles.ingestTile({ tile, field_ids: [1] })).toEqual({ searched: 1, queued: 3, backfills: 0 });
    expect(m.tileScenes.map((job) => job.scene.id)).toEqual([
      'S2A_20HPH_20261116_0_L2A',
      'S2A_20HPH_20261114_0_L2A',
      'S2A_20HNH_20261111_0_L2A',
    ]);
    for (const job of m.tileScenes) await tiles.ingestTileScene(job);
    expect(['2026-11-11', '2026-11-14', '2026-11-16'].map((day) => m.entries.get(`1|${day}`)?.sceneId)).toEqual([
      'S2A_20HNH_20261111_0_L2A',
      'S2A_20HPH_20261114_0_L2A',
      'S2A_20HPH_20261116_0_L2A',
    ]);
  });
});

describe('scale templates', () => {
  it('keeps its rules: ascending boundaries within the range, one colour per interval, a layer and its index', async () => {
    const bad: Array<Partial<ScaleInput>> = [
      { scale: [0, 0.6, 0.3, 1] },
      { scale: [0, 0.3, 1] },
      { colors: [[1, 2, 3]] },
      { rangeMin: 1, rangeMax: 0 },
      { scale: [-0.5, 0.3, 0.6, 1] },
      { layerName: 'no-such-layer' },
      { operation: 'rgb1' },
    ];
    for (const overrides of bad)
      await expect(templates.create(principal, scaleInput(overrides)), JSON.stringify(overrides)).rejects.toMatchObject(
        { kind: 'invalid' },
      );
    const made = await templates.create(principal, scaleInput({ layerName: 'rinde', operation: 'rinde' }));
    const changed = await templates.change(principal, made.id, { name: 'Rinde 2026' });
    expect(changed).toMatchObject({ id: made.id, name: 'Rinde 2026', layerName: 'rinde' });
    await expect(templates.change(principal, made.id, { scale: [0, 0.1] })).rejects.toMatchObject({ kind: 'invalid' });
    const other = { user: { id: 11 } } as Principal;
    await expect(templates.change(other, made.id, { name: 'x' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(templates.remove(other, made.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await templates.list(other)).length).toBe(0);
    await templates.remove(principal, made.id);
    await expect(templates.owned(principal, made.id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it("classes values: the boundaries as given (equidistant) or the image's quantiles", () => {
    const t = { ...scaleInput({}), id: 1, ownerId: 9 };
    expect(classBoundaries(t, [0.1, 0.2])).toEqual([0, 0.3, 0.6, 1]);
    expect([-1, 0, 0.29, 0.3, 0.59, 0.6, 1, 2].map((v) => classOf([0, 0.3, 0.6, 1], v))).toEqual([
      0, 0, 0, 1, 1, 2, 2, 2,
    ]);
    const quantiles = classBoundaries({ ...t, distribution: 'quantiles' }, [0.9, 0.1, 0.2, 0.3, 0.4, 0.5, NaN]);
    expect(quantiles).toEqual([0.1, 0.3, 0.5, 0.9]);
    // the same number of values in each class
    expect([0.1, 0.2, 0.3, 0.4, 0.5, 0.9].map((v) => classOf(quantiles, v))).toEqual([0, 0, 1, 1, 2, 2]);
  });
});

describe('GeoTIFF writer', () => {
  it('writes one DEFLATE strip with the georeferencing and NODATA that geotiff.js reads back', async () => {
    const grid: Grid = { epsg: 32720, x0: 500_000, y0: 6_200_000, pixel: 10, width: 3, height: 2 };
    const values = Float32Array.from([0.1, 0.2, NaN, -0.5, 1, 0.25]);
    const tiff = await fromArrayBuffer(
      new Uint8Array(writeGeoTiff({ grid, data: values, samples: 1, noData: 'nan' })).buffer,
    );
    const image = await tiff.getImage();
    expect([image.getWidth(), image.getHeight()]).toEqual([3, 2]);
    expect(image.getOrigin()).toEqual([500_000, 6_200_000, 0]);
    expect(image.getResolution()).toEqual([10, -10, 0]);
    expect(image.getGeoKeys()).toMatchObject({ ProjectedCSTypeGeoKey: 32720, GTModelTypeGeoKey: 1 });
    expect(image.getGDALNoData()).toBeNaN();
    const [band] = (await image.readRasters()) as unknown as [Float32Array];
    expect([...band].map((v) => (Number.isNaN(v) ? 'nan' : Number(v.toFixed(4))))).toEqual([
      0.1,
      0.2,
      'nan',
      -0.5,
      1,
      0.25,
    ]);
    const rgb = await fromArrayBuffer(
      new Uint8Array(
        writeGeoTiff({
          grid: { ...grid, epsg: 4326, pixel: 0.001 },
          data: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]),
          samples: 3,
          noData: '0',
        }),
      ).buffer,
    );
    const rgbImage = await rgb.getImage();
    expect(rgbImage.getSamplesPerPixel()).toBe(3);
    expect(rgbImage.getGeoKeys()).toMatchObject({ GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2 });
    expect(rgbImage.getGDALNoData()).toBe(0);
    expect([...((await rgbImage.readRasters({ interleave: true })) as unknown as Uint8Array)]).toEqual(
      Array.from({ length: 18 }, (_, i) => i + 1),
    );
  });
});

describe('layer types', () => {
  it('has unique ids in order, 38 fixed entries and 14 families of 14 depths, built once', () => {
    const types = layerTypes();
    expect(new Set(types.map((t) => t.id)).size).toBe(types.length);
    expect(types.length).toBe(38 + 14 * 14);
    expect(types.map((t) => t.id)).toEqual([...types.map((t) => t.id)].sort((a, b) => a - b));
    expect(layerTypes()).toBe(types);
  });
});
