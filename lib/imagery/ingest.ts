// Imagery ingestion (docs/imagery.md): the field job finds the scenes of the period and queues
// those not stored for their campaign's shape; the scene job reads the field's window of each band
// (or re-masks the stored pixels when only the shape changed), computes the indices and the date's
// figures and stores them. Rules only: the repository and
// the scene source are parameters.
import { geometryKit } from '../geo/geometry';
import { log } from '../log';
import type { FieldShape } from '../platform/model';
import { memo } from '../util/memo';
import { dateFigures, type SceneProducts, sceneProducts } from './bands';
import { fieldGrid, fieldMask, ringsOfWkt } from './field-grid';
import { type Grid, unionBounds } from './grid';
import { gridFits, gridSize } from './grid-bound';
import { SENTINEL2 } from './layers';
import { decodeScene, encodeScene, type StoredScene } from './raster';
import {
  DAILY_RECENT_DAYS,
  FIRST_LOOK_DAYS,
  type FieldJob,
  type ImageryDate,
  type ImageryDeps,
  MAX_PERIOD_DAYS,
  MAX_TILE_FIELDS,
  rasterKey,
  type SceneJob,
  shapeVersion,
  type TileJob,
  type TileSceneJob,
} from './service';
import { BANDS, type BandName, chooseScenes, type Scene } from './stac';

/** The side of a block of Earth Search's Sentinel-2 COGs at 10 m (1024 pixels), in metres. */
const COG_BLOCK_M = 10_240;

/** The six bands of a scene on a grid. */
type SceneBands = Record<BandName, ArrayLike<number>>;

/** The campaign of a day (YYYY-MM-DD): its calendar year, as lib/fields/current-shape.ts counts campaigns. */
export const campaignOfDay = (day: string): number => Number(day.slice(0, 4));

/** What a date is cut for: the polygon of its campaign, its version and its grid. */
interface Cut {
  shape: FieldShape;
  version: string;
  grid: Grid;
}

/**
 * The products of a stored scene on a grid inside its own (the same CRS and pixel): the pixels
 * cropped, no scene read; undefined when the stored grid does not cover the grid.
 */
export function cropProducts(stored: StoredScene, grid: Grid): SceneProducts | undefined {
  const from = stored.grid;
  if (
    from.epsg !== grid.epsg ||
    from.pixel !== grid.pixel ||
    (from.pixelY ?? from.pixel) !== (grid.pixelY ?? grid.pixel)
  )
    return undefined;
  const col = Math.round((grid.x0 - from.x0) / grid.pixel);
  const row = Math.round((from.y0 - grid.y0) / grid.pixel);
  if (col < 0 || row < 0 || col + grid.width > from.width || row + grid.height > from.height) return undefined;
  const n = grid.width * grid.height;
  const indices = Object.fromEntries(
    Object.keys(stored.indices).map((operation) => [operation, new Float32Array(n)]),
  ) as SceneProducts['indices'];
  const rgb = new Uint8Array(n * 3);
  const cloud = new Uint8Array(n);
  for (let r = 0; r < grid.height; r++) {
    for (let c = 0; c < grid.width; c++) {
      const i = r * grid.width + c;
      const j = (row + r) * from.width + (col + c);
      for (const operation of Object.keys(indices) as Array<keyof SceneProducts['indices']>)
        indices[operation][i] = stored.indices[operation][j]!;
      rgb.set(stored.rgb.subarray(j * 3, j * 3 + 3), i * 3);
      cloud[i] = stored.cloud[j]!;
    }
  }
  return { indices, rgb, cloud };
}

export function imageryIngestion({
  repository,
  source,
  settings,
  emit,
  now = () => new Date(),
}: Omit<ImageryDeps, 'gate'>) {
  async function releaseIfAny(fieldId: number, lockId: string | undefined): Promise<void> {
    if (lockId) await repository.releaseLock(fieldId, lockId);
  }

  /** The cut of a shape, or undefined when its grid is over the bound (docs/decisions.md, Bounds). */
  async function cutOf(fieldId: number, shape: FieldShape): Promise<Cut | undefined> {
    const grid = await fieldGrid(await geometryKit(), shape.polygon);
    if (gridFits(grid)) return { shape, version: shapeVersion(shape.polygon), grid };
    log.warn('imagery grid over its bound: not ingested', { fieldId, ...gridSize(grid) });
    return undefined;
  }

  /** The cuts of a field's campaigns, read once each. */
  const campaignCuts = (fieldId: number) =>
    memo((campaign: number) =>
      repository.fieldShape(fieldId, campaign).then((shape) => (shape ? cutOf(fieldId, shape) : undefined)),
    );

  /**
   * The field job: finds the scenes of the period and queues those not stored for their campaign's
   * shape (newest first), and the stored dates of a campaign whose shape changed, however old. A
   * first look (`newest`, the urgent or bulk lane) searches only the last days, cuts the newest scene
   * at once and hands the rest of the period to the backfill lane.
   */
  async function ingestField(job: FieldJob): Promise<{ queued: number; cut?: number }> {
    const to = now();
    const cutFor = campaignCuts(job.field_id);
    const current = await cutFor(to.getUTCFullYear());
    if (!current) {
      // a deleted field, or one stored before the grid's bound: no scene of it is ever read
      await releaseIfAny(job.field_id, job.lock_id);
      return { queued: 0 };
    }
    const stored = new Map((await repository.dates(job.field_id, SENTINEL2)).map((entry) => [entry.day, entry]));
    const periodDays = Math.min(job.period_days ?? settings().periodDays, MAX_PERIOD_DAYS);
    const isStored = (scene: Scene, cut: Cut) => {
      const entry = stored.get(scene.day);
      return Boolean(entry && entry.sceneId === scene.id && entry.shapeVersion === cut.version);
    };
    /** Searches a period with the bounds of every campaign it spans; the scenes with their cuts. */
    const search = async (from: Date) => {
      const cuts = new Map<number, Cut>();
      for (let year = from.getUTCFullYear(); year <= to.getUTCFullYear(); year++) {
        const cut = await cutFor(year);
        if (cut) cuts.set(year, cut);
      }
      const bounds = unionBounds([...cuts.values()].map((cut) => cut.shape.bounds));
      const scenes = chooseScenes(await source.search(bounds, from, to), bounds, current.grid.epsg);
      return scenes.flatMap((scene) => {
        const cut = cuts.get(campaignOfDay(scene.day));
        return cut ? [{ scene, cut }] : [];
      });
    };
    if (job.newest) {
      const [newest] = await search(new Date(to.getTime() - Math.min(FIRST_LOOK_DAYS, periodDays) * 86_400_000));
      let cut = 0;
      if (newest && !isStored(newest.scene, newest.cut)) {
        await cutScene(job.field_id, newest.cut, newest.scene, stored.get(newest.scene.day));
        cut = 1;
      }
      // the rest of the period (and the lock, if any) goes to the backfill lane
      await repository.publishBackfill({
        field_id: job.field_id,
        ...(job.lock_id ? { lock_id: job.lock_id } : {}),
        ...(job.period_days ? { period_days: job.period_days } : {}),
      });
      return { queued: 0, cut };
    }
    // dates stored for another version of their campaign's shape (a season shape changed)
    let stale: string | undefined;
    let fresh = false;
    for (const entry of stored.values()) {
      const cut = await cutFor(campaignOfDay(entry.day));
      if (!cut) continue;
      if (entry.shapeVersion === cut.version) fresh = true;
      else if (!stale || entry.day < stale) stale = entry.day;
    }
    // the daily schedule looks a few days back, unless the field has no date of its shape yet
    const days = job.recent_days && fresh ? Math.min(job.recent_days, periodDays) : periodDays;
    let from = new Date(to.getTime() - days * 86_400_000);
    if (stale && Date.parse(stale) < from.getTime()) from = new Date(Date.parse(stale));
    const todo = (await search(from)).filter(({ scene, cut }) => !isStored(scene, cut));
    if (!todo.length) {
      await releaseIfAny(job.field_id, job.lock_id);
      return { queued: 0 };
    }
    await repository.startRun(
      job.field_id,
      todo.map(({ scene }) => scene.day),
      job.lock_id,
    );
    // newest first: the lane serves them about in this order; a new shape's re-cut (its lock held)
    // on the bulk lane, not behind every other field's backfill
    await repository.publishScenes(
      todo.map(({ scene, cut }) => ({ field_id: job.field_id, shape_version: cut.version, scene })),
      job.lock_id ? 'reshape' : 'backfill',
    );
    return { queued: todo.length };
  }

  /** The six bands of a scene on each grid: each block of each band read once for all the grids. */
  async function readScene(scene: Scene, grids: readonly Grid[]): Promise<SceneBands[]> {
    if (!grids.length) return [];
    const perBand = await Promise.all(
      BANDS.map((band) =>
        source.readBands
          ? source.readBands(scene.hrefs[band], grids, scene.epsg)
          : Promise.all(grids.map((grid) => source.readBand(scene.hrefs[band], grid, scene.epsg))),
      ),
    );
    return grids.map((_, g) => Object.fromEntries(BANDS.map((band, b) => [band, perBand[b]![g]!])) as SceneBands);
  }

  /**
   * Cuts a scene to a date's shape and stores it. A date stored from the same scene on a grid that
   * covers the new one is re-masked from its stored pixels (a new season shape inside the old one):
   * no scene read. Otherwise the field's window of each band is read.
   */
  async function cutScene(
    fieldId: number,
    cut: Cut,
    scene: Scene,
    stored: ImageryDate | undefined,
    read?: SceneBands,
  ): Promise<ImageryDate | undefined> {
    const { grid, version } = cut;
    const rings = ringsOfWkt(await geometryKit(), cut.shape.polygon);
    let products: SceneProducts | undefined;
    if (stored && !stored.empty && stored.objectKey && stored.sceneId === scene.id) {
      const bytes = await repository.raster(stored.objectKey);
      if (bytes) products = cropProducts(decodeScene(bytes), grid);
    }
    if (!products) {
      const bands = read ?? (await readScene(scene, [grid]))[0]!;
      products = sceneProducts({ ...bands, radiometry: scene.radiometry });
    }
    const figures = dateFigures(products.indices.ndvi1, products.cloud, await fieldMask(rings, grid));
    const empty = figures.pixels === 0;
    const entry: ImageryDate = {
      layer: SENTINEL2,
      day: scene.day,
      datetime: scene.datetime,
      min: figures.min,
      max: figures.max,
      mean: figures.mean,
      cloudy: figures.cloudy,
      cloudShare: figures.cloudShare,
      sceneId: scene.id,
      shapeVersion: version,
      objectKey: empty ? '' : rasterKey(fieldId, SENTINEL2, scene.day, version),
      empty,
      metadata: {},
    };
    const raster = empty
      ? undefined
      : encodeScene({ grid, rings, shapeVersion: version, sceneId: scene.id, datetime: scene.datetime, ...products });
    await repository.store(fieldId, entry, raster, stored);
    // a new date (not a re-cut of one the field had): to the field's owner's webhooks
    if (!empty && !stored) {
      await emit?.('IMAGERY_DATES.V1', {
        userIds: [],
        fieldId,
        data: { field_id: fieldId, layer: SENTINEL2, date: entry.datetime, cloudy: entry.cloudy },
      });
    }
    return entry;
  }

  /** The scene job: cuts one scene to its campaign's shape (unless stored or of an older shape), then closes its day. */
  async function ingestScene(job: SceneJob): Promise<ImageryDate | undefined> {
    const { scene } = job;
    const shape = await repository.fieldShape(job.field_id, campaignOfDay(scene.day));
    let entry: ImageryDate | undefined;
    // A job of an older shape (or of a deleted field) only closes its day: a newer run redoes it.
    // A redelivered job finds its date stored and only closes its day too.
    const stored = shape ? await repository.date(job.field_id, SENTINEL2, scene.day) : undefined;
    const done = stored && stored.sceneId === scene.id && stored.shapeVersion === job.shape_version;
    if (shape && shapeVersion(shape.polygon) === job.shape_version && !done) {
      const cut = await cutOf(job.field_id, shape);
      if (cut) entry = await cutScene(job.field_id, cut, scene, stored);
    }
    await closeDay(job);
    return entry;
  }

  /**
   * The tile job (the daily schedule, docs/imagery.md "Tiles"): one search of the recent days over
   * all the fields of a tile, then, for each scene, one tile scene job with the fields that chose it
   * and do not have it stored (newest first). A field without a date of its current shape, or with
   * dates of an older shape of their campaign, gets its own field job instead (the whole period, as
   * a new field's backfill).
   */
  async function ingestTile(job: TileJob): Promise<{ searched: number; queued: number; backfills: number }> {
    const to = now();
    const from = new Date(to.getTime() - (job.recent_days ?? DAILY_RECENT_DAYS) * 86_400_000);
    interface Member {
      fieldId: number;
      epsg: number;
      cuts: Map<number, Cut>;
      stored: Map<string, ImageryDate>;
      days: string[];
    }
    const members: Member[] = [];
    let backfills = 0;
    const memberOf = async (fieldId: number): Promise<Member | 'backfill' | undefined> => {
      const cutFor = campaignCuts(fieldId);
      const current = await cutFor(to.getUTCFullYear());
      if (!current) return undefined;
      const stored = new Map((await repository.dates(fieldId, SENTINEL2)).map((entry) => [entry.day, entry]));
      let fresh = false;
      for (const entry of stored.values()) {
        const cut = await cutFor(campaignOfDay(entry.day));
        if (!cut) continue;
        if (entry.shapeVersion !== cut.version) return 'backfill';
        fresh = true;
      }
      if (!fresh) return 'backfill';
      const cuts = new Map<number, Cut>();
      for (let year = from.getUTCFullYear(); year <= to.getUTCFullYear(); year++) {
        const cut = await cutFor(year);
        if (cut) cuts.set(year, cut);
      }
      return { fieldId, epsg: current.grid.epsg, cuts, stored, days: [] };
    };
    for (let i = 0; i < job.field_ids.length; i += 10) {
      const found = await Promise.all(job.field_ids.slice(i, i + 10).map(memberOf));
      for (const [k, member] of found.entries()) {
        if (member === 'backfill') {
          await repository.publishBackfill({ field_id: job.field_ids[i + k]! });
          backfills++;
        } else if (member) members.push(member);
      }
    }
    if (!members.length) return { searched: 0, queued: 0, backfills };
    const boundsOf = (member: Member) => unionBounds([...member.cuts.values()].map((cut) => cut.shape.bounds));
    const scenes = await source.search(unionBounds(members.map(boundsOf)), from, to);
    const byScene = new Map<string, { scene: Scene; fields: Array<TileSceneJob['fields'][number] & { grid: Grid }> }>();
    for (const member of members) {
      for (const scene of chooseScenes(scenes, boundsOf(member), member.epsg)) {
        const cut = member.cuts.get(campaignOfDay(scene.day));
        const entry = member.stored.get(scene.day);
        if (!cut || (entry && entry.sceneId === scene.id && entry.shapeVersion === cut.version)) continue;
        let sceneJob = byScene.get(scene.id);
        if (!sceneJob) byScene.set(scene.id, (sceneJob = { scene, fields: [] }));
        sceneJob.fields.push({ field_id: member.fieldId, shape_version: cut.version, grid: cut.grid });
        member.days.push(scene.day);
      }
    }
    for (const member of members)
      if (member.days.length) await repository.startRun(member.fieldId, member.days, undefined);
    const jobs = [...byScene.values()]
      .sort((a, b) =>
        a.scene.day < b.scene.day ? 1 : a.scene.day > b.scene.day ? -1 : a.scene.id < b.scene.id ? -1 : 1,
      )
      .flatMap(({ scene, fields }) => {
        // the fields in rows of COG blocks, west to east: a job's fields lie together, so it reads
        // (and holds) the few blocks under them, not blocks across the whole tile
        const band = (grid: Grid) => Math.floor(-grid.y0 / COG_BLOCK_M);
        fields.sort((a, b) => band(a.grid) - band(b.grid) || a.grid.x0 - b.grid.x0 || a.field_id - b.field_id);
        const parts: TileSceneJob[] = [];
        for (let i = 0; i < fields.length; i += MAX_TILE_FIELDS) {
          const part = fields.slice(i, i + MAX_TILE_FIELDS);
          parts.push({ scene, fields: part.map(({ field_id, shape_version }) => ({ field_id, shape_version })) });
        }
        return parts;
      });
    if (jobs.length) await repository.publishTileScenes(jobs);
    return { searched: 1, queued: jobs.length, backfills };
  }

  /**
   * The tile scene job: every field it carries that does not have the scene stored for its shape is
   * cut from one shared read (each block of each band once), then every field's day is closed. A
   * redelivered job finds its fields' dates stored and reads nothing.
   */
  async function ingestTileScene(job: TileSceneJob): Promise<{ cut: number }> {
    const { scene } = job;
    const campaign = campaignOfDay(scene.day);
    const toCut = async ({ field_id: fieldId, shape_version: version }: TileSceneJob['fields'][number]) => {
      const shape = await repository.fieldShape(fieldId, campaign);
      if (!shape || shapeVersion(shape.polygon) !== version) return undefined;
      const stored = await repository.date(fieldId, SENTINEL2, scene.day);
      if (stored && stored.sceneId === scene.id && stored.shapeVersion === version) return undefined;
      const cut = await cutOf(fieldId, shape);
      return cut ? { fieldId, cut, stored } : undefined;
    };
    // the fields' shapes and dates, ten at a time
    const todo: Array<NonNullable<Awaited<ReturnType<typeof toCut>>>> = [];
    for (let i = 0; i < job.fields.length; i += 10)
      for (const item of await Promise.all(job.fields.slice(i, i + 10).map(toCut))) if (item) todo.push(item);
    // a date stored from this very scene is re-masked from its pixels (cutScene), not read again
    const reading = todo.filter(({ stored }) => !(stored && !stored.empty && stored.sceneId === scene.id));
    const bands = await readScene(
      scene,
      reading.map(({ cut }) => cut.grid),
    );
    for (const item of todo) {
      const index = reading.indexOf(item);
      await cutScene(item.fieldId, item.cut, scene, item.stored, index < 0 ? undefined : bands[index]);
    }
    for (const { field_id } of job.fields) await closeDay({ field_id, scene });
    return { cut: todo.length };
  }

  /** Closes a scene job's day of its run; the last day closed releases the run's locks. */
  async function closeDay(job: Pick<SceneJob, 'field_id' | 'scene'>): Promise<void> {
    const run = await repository.finishDay(job.field_id, job.scene.day);
    if (run.empty) for (const lockId of run.lockIds ?? []) await repository.releaseLock(job.field_id, lockId);
  }

  return { ingestField, ingestScene, ingestTile, ingestTileScene };
}

export type ImageryIngestion = ReturnType<typeof imageryIngestion>;
