// Satellite imagery of fields (spec 2, Imagery layers and GET /api/fields/ndvi; docs/imagery.md):
// what the parts share (the date entry, the jobs, the repository and source interfaces) and the
// readers (dates, NDVI series). Ingestion is in ingest.ts, rendering in rendering.ts: three services,
// so that each function bundles only its part (the readers carry no raster library). Each is built
// from its repository, source and gate, passed as parameters, so its rules run against memory.
import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal';
import type { FieldGate, Refusals } from '../authz/gate';
import { as, bool, type EntityOf, entity, nullable, num, str, strOr } from '../db/entity';
import { Forbidden, Invalid, NotFound } from '../errors';
import type { FieldShape } from '../platform/model';
import type { WebhookEmitter } from '../webhooks/emit';
import type { Grid } from './grid';
import { SATELLITE_OPERATIONS, SENTINEL2 } from './layers';
import type { RenderRequest } from './render';
import type { Scene } from './stac';

/**
 * One date of a field's layer (the DynamoDB entry): `day` YYYY-MM-DD (UTC; one scene per field,
 * layer and day), `datetime` the acquisition time (YYYY-MM-DDTHH:mm:ssZ), `mean` the NDVI over the
 * clear pixels inside (null when none is clear), `objectKey` the raster in S3 ('' for an empty
 * date), `empty` when the scene has no pixel over the field (kept so the scene is not read again;
 * never listed). A layer made from a file or a sampling (user-layers.ts) has the same entry: `min`,
 * `max` and `mean` of its values, `sceneId` its source, `metadata` what dates v3 shows with it.
 */
export const ImageryDate = entity('imagery_date', {
  layer: str('layer'),
  day: str('day'),
  datetime: str('datetime'),
  min: num('min'),
  max: num('max'),
  mean: nullable(num('mean')),
  cloudy: bool('cloudy'),
  cloudShare: num('cloud_share'),
  sceneId: str('scene_id'),
  shapeVersion: str('shape_version'),
  objectKey: strOr('object_key', ''),
  empty: bool('empty'),
  metadata: as<Record<string, unknown>>('metadata', {}),
});
export type ImageryDate = EntityOf<typeof ImageryDate>;

export interface FieldJob {
  field_id: number;
  /** The season-shape lock to release once every scene of the new shape is stored. */
  lock_id?: string;
  /** Search only this many days back when the field already has dates (the daily schedule). */
  recent_days?: number;
  /**
   * A first look (field creation, a new shape): only the newest scene, cut at once, then a backfill
   * job for the rest of the period on the backfill lane (docs/imagery.md, "Lanes").
   */
  newest?: boolean;
  /** Days back the job covers (SURCO_IMAGERY_DAYS by default): an operator's deeper backfill. */
  period_days?: number;
}

/** Days back a first look searches for the newest scene (Sentinel-2 passes every 5 days or less). */
export const FIRST_LOOK_DAYS = 20;
/** The longest period a field job covers. */
export const MAX_PERIOD_DAYS = 3650;

/** Days back the daily schedule searches for a field that has dates (new scenes, late ones). */
export const DAILY_RECENT_DAYS = 10;

export interface SceneJob {
  field_id: number;
  shape_version: string;
  scene: Scene;
}

/**
 * The daily schedule's job for the fields of one Sentinel-2 tile (tiles.ts; docs/imagery.md,
 * "Tiles"): one catalogue search for all of them, then a tile scene job per scene.
 */
export interface TileJob {
  tile: string;
  field_ids: number[];
  /** Days back the search covers (DAILY_RECENT_DAYS by default). */
  recent_days?: number;
}

/** One scene cut for the fields of a tile that chose it: each block of each band read once for all. */
export interface TileSceneJob {
  scene: Scene;
  fields: Array<{ field_id: number; shape_version: string }>;
}

/** Fields a tile scene job carries at most (an SQS message holds 256 KB; a worker has 120 s and 1 GB). */
export const MAX_TILE_FIELDS = 200;
/** Fields a tile job carries at most: it reads each one's shape and dates (two reads), then searches once. */
export const MAX_TILE_JOB_FIELDS = 2_000;

export interface ImageryRepository {
  /**
   * The field's shape for a campaign (the current one by default: the calendar year), or undefined
   * when the field is gone.
   */
  fieldShape(fieldId: number, campaign?: number): Promise<FieldShape | undefined>;
  /** The dates of a layer of the field, or of every layer when `layer` is undefined. */
  dates(fieldId: number, layer?: string): Promise<ImageryDate[]>;
  /** One day's entry of a layer. */
  date(fieldId: number, layer: string, day: string): Promise<ImageryDate | undefined>;
  /**
   * Writes the raster object (if any), then its entry (a reader never finds an entry without its
   * raster), then deletes the raster of the entry it replaces when that is another object.
   */
  store(
    fieldId: number,
    entry: ImageryDate,
    raster: Uint8Array | undefined,
    replaced: ImageryDate | undefined,
  ): Promise<void>;
  raster(objectKey: string): Promise<Uint8Array | undefined>;
  /** Adds days to the field's pending run, remembering the lock to release when it empties. */
  startRun(fieldId: number, days: string[], lockId: string | undefined): Promise<void>;
  /** Takes a day off the pending run; when the run is now empty, the locks to release. */
  finishDay(fieldId: number, day: string): Promise<{ empty: boolean; lockIds?: string[] }>;
  releaseLock(fieldId: number, lockId: string): Promise<boolean>;
  /**
   * Queues scene jobs: on the backfill lane, or, for a new season shape's re-cut ('reshape': a run
   * that holds the field's lock), on the bulk lane (docs/imagery.md, "Lanes").
   */
  publishScenes(jobs: SceneJob[], purpose: 'backfill' | 'reshape'): Promise<void>;
  /** Queues the field job that follows a first look: on the backfill lane, the bulk lane when it carries a lock. */
  publishBackfill(job: FieldJob): Promise<void>;
  /** Queues tile scene jobs on the backfill lane, in the order given. */
  publishTileScenes(jobs: TileSceneJob[]): Promise<void>;
}

export interface SceneSource {
  search(bounds: [number, number, number, number], from: Date, to: Date): Promise<Scene[]>;
  readBand(href: string, grid: Grid, epsg: number): Promise<ArrayLike<number>>;
  /** The band on several grids, each block of the file read once for all (one grid at a time when absent). */
  readBands?(href: string, grids: readonly Grid[], epsg: number): Promise<ArrayLike<number>[]>;
}

export interface ImagerySettings {
  /** Days of scenes a field job covers, back from now. */
  periodDays: number;
}

export interface ImageryDeps {
  repository: ImageryRepository;
  source: SceneSource;
  gate: FieldGate;
  settings: () => ImagerySettings;
  /** Events for webhooks: a new date of a field (docs/integrations.md). */
  emit?: WebhookEmitter;
  now?: () => Date;
}

const refusals: Refusals = {
  notFound: () => new NotFound('Field not found'),
  forbidden: () => new Forbidden('The user cannot read this field'),
};

/** The field for a reader: notFound when absent or unreadable. */
export const readableField = (gate: FieldGate, principal: Principal, fieldId: number) =>
  gate.field(principal, fieldId, 'read', refusals);

/** The shape a scene was cut for: a new polygon makes the field's scenes stale. */
export const shapeVersion = (polygon: string): string =>
  createHash('sha256').update(polygon).digest('hex').slice(0, 16);

export const rasterKey = (fieldId: number, layer: string, day: string, version: string): string =>
  `imagery/${fieldId}/${encodeURIComponent(layer)}/${day}-${version}.bin`;

/** GET /api/geoserver/v2's parameters: what to render (wire names) and how (render.ts). */
export interface RenderParams extends Omit<RenderRequest, 'operation' | 'scale'> {
  field_id: number;
  layer_name: string;
  operation: string;
  /** YYYY-MM-DDTHH:mm:ssZ */
  date: string;
  scale_template_id?: number;
}

/** The dates of a field's layer a reader sees: those with pixels over the field. */
export const listedDates = async (
  repository: Pick<ImageryRepository, 'dates'>,
  fieldId: number,
  layer: string = SENTINEL2,
): Promise<ImageryDate[]> => (await repository.dates(fieldId, layer)).filter((entry) => !entry.empty);

/** The operations of a layer: the satellite's, or the single one of a layer from a file or a sampling (its own name). */
export const operationsOf = (layer: string): Array<{ operation: string; name: string }> =>
  layer === SENTINEL2
    ? SATELLITE_OPERATIONS.map(({ operation, name }) => ({ operation, name }))
    : [{ operation: layer, name: layer }];

/** The readers: GET /api/layers/dates/v3 and GET /api/fields/ndvi. */
export function imageryReaders({
  repository,
  gate,
}: {
  repository: Pick<ImageryRepository, 'dates'>;
  gate: FieldGate;
}) {
  const listed = (fieldId: number) => listedDates(repository, fieldId);

  /**
   * GET /api/layers/dates/v3: the layers of a field with their operations and dates, newest first:
   * the satellite layer always, each layer made from a file or a sampling once it has a date.
   */
  async function dates(principal: Principal, fieldId: number) {
    await readableField(gate, principal, fieldId);
    const entries = (await repository.dates(fieldId)).filter((entry) => !entry.empty);
    entries.sort((a, b) => (a.datetime < b.datetime ? 1 : -1));
    const layers: Record<
      string,
      {
        operations: Array<{ operation: string; name: string }>;
        dates: Array<{ date: string; min: number; max: number; cloudy: boolean; metadata?: Record<string, unknown> }>;
      }
    > = {
      [SENTINEL2]: { operations: operationsOf(SENTINEL2), dates: [] },
    };
    for (const entry of entries) {
      const layer = (layers[entry.layer] ??= { operations: operationsOf(entry.layer), dates: [] });
      layer.dates.push({
        date: entry.datetime,
        min: entry.min,
        max: entry.max,
        cloudy: entry.cloudy,
        ...(entry.layer === SENTINEL2 ? {} : { metadata: entry.metadata }),
      });
    }
    return layers;
  }

  /** GET /api/fields/ndvi: mean NDVI per cloud-free date, oldest first, within the days asked. */
  async function ndviSeries(principal: Principal, fieldId: number, from?: string, to?: string) {
    if (from && to && from > to) throw new Invalid('date_from is after date_to');
    await readableField(gate, principal, fieldId);
    const entries = await listed(fieldId);
    return entries
      .filter(
        (entry) => !entry.cloudy && entry.mean !== null && (!from || entry.day >= from) && (!to || entry.day <= to),
      )
      .sort((a, b) => (a.day < b.day ? -1 : 1))
      .map((entry) => ({ date: entry.day, ndvi_mean: entry.mean as number }));
  }

  return { dates, ndviSeries };
}
