// Imagery ingestion (docs/imagery.md): the field job finds the scenes of the period and queues
// those not stored for the field's current shape; the scene job reads the field's window of each
// band, computes the indices and the date's figures and stores them. Rules only: the repository and
// the scene source are parameters.
import { geometryKit } from '../geo/geometry';
import { log } from '../log';
import type { FieldShape } from '../platform/model';
import { dateFigures, sceneProducts } from './bands';
import { fieldGrid, fieldMask, ringsOfWkt } from './field-grid';
import { gridFits, gridSize } from './grid-bound';
import { SENTINEL2 } from './layers';
import { encodeScene } from './raster';
import {
  FIRST_LOOK_DAYS,
  type FieldJob,
  type ImageryDate,
  type ImageryDeps,
  MAX_PERIOD_DAYS,
  rasterKey,
  type SceneJob,
  shapeVersion,
} from './service';
import { BANDS, chooseScenes, type Scene } from './stac';

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

  /**
   * The field job: finds the scenes of the period and queues those not stored for the current shape
   * (newest first). A first look (`newest`, the urgent or bulk lane) searches only the last days,
   * cuts the newest scene at once and hands the rest of the period to the backfill lane.
   */
  async function ingestField(job: FieldJob): Promise<{ queued: number; cut?: number }> {
    const shape = await repository.fieldShape(job.field_id);
    if (!shape) {
      await releaseIfAny(job.field_id, job.lock_id);
      return { queued: 0 };
    }
    const version = shapeVersion(shape.polygon);
    const grid = await fieldGrid(await geometryKit(), shape.polygon);
    if (!gridFits(grid)) {
      // a field stored before the bound (docs/decisions.md, Bounds): no scene of it is ever read
      log.warn('imagery grid over its bound: field not ingested', { fieldId: job.field_id, ...gridSize(grid) });
      await releaseIfAny(job.field_id, job.lock_id);
      return { queued: 0 };
    }
    const stored = new Map((await repository.dates(job.field_id, SENTINEL2)).map((entry) => [entry.day, entry]));
    const periodDays = Math.min(job.period_days ?? settings().periodDays, MAX_PERIOD_DAYS);
    const isStored = (scene: Scene) => {
      const entry = stored.get(scene.day);
      return Boolean(entry && entry.sceneId === scene.id && entry.shapeVersion === version);
    };
    const to = now();
    if (job.newest) {
      const from = new Date(to.getTime() - Math.min(FIRST_LOOK_DAYS, periodDays) * 86_400_000);
      const newest = chooseScenes(await source.search(shape.bounds, from, to), shape.bounds, grid.epsg)[0];
      let cut = 0;
      if (newest && !isStored(newest)) {
        await cutScene(job.field_id, shape, version, newest, stored.get(newest.day));
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
    // the daily schedule looks a few days back, unless the field has no date of its shape yet
    const current = [...stored.values()].some((entry) => entry.shapeVersion === version);
    const days = job.recent_days && current ? Math.min(job.recent_days, periodDays) : periodDays;
    const from = new Date(to.getTime() - days * 86_400_000);
    const scenes = chooseScenes(await source.search(shape.bounds, from, to), shape.bounds, grid.epsg);
    const todo = scenes.filter((scene) => !isStored(scene));
    if (!todo.length) {
      await releaseIfAny(job.field_id, job.lock_id);
      return { queued: 0 };
    }
    await repository.startRun(
      job.field_id,
      todo.map((scene) => scene.day),
      job.lock_id,
    );
    // newest first: the backfill lane serves them about in this order
    await repository.publishScenes(todo.map((scene) => ({ field_id: job.field_id, shape_version: version, scene })));
    return { queued: todo.length };
  }

  /** Reads the field's window of each band of a scene, computes the date and stores it. */
  async function cutScene(
    fieldId: number,
    shape: FieldShape,
    version: string,
    scene: Scene,
    stored: ImageryDate | undefined,
  ): Promise<ImageryDate | undefined> {
    const geometry = await geometryKit();
    const grid = await fieldGrid(geometry, shape.polygon);
    if (!gridFits(grid)) {
      log.warn('imagery grid over its bound: scene not read', { fieldId, ...gridSize(grid) });
      return undefined;
    }
    const rings = ringsOfWkt(geometry, shape.polygon);
    const [red, green, blue, nir, rededge1, scl] = await Promise.all(
      BANDS.map((band) => source.readBand(scene.hrefs[band], grid, scene.epsg)),
    );
    const products = sceneProducts({
      red: red!,
      green: green!,
      blue: blue!,
      nir: nir!,
      rededge1: rededge1!,
      scl: scl!,
      radiometry: scene.radiometry,
    });
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

  /** The scene job: cuts one scene to the field (unless stored or of an older shape), then closes its day. */
  async function ingestScene(job: SceneJob): Promise<ImageryDate | undefined> {
    const shape = await repository.fieldShape(job.field_id);
    const { scene } = job;
    let entry: ImageryDate | undefined;
    // A job of an older shape (or of a deleted field) only closes its day: a newer run redoes it.
    // A redelivered job finds its date stored and only closes its day too.
    const stored = shape ? await repository.date(job.field_id, SENTINEL2, scene.day) : undefined;
    const done = stored && stored.sceneId === scene.id && stored.shapeVersion === job.shape_version;
    if (shape && shapeVersion(shape.polygon) === job.shape_version && !done) {
      entry = await cutScene(job.field_id, shape, job.shape_version, scene, stored);
    }
    await closeDay(job);
    return entry;
  }

  /** Closes a scene job's day of its run; the last day closed releases the run's locks. */
  async function closeDay(job: SceneJob): Promise<void> {
    const run = await repository.finishDay(job.field_id, job.scene.day);
    if (run.empty) for (const lockId of run.lockIds ?? []) await repository.releaseLock(job.field_id, lockId);
  }

  return { ingestField, ingestScene };
}

export type ImageryIngestion = ReturnType<typeof imageryIngestion>;
