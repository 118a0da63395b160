// npm run bench -- imagery-scale [-- --fields 100000 --real 2000]
// Satellite ingestion at scale (docs/imagery.md, "Tiles"): today's per-field design (the daily
// schedule's field job: one catalogue search per field and day; a scene job per field and scene:
// its own six window reads) against tiles (a tile job: one search per Sentinel-2 tile and day for
// its fields; a tile scene job per scene and up to 200 fields: each COG block read once), for
// fields of 20 to 500 ha spread over the Pampas and the Chaco (seeded), over one simulated year.
//
// Two parts, in one run:
// - a real run: the ingestion code (lib/imagery/ingest.ts) with the production reader (STAC search,
//   geotiff.js range reads, lib/imagery/cog.ts) against the local catalogue serving blocks of
//   1024 x 1024 pixels as Sentinel-2's COGs have, both designs over the same fields (2,000 by
//   default) and one new acquisition; a memory repository counts the writes, the catalogue counts
//   searches, range requests and bytes;
// - the model: the same counts from geometry for every field (its tile, the scene it takes, the
//   blocks under it, the jobs), checked against the real run on the same fields, then taken to all
//   the fields (100,000 by default) and a year (365 daily runs, 73 acquisitions).
import { Worker } from 'node:worker_threads';
import { geometryKit } from '../lib/geo/geometry';
import { readBand, readBandOnGrids } from '../lib/imagery/cog';
import { fieldGrid } from '../lib/imagery/field-grid';
import { tiledHeader } from '../lib/imagery/geotiff-writer';
import type { Grid } from '../lib/imagery/grid';
import { imageryIngestion } from '../lib/imagery/ingest';
import {
  type FieldJob,
  type ImageryDate,
  type ImageryRepository,
  MAX_TILE_FIELDS,
  MAX_TILE_JOB_FIELDS,
  type SceneJob,
  type SceneSource,
  shapeVersion,
  type TileSceneJob,
} from '../lib/imagery/service';
import { searchScenes } from '../lib/imagery/stac';
import { type TileExtent, tileExtent, tileOf } from '../lib/imagery/tiles';
import type { FieldShape } from '../lib/platform/model';
import { type CatalogueStats, innerLonLatBox, tilesOver, utmBoundsOf } from '../scripts/local/catalogue';
import { acquisitionIndex, acquisitionTime } from '../scripts/local/scenes';
import { freePorts } from '../scripts/local/stack';
import { round } from './lib';

const BLOCK = 1024;
const DAYS_A_YEAR = 365;
/** Acquisitions a year over a field: one every 5 days (scripts/local/scenes.ts; Sentinel-2A and 2B). */
const ACQUISITIONS_A_YEAR = 73;
const DAILY_RECENT_DAYS_REAL = 3; // the real run's window holds exactly one acquisition
const BANDS_10M = 4;
const BANDS_20M = 2;
/** The imagery workers' memory (schemas/workers.ts). */
const WORKER_GB = 1;

// Prices (us-east-1 list prices, arm64) and the network a worker in AWS adds to the local figures.
const PRICE = {
  gbSecond: 0.0000133334,
  invocation: 0.2 / 1e6,
  sqsRequest: 0.4 / 1e6,
  s3Put: 0.005 / 1000,
  s3GbMonth: 0.023,
  dynamoWrite: 0.625 / 1e6,
  dynamoRead: 0.125 / 1e6,
};
const NETWORK = {
  /** A catalogue search answered (Earth Search, about half a second: docs/imagery.md). */
  searchS: 0.5,
  /** One round trip of a range request to S3 in the same region. */
  roundTripS: 0.05,
  /** What one Lambda draws from S3 (bytes a second). */
  bandwidth: 100e6,
  /** A DynamoDB call. */
  dynamoS: 0.005,
};

// --- the fields ---------------------------------------------------------------------------------

interface SimField {
  id: number;
  polygon: string;
  bounds: [number, number, number, number];
  ha: number;
}

const REGIONS = [
  { name: 'Pampas', box: [-64, -38.5, -57.5, -31], share: 0.7 },
  { name: 'Chaco', box: [-63, -27.5, -58.5, -23], share: 0.3 },
] as const;

/** A seeded generator (mulberry32): the same fields at every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rectangles of 20 to 500 ha (log-uniform), sides 1:1 to 1:2, placed uniformly over the two regions. */
function fieldsOf(count: number, seed = 2026): SimField[] {
  const next = random(seed);
  const out: SimField[] = [];
  for (let id = 1; id <= count; id++) {
    const region = next() < REGIONS[0].share ? REGIONS[0] : REGIONS[1];
    const [w, s, e, n] = region.box;
    const lon = w + next() * (e - w);
    const lat = s + next() * (n - s);
    const ha = 20 * 25 ** next();
    const aspect = 1 + next();
    const widthM = Math.sqrt(ha * 10_000 * aspect);
    const heightM = (ha * 10_000) / widthM;
    const dLon = widthM / (111_320 * Math.cos((lat * Math.PI) / 180));
    const dLat = heightM / 110_540;
    const [x0, y0, x1, y1] = [lon, lat, lon + dLon, lat + dLat].map((v) => Number(v.toFixed(6))) as [
      number,
      number,
      number,
      number,
    ];
    out.push({
      id,
      polygon: `POLYGON((${x0} ${y0},${x1} ${y0},${x1} ${y1},${x0} ${y1},${x0} ${y0}))`,
      bounds: [x0, y0, x1, y1],
      ha,
    });
  }
  return out;
}

// --- the model ----------------------------------------------------------------------------------

interface Placed extends SimField {
  grid: Grid;
  /** The tile its searches are grouped under (the daily schedule's). */
  group: string;
  /** The tile whose scene it takes (the first item id among those covering it, as chooseScenes does on the local items). */
  scene: string | undefined;
  north: number;
  west: number;
}

async function place(fields: SimField[]): Promise<Placed[]> {
  const kit = await geometryKit();
  const inner = new Map<string, Promise<[number, number, number, number]>>();
  const innerOf = (tile: string) => {
    let box = inner.get(tile);
    if (!box) inner.set(tile, (box = innerLonLatBox(tileExtent(tile))));
    return box;
  };
  const out: Placed[] = [];
  for (const field of fields) {
    const grid = await fieldGrid(kit, field.polygon);
    const covering: string[] = [];
    for (const tile of tilesOver(await utmBoundsOf(field.bounds))) {
      const box = await innerOf(tile);
      const b = field.bounds;
      if (box[0] <= b[0] && box[1] <= b[1] && box[2] >= b[2] && box[3] >= b[3]) covering.push(tile);
    }
    const idOf = (tile: string) => `S2L_${tile.replaceAll(':', '_')}`;
    covering.sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1));
    out.push({
      ...field,
      grid,
      group: await tileOf(field.bounds),
      scene: covering[0],
      west: field.bounds[0],
      north: field.bounds[3],
    });
  }
  return out;
}

/** The blocks of a band's file (10 or 20 m) under a grid's pixel centres. */
function blocksUnder(grid: Grid, t: TileExtent, size: number): string[] {
  const side = Math.round(109_800 / size);
  const clamp = (v: number) => Math.max(0, Math.min(side - 1, v));
  const c0 = clamp(Math.floor((grid.x0 + 5 - t.x0) / size));
  const c1 = clamp(Math.floor((grid.x0 + (grid.width - 0.5) * 10 - t.x0) / size));
  const r0 = clamp(Math.floor((t.y1 - (grid.y0 - 5)) / size));
  const r1 = clamp(Math.floor((t.y1 - (grid.y0 - (grid.height - 0.5) * 10)) / size));
  const keys: string[] = [];
  for (let by = Math.floor(r0 / BLOCK); by <= Math.floor(r1 / BLOCK); by++)
    for (let bx = Math.floor(c0 / BLOCK); bx <= Math.floor(c1 / BLOCK); bx++) keys.push(`${size}:${bx}:${by}`);
  return keys;
}

const header10 = tiledHeader({
  grid: { epsg: 32720, x0: 0, y0: 0, pixel: 10, width: 10_980, height: 10_980 },
  block: BLOCK,
  noData: '0',
}).header.length;
const header20 = tiledHeader({
  grid: { epsg: 32720, x0: 0, y0: 0, pixel: 20, width: 5_490, height: 5_490 },
  block: BLOCK,
  noData: '0',
}).header.length;
const BLOCK_BYTES = BLOCK * BLOCK * 2;

/** What one acquisition over every field costs each design, and a day without one. */
interface Counts {
  /** Jobs that search (a field job, a tile job): one search each, every day. */
  searchJobs: number;
  /** Jobs that read scenes, for one acquisition. */
  sceneJobs: number;
  /** File openings (one per band a scene job reads) and blocks read, for one acquisition. */
  openings: number;
  blocks: number;
  bytes: number;
}

function modelOf(fields: Placed[]): { perField: Counts; tiles: Counts } {
  const seen = fields.filter((f) => f.scene);
  const perField: Counts = { searchJobs: fields.length, sceneJobs: seen.length, openings: 0, blocks: 0, bytes: 0 };
  for (const f of seen) {
    const t = tileExtent(f.scene!);
    const b10 = blocksUnder(f.grid, t, 10).length;
    const b20 = blocksUnder(f.grid, t, 20).length;
    perField.openings += BANDS_10M + BANDS_20M;
    perField.blocks += BANDS_10M * b10 + BANDS_20M * b20;
    perField.bytes += BANDS_10M * (header10 + b10 * BLOCK_BYTES) + BANDS_20M * (header20 + b20 * BLOCK_BYTES);
  }
  // tiles: the daily schedule's groups, in its order, cut into tile jobs; each job's fields by scene,
  // in rows of blocks, cut into tile scene jobs (lib/imagery/repository.ts, ingest.ts)
  const tiles: Counts = { searchJobs: 0, sceneJobs: 0, openings: 0, blocks: 0, bytes: 0 };
  const groups = new Map<string, Placed[]>();
  for (const f of fields) groups.set(f.group, [...(groups.get(f.group) ?? []), f]);
  for (const members of groups.values()) {
    members.sort((a, b) => Math.floor(b.north * 10) - Math.floor(a.north * 10) || a.west - b.west);
    for (let i = 0; i < members.length; i += MAX_TILE_JOB_FIELDS) {
      tiles.searchJobs++;
      const byScene = new Map<string, Placed[]>();
      for (const f of members.slice(i, i + MAX_TILE_JOB_FIELDS))
        if (f.scene) byScene.set(f.scene, [...(byScene.get(f.scene) ?? []), f]);
      for (const [scene, sceneFields] of byScene) {
        const band = (grid: Grid) => Math.floor(-grid.y0 / 10_240);
        sceneFields.sort((a, b) => band(a.grid) - band(b.grid) || a.grid.x0 - b.grid.x0 || a.id - b.id);
        const t = tileExtent(scene);
        for (let j = 0; j < sceneFields.length; j += MAX_TILE_FIELDS) {
          const part = sceneFields.slice(j, j + MAX_TILE_FIELDS);
          const b10 = new Set(part.flatMap((f) => blocksUnder(f.grid, t, 10))).size;
          const b20 = new Set(part.flatMap((f) => blocksUnder(f.grid, t, 20))).size;
          tiles.sceneJobs++;
          tiles.openings += BANDS_10M + BANDS_20M;
          tiles.blocks += BANDS_10M * b10 + BANDS_20M * b20;
          tiles.bytes += BANDS_10M * (header10 + b10 * BLOCK_BYTES) + BANDS_20M * (header20 + b20 * BLOCK_BYTES);
        }
      }
    }
  }
  return { perField, tiles };
}

// --- the real run -------------------------------------------------------------------------------

interface Writes {
  s3Puts: number;
  s3Bytes: number;
  dynamoWrites: number;
  dynamoReads: number;
  messages: number;
}

/** A repository in memory over the fields, each with an old date of its shape (a field in its steady state), counting calls. */
function memoryRepository(fields: Map<number, Placed>) {
  const entries = new Map<string, ImageryDate>();
  const runs = new Map<number, Set<string>>();
  const writes: Writes = { s3Puts: 0, s3Bytes: 0, dynamoWrites: 0, dynamoReads: 0, messages: 0 };
  const queued: { scenes: SceneJob[]; tileScenes: TileSceneJob[]; fields: FieldJob[] } = {
    scenes: [],
    tileScenes: [],
    fields: [],
  };
  const old = (id: number): ImageryDate => ({
    layer: 'sentinel2',
    day: '2020-01-06',
    datetime: '2020-01-06T14:00:00Z',
    min: 0,
    max: 1,
    mean: 0.5,
    cloudy: false,
    cloudShare: 0,
    sceneId: 'old',
    shapeVersion: shapeVersion(fields.get(id)!.polygon),
    objectKey: 'old',
    empty: false,
    metadata: {},
  });
  const repository: ImageryRepository = {
    fieldShape: async (id) => {
      writes.dynamoReads += 2; // the field, its season shapes
      const f = fields.get(id);
      return f ? ({ polygon: f.polygon, bounds: f.bounds } as FieldShape) : undefined;
    },
    dates: async (id) => {
      writes.dynamoReads++;
      return [old(id), ...[...entries].filter(([key]) => key.startsWith(`${id}|`)).map(([, entry]) => entry)];
    },
    date: async (id, _layer, day) => {
      writes.dynamoReads++;
      return entries.get(`${id}|${day}`);
    },
    store: async (id, entry, raster) => {
      if (raster) {
        writes.s3Puts++;
        writes.s3Bytes += raster.length;
      }
      writes.dynamoWrites++;
      entries.set(`${id}|${entry.day}`, entry);
    },
    raster: async () => undefined,
    startRun: async (id, days) => {
      writes.dynamoWrites++;
      const run = runs.get(id) ?? new Set<string>();
      for (const day of days) run.add(day);
      runs.set(id, run);
    },
    finishDay: async (id, day) => {
      writes.dynamoWrites++;
      const run = runs.get(id);
      run?.delete(day);
      if (run?.size) return { empty: false };
      writes.dynamoWrites++; // the run item deleted
      runs.delete(id);
      return { empty: true, lockIds: [] };
    },
    releaseLock: async () => true,
    publishScenes: async (jobs) => {
      writes.messages += jobs.length;
      queued.scenes.push(...jobs);
    },
    publishBackfill: async (job) => {
      writes.messages++;
      queued.fields.push(job);
    },
    publishTileScenes: async (jobs) => {
      writes.messages += jobs.length;
      queued.tileScenes.push(...jobs);
    },
  };
  return { repository, writes, queued, entries };
}

async function startCatalogueThread(): Promise<{
  url: string;
  stats: () => Promise<CatalogueStats>;
  stop: () => Promise<void>;
}> {
  const [port] = await freePorts(1);
  // a thread with tsx's loader registered, then the catalogue's module
  const file = new URL('./imagery-scale-catalogue.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); });`,
    { eval: true, workerData: { port, block: BLOCK, cacheBytes: 1024 * 1024 * 1024 } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message) => resolve(message.url));
    worker.once('error', reject);
  });
  return {
    url,
    stats: () =>
      new Promise((resolve) => {
        worker.once('message', (message) => resolve(message.stats));
        worker.postMessage('stats');
      }),
    stop: () =>
      new Promise((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}

interface RealRun {
  searches: number;
  rangeRequests: number;
  bytes: number;
  searchJobs: number;
  sceneJobs: number;
  /** Seconds of jobs in this thread, the catalogue's computing of blocks taken out. */
  searchJobS: number;
  sceneJobS: number;
  cut: number;
  writes: Writes;
}

const began = Date.now();
const say = async (what: string, catalogue: { stats: () => Promise<CatalogueStats> }) => {
  const stats = await catalogue.stats();
  console.error(
    `${round((Date.now() - began) / 1000)} s: ${what}; catalogue ${stats.searches} searches, ${stats.rangeRequests} range requests, ${stats.blocks} blocks computed in ${round(stats.blockMs / 1000)} s`,
  );
};

async function realRun(design: 'perField' | 'tiles', fields: Placed[], now: Date): Promise<RealRun> {
  const catalogue = await startCatalogueThread();
  try {
    const byId = new Map(fields.map((f) => [f.id, f]));
    const { repository, writes, queued, entries } = memoryRepository(byId);
    const source: SceneSource = {
      search: (bounds, from, to) => searchScenes({ stacUrl: catalogue.url, bounds, from, to }),
      readBand: (href, grid, epsg) => readBand(href, grid, { epsg }),
      ...(design === 'tiles' ? { readBands: (href, grids, epsg) => readBandOnGrids(href, grids, { epsg }) } : {}),
    };
    const ingestion = imageryIngestion({ repository, source, settings: () => ({ periodDays: 365 }), now: () => now });
    const time = async (fn: () => Promise<unknown>) => {
      const before = (await catalogue.stats()).blockMs;
      const started = performance.now();
      await fn();
      const elapsed = performance.now() - started;
      return Math.max(0, elapsed - ((await catalogue.stats()).blockMs - before)) / 1000;
    };
    let searchJobS = 0;
    let sceneJobS = 0;
    let searchJobs = 0;
    let sceneJobs = 0;
    await say(`${design}: ${fields.length} fields`, catalogue);
    if (design === 'perField') {
      // the daily schedule's field jobs, in the order of the fields on the ground
      for (const f of fields) {
        searchJobs++;
        searchJobS += await time(() => ingestion.ingestField({ field_id: f.id, recent_days: DAILY_RECENT_DAYS_REAL }));
      }
      for (const job of queued.scenes) {
        sceneJobs++;
        sceneJobS += await time(() => ingestion.ingestScene(job));
        if (sceneJobs % 100 === 0) say(`today's design: ${sceneJobs} of ${queued.scenes.length} scene jobs`, catalogue);
      }
    } else {
      const groups = new Map<string, Placed[]>();
      for (const f of fields) groups.set(f.group, [...(groups.get(f.group) ?? []), f]);
      for (const [tile, members] of groups) {
        members.sort((a, b) => Math.floor(b.north * 10) - Math.floor(a.north * 10) || a.west - b.west);
        for (let i = 0; i < members.length; i += MAX_TILE_JOB_FIELDS) {
          const ids = members.slice(i, i + MAX_TILE_JOB_FIELDS).map((f) => f.id);
          searchJobs++;
          searchJobS += await time(() =>
            ingestion.ingestTile({ tile, field_ids: ids, recent_days: DAILY_RECENT_DAYS_REAL }),
          );
        }
      }
      for (const job of queued.tileScenes) {
        sceneJobs++;
        sceneJobS += await time(() => ingestion.ingestTileScene(job));
        say(`tiles: ${sceneJobs} of ${queued.tileScenes.length} tile scene jobs`, catalogue);
      }
    }
    const stats = await catalogue.stats();
    const cut = [...entries.values()].filter((entry) => entry.day !== '2020-01-06').length;
    return {
      searches: stats.searches,
      rangeRequests: stats.rangeRequests,
      bytes: stats.bytes,
      searchJobs,
      sceneJobs,
      searchJobS,
      sceneJobS,
      cut,
      writes: { ...writes, messages: writes.messages + searchJobs },
    };
  } finally {
    await catalogue.stop();
  }
}

// --- the run ------------------------------------------------------------------------------------

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};

const fmt = (value: number, digits = 2) =>
  value >= 1000 ? Math.round(value).toLocaleString('en-US') : String(round(value, digits));

export async function run() {
  const total = arg('fields', 100_000);
  const realCount = arg('real', 2_000);
  const started = Date.now();
  const all = await place(fieldsOf(total));
  console.error(`placed ${all.length} fields in ${round((Date.now() - started) / 1000)} s`);

  // the real run's fields: the most crowded tiles, whole, until there are enough
  const groups = new Map<string, Placed[]>();
  for (const f of all) groups.set(f.group, [...(groups.get(f.group) ?? []), f]);
  const real: Placed[] = [];
  for (const members of [...groups.values()].sort((a, b) => b.length - a.length)) {
    if (real.length >= realCount) break;
    real.push(...members.slice(0, realCount - real.length));
  }
  real.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) || b.north - a.north || a.west - b.west);
  const index = acquisitionIndex(Date.UTC(2026, 10, 20));
  const now = new Date(acquisitionTime(index) + 2 * 3600_000);
  const measured = { perField: await realRun('perField', real, now), tiles: await realRun('tiles', real, now) };
  const predicted = modelOf(real);
  const check = (['perField', 'tiles'] as const).map((design) => {
    const m = measured[design];
    const p = predicted[design];
    return {
      design,
      searches: [p.searchJobs, m.searches],
      sceneJobs: [p.sceneJobs, m.sceneJobs],
      bytes: [p.bytes, m.bytes],
      rangeRequests: m.rangeRequests,
      openings: p.openings,
      blocks: p.blocks,
      cut: m.cut,
    };
  });
  console.log(JSON.stringify({ real: { fields: real.length, measured, check } }, null, 2));

  // range requests: what geotiff.js asks per opening and per block read, from the real run's two designs
  const [pf, tl] = [predicted.perField, predicted.tiles];
  const [rf, rt] = [measured.perField.rangeRequests, measured.tiles.rangeRequests];
  const det = pf.openings * tl.blocks - pf.blocks * tl.openings;
  const perOpening = (rf * tl.blocks - pf.blocks * rt) / det;
  const perBlock = (pf.openings * rt - rf * tl.openings) / det;

  // the model over every field and a year
  const model = modelOf(all);
  const year = (design: 'perField' | 'tiles') => {
    const c = model[design];
    const m = measured[design];
    const fieldsSeen = model.perField.sceneJobs; // field-scenes of one acquisition
    const requests = c.openings * perOpening + c.blocks * perBlock;
    const searchesYear = c.searchJobs * DAYS_A_YEAR;
    const rangeYear = requests * ACQUISITIONS_A_YEAR;
    const bytesYear = c.bytes * ACQUISITIONS_A_YEAR;
    // worker seconds: the real run's per-field costs, scaled; then the network AWS adds
    const searchLocalS = (m.searchJobS / real.length) * total * DAYS_A_YEAR;
    const sceneLocalS = (m.sceneJobS / Math.max(1, m.cut)) * fieldsSeen * ACQUISITIONS_A_YEAR;
    const dynamoPerField = (m.writes.dynamoWrites + m.writes.dynamoReads) / real.length;
    const networkS =
      searchesYear * NETWORK.searchS +
      c.sceneJobs * ACQUISITIONS_A_YEAR * 2 * NETWORK.roundTripS +
      bytesYear / NETWORK.bandwidth +
      (design === 'perField' ? 1 : 1 / 10) * dynamoPerField * total * ACQUISITIONS_A_YEAR * NETWORK.dynamoS;
    const gbSeconds = (searchLocalS + sceneLocalS + networkS) * WORKER_GB;
    const messages = (c.searchJobs * DAYS_A_YEAR + c.sceneJobs * ACQUISITIONS_A_YEAR) * 1;
    const s3Puts = (m.writes.s3Puts / real.length) * total * ACQUISITIONS_A_YEAR;
    const s3Bytes = (m.writes.s3Bytes / Math.max(1, m.writes.s3Puts)) * s3Puts;
    const dynamoWrites = (m.writes.dynamoWrites / real.length) * total * ACQUISITIONS_A_YEAR;
    const dynamoReads =
      (m.writes.dynamoReads / real.length) * total * ACQUISITIONS_A_YEAR +
      // days without an acquisition still read each field's shape and dates in its search job
      3 * total * (DAYS_A_YEAR - ACQUISITIONS_A_YEAR);
    const cost = {
      lambda: gbSeconds * PRICE.gbSecond + messages * PRICE.invocation,
      sqs: messages * 3 * PRICE.sqsRequest,
      s3: s3Puts * PRICE.s3Put + (s3Bytes / 1e9) * PRICE.s3GbMonth * 6, // half a year stored on average
      dynamodb: dynamoWrites * PRICE.dynamoWrite + dynamoReads * PRICE.dynamoRead,
    };
    const costYear = cost.lambda + cost.sqs + cost.s3 + cost.dynamodb;
    return {
      searchesPerDay: c.searchJobs,
      searchesPerFieldYear: searchesYear / total,
      rangeRequestsPerScene: requests / fieldsSeen,
      rangeRequestsPerFieldYear: rangeYear / total,
      mbPerScene: c.bytes / fieldsSeen / 1e6,
      gbPerYear: bytesYear / 1e9,
      gbSecondsPerFieldYear: gbSeconds / total,
      s3PutsPerFieldYear: s3Puts / total,
      dynamoWritesPerFieldYear: dynamoWrites / total,
      messagesPerFieldYear: messages / total,
      cost: Object.fromEntries(Object.entries(cost).map(([k, v]) => [k, v / total])),
      costPerFieldYear: costYear / total,
      costYear,
    };
  };
  const today = year('perField');
  const tiles = year('tiles');
  console.log(
    JSON.stringify(
      {
        model: {
          fields: total,
          tiles: groups.size,
          hectares: Math.round(all.reduce((sum, f) => sum + f.ha, 0)),
          requestsPerOpening: round(perOpening, 3),
          requestsPerBlock: round(perBlock, 3),
          today,
          tiles_: tiles,
          ratio: {
            searches: round(today.searchesPerFieldYear / tiles.searchesPerFieldYear, 1),
            rangeRequests: round(today.rangeRequestsPerFieldYear / tiles.rangeRequestsPerFieldYear, 1),
            bytes: round(today.gbPerYear / tiles.gbPerYear, 1),
            cost: round(today.costPerFieldYear / tiles.costPerFieldYear, 1),
          },
        },
      },
      null,
      2,
    ),
  );
  const rows: Array<[string, string, string]> = [
    ['catalogue searches a day', fmt(today.searchesPerDay), fmt(tiles.searchesPerDay)],
    ['searches per field a year', fmt(today.searchesPerFieldYear), fmt(tiles.searchesPerFieldYear, 3)],
    ['COG range requests per field and scene', fmt(today.rangeRequestsPerScene), fmt(tiles.rangeRequestsPerScene, 3)],
    ['range requests per field a year', fmt(today.rangeRequestsPerFieldYear), fmt(tiles.rangeRequestsPerFieldYear)],
    ['MB read per field and scene', fmt(today.mbPerScene), fmt(tiles.mbPerScene, 3)],
    ['worker GB-s per field a year', fmt(today.gbSecondsPerFieldYear), fmt(tiles.gbSecondsPerFieldYear)],
    ['S3 writes per field a year', fmt(today.s3PutsPerFieldYear), fmt(tiles.s3PutsPerFieldYear)],
    ['DynamoDB writes per field a year', fmt(today.dynamoWritesPerFieldYear), fmt(tiles.dynamoWritesPerFieldYear)],
    ['SQS messages per field a year', fmt(today.messagesPerFieldYear), fmt(tiles.messagesPerFieldYear)],
    ['cost per field a year (USD)', today.costPerFieldYear.toFixed(5), tiles.costPerFieldYear.toFixed(5)],
  ];
  console.log(`\n| ${total.toLocaleString('en-US')} fields, one year | today (per field) | tiles |`);
  console.log('| --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.error(`done in ${round((Date.now() - started) / 1000)} s`);
}
