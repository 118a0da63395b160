// Imagery in DynamoDB, S3 and SQS (docs/imagery.md, docs/data-model.md): a date entry per field,
// layer and day in the field's partition (so it goes with the field), its raster as one S3 object
// under imagery/, the field's pending run, and scene jobs on the imagery queue.

import { platformFieldGate } from '../authz/gate';
import { ifPresent, s3Kit } from '../aws/s3';
import { config } from '../config';
import { keys } from '../db/keys';
import {
  batchGet,
  deleteItem,
  EXISTS,
  getItem,
  itemKey,
  NOT_EXISTS,
  nextId,
  putItem,
  queryAll,
  readItem,
  updateItem,
} from '../db/table';
import { Conflict, NotFound } from '../errors';
import { publishEvents } from '../events/publish-batch';
import { log } from '../log';
import { getField } from '../platform/records';
import { shapeFor } from '../platform/shapes';
import { emitWebhookEvent } from '../webhooks/emit';
import { readBand, readBandOnGrids } from './cog';
import { imageryIngestion } from './ingest';
import { IMAGERY_FIELD_JOB, IMAGERY_SCENE_JOB, IMAGERY_TILE_JOB, IMAGERY_TILE_SCENE_JOB } from './jobs';
import { runLane } from './lanes';
import { type ScaleRepository, scaleTemplates } from './scale-templates';
import { ScaleTemplate } from './scales';
import {
  DAILY_RECENT_DAYS,
  ImageryDate,
  type ImageryRepository,
  imageryReaders,
  MAX_TILE_JOB_FIELDS,
  type SceneSource,
  type TileJob,
} from './service';
import { searchScenes } from './stac';
import { tileOf } from './tiles';

/** A field's dates of a layer (what the readers need: the only part of the repository they bundle). */
export const readDates = async (fieldId: number, layer?: string): Promise<ImageryDate[]> =>
  (await queryAll(keys.imageryDates(fieldId, layer))).map(ImageryDate.fromItem);

export const readRaster = async (objectKey: string): Promise<Uint8Array | undefined> => {
  const { s3, GetObjectCommand } = await s3Kit();
  const object = await ifPresent(s3().send(new GetObjectCommand({ Bucket: config().bucket, Key: objectKey })));
  return object?.Body ? object.Body.transformToByteArray() : undefined;
};

export const dynamoImageryRepository: ImageryRepository = {
  async fieldShape(fieldId, campaign) {
    const field = await getField(fieldId);
    return field ? (await shapeFor(field, campaign)).shape : undefined;
  },
  dates: readDates,
  date: (fieldId, layer, day) => readItem(keys.imageryDate(fieldId, layer, day), ImageryDate.fromItem),
  async store(fieldId, entry, raster, replaced) {
    const { s3, PutObjectCommand, DeleteObjectCommand } = await s3Kit();
    if (raster) {
      await s3().send(
        new PutObjectCommand({
          Bucket: config().bucket,
          Key: entry.objectKey,
          Body: raster,
          ContentType: 'application/octet-stream',
        }),
      );
    }
    await putItem({ ...keys.imageryDate(fieldId, entry.layer, entry.day), ...ImageryDate.toItem(entry) });
    // The raster of the date's previous shape, if any, is no longer referenced.
    const old = replaced?.objectKey;
    if (old && old !== entry.objectKey) await s3().send(new DeleteObjectCommand({ Bucket: config().bucket, Key: old }));
  },
  raster: readRaster,
  async startRun(fieldId, days, lockId) {
    await updateItem(keys.imageryRun(fieldId), {
      expression: `SET kind = :kind ADD pending :days${lockId ? ', lock_ids :lock' : ''}`,
      values: { ':kind': 'imagery_run', ':days': new Set(days), ...(lockId ? { ':lock': new Set([lockId]) } : {}) },
    });
  },
  async finishDay(fieldId, day) {
    const run = await updateItem(keys.imageryRun(fieldId), {
      expression: 'DELETE pending :day',
      condition: 'attribute_exists(pk)',
      values: { ':day': new Set([day]) },
    });
    const pending = run?.pending as Set<string> | undefined;
    if (pending?.size) return { empty: false };
    const locks = [...((run?.lock_ids as Set<string> | undefined) ?? [])];
    // The run is over: its item goes (a run started meanwhile re-creates it with its own days).
    await deleteItem(keys.imageryRun(fieldId), {
      expression: 'attribute_not_exists(pending) AND kind = :kind',
      values: { ':kind': 'imagery_run' },
    });
    return { empty: true, lockIds: locks };
  },
  async releaseLock(fieldId, lockId) {
    return deleteItem(keys.shapeLock(fieldId), { expression: 'lock_id = :id', values: { ':id': lockId } });
  },
  publishScenes: (jobs, purpose) => publishEvents(IMAGERY_SCENE_JOB, jobs, { queue: runLane(purpose === 'reshape') }),
  publishBackfill: (job) => publishEvents(IMAGERY_FIELD_JOB, [job], { queue: runLane(Boolean(job.lock_id)) }),
  publishTileScenes: (jobs) => publishEvents(IMAGERY_TILE_SCENE_JOB, jobs, { queue: 'imagery' }),
};

export const earthSearchSource: SceneSource = {
  search: (bounds, from, to) => searchScenes({ stacUrl: config().stacUrl, bounds, from, to }),
  readBand: (href, grid, epsg) => readBand(href, grid, { epsg }),
  readBands: (href, grids, epsg) => readBandOnGrids(href, grids, { epsg }),
};

// The imagery services of the functions; each function bundles only the one it calls.
export const imageryDates = /* @__PURE__ */ imageryReaders({
  repository: { dates: readDates },
  gate: platformFieldGate,
});
export const ingestion = /* @__PURE__ */ imageryIngestion({
  repository: dynamoImageryRepository,
  source: earthSearchSource,
  settings: () => ({ periodDays: config().imageryDays }),
  emit: emitWebhookEvent,
});

const FIELD_READ_BATCH = 100;

/**
 * The daily schedule (docs/imagery.md, "Tiles"): the fields grouped by their Sentinel-2 tile, a tile
 * job per tile (at most MAX_TILE_JOB_FIELDS fields each) looking DAILY_RECENT_DAYS back: one catalogue
 * search for all its fields. Fields are found by id, from 1 to the field counter, 100 per read.
 */
export async function queueEveryField(): Promise<{ fields: number; tiles: number }> {
  const last = Number((await getItem(keys.counter('field')))?.value ?? 0);
  const byTile = new Map<string, Array<{ id: number; west: number; north: number }>>();
  let fields = 0;
  for (let first = 1; first <= last; first += FIELD_READ_BATCH) {
    const ids = Array.from({ length: Math.min(FIELD_READ_BATCH, last - first + 1) }, (_, i) => first + i);
    const found = await batchGet(ids.map((id) => keys.field(id)));
    for (const id of ids) {
      const bounds = found.get(itemKey(keys.field(id)))?.bounds as [number, number, number, number] | undefined;
      if (!bounds) continue;
      const tile = await tileOf(bounds);
      let members = byTile.get(tile);
      if (!members) byTile.set(tile, (members = []));
      members.push({ id, west: bounds[0], north: bounds[3] });
      fields++;
    }
  }
  const jobs: TileJob[] = [];
  for (const [tile, members] of byTile) {
    // north to south in 0.1 degree rows, west to east: a job's fields lie together
    members.sort((a, b) => Math.floor(b.north * 10) - Math.floor(a.north * 10) || a.west - b.west);
    for (let i = 0; i < members.length; i += MAX_TILE_JOB_FIELDS) {
      const ids = members.slice(i, i + MAX_TILE_JOB_FIELDS).map((member) => member.id);
      jobs.push({ tile, field_ids: ids, recent_days: DAILY_RECENT_DAYS });
    }
  }
  await publishEvents(IMAGERY_TILE_JOB, jobs, { queue: 'imagery' });
  log.info('daily imagery: tile jobs queued', { fields, tiles: byTile.size, jobs: jobs.length });
  return { fields, tiles: byTile.size };
}

// --- scale templates: in the owner's partition ------------------------------------------------

const scaleItem = (t: ScaleTemplate) => ({ ...keys.scaleTemplate(t.ownerId, t.id), ...ScaleTemplate.toItem(t) });

export const dynamoScaleRepository: ScaleRepository = {
  list: async (ownerId) => (await queryAll(keys.scaleTemplates(ownerId))).map(ScaleTemplate.fromItem),
  get: (ownerId, id) => readItem(keys.scaleTemplate(ownerId, id), ScaleTemplate.fromItem),
  nextId: () => nextId('scale_template'),
  put: (template, isNew) =>
    putItem(scaleItem(template), {
      expression: isNew ? NOT_EXISTS : EXISTS,
      failure: () =>
        isNew ? new Conflict('scale template id taken') : new NotFound(`scale template ${template.id} not found`),
    }),
  remove: (ownerId, id) =>
    deleteItem(keys.scaleTemplate(ownerId, id), {
      expression: 'attribute_exists(pk) AND kind = :kind',
      values: { ':kind': 'scale_template' },
    }),
};

export const scales = /* @__PURE__ */ scaleTemplates({ repository: dynamoScaleRepository });
