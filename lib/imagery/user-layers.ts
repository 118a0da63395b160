// Layers from files and samplings (spec 2, "Creating a layer from a file"; spec 3, POST
// /api/sampling/<uuid>/rasterize; docs/imagery.md "Layers from files"). Step 1 reads an uploaded zip,
// finds the caller's field it lies on and keeps the features inside for a day (`redis_id`); step 2
// queues a layer job, which the imagery worker makes (layer-build.ts). Rules only: repository and
// gate are parameters.

import type { Principal } from '../auth/principal';
import { can } from '../authz/access';
import type { FieldGate, Refusals } from '../authz/gate';
import { as, type EntityOf, entity, num, str } from '../db/entity';
import { Forbidden, Invalid, NotFound } from '../errors';
import { boundsToWkt, formatNumber } from '../geo/bounds';
import { geometryKit } from '../geo/geometry';
import { newUuid } from '../util/uuid';
import { ringsOfWkt } from './field-grid';
import { containsPoint } from './grid';
import {
  type ColumnStats,
  columnStats,
  columnValues,
  featureBounds,
  type Histogram,
  histogramOf,
  type LayerFeature,
  type LayerTable,
  placeOf,
} from './layer-table';
import { LANDSAT, SENTINEL2 } from './layers';
import type { ImageryRepository } from './service';
import { layerTypes } from './types';

/** How long an upload is kept for step 2 (docs/imagery.md). */
export const UPLOAD_TTL_SECONDS = 24 * 3600;

export type LayerInterpolation = 'kriging' | 'idw' | 'polygons';

/** One layer to make: a column of the source's table as a layer type, at a date. */
export interface LayerSpec {
  column: string;
  id_layer: number;
  layer_name: string;
  /** Rescale so that the mean inside the field is this (yield calibration); null: as interpolated. */
  mean: number | null;
  /** Outlier bounds: values outside are dropped before interpolating. */
  min: number | null;
  max: number | null;
  meta: { numerador_media?: string | null; denominador_media?: string | null };
  interpolation: LayerInterpolation;
}

/** The layer job (imagery queue): the source table in S3 and the layers to make of it. */
export interface LayerJob {
  job_id: string;
  field_id: number;
  source: 'file' | 'sampling';
  source_id: string;
  source_key: string;
  /** YYYY-MM-DDTHH:mm:ssZ */
  datetime: string;
  layers: LayerSpec[];
}

/** A kept upload (step 1): the caller's, for one field, until `expiresAt` (epoch seconds; DynamoDB's TTL attribute). */
export const LayerUpload = entity('layer_upload', {
  id: str('upload_id'),
  ownerId: num('owner_id'),
  fieldId: num('field_id'),
  objectKey: str('object_key'),
  columns: as<string[]>('columns', []),
  expiresAt: num('ttl'),
});
export type LayerUpload = EntityOf<typeof LayerUpload>;

export interface UserLayerRepository extends Pick<ImageryRepository, 'fieldShape' | 'date' | 'store'> {
  /** Writes the table (S3), for uploads and sampling sources alike. */
  saveTable(objectKey: string, table: LayerTable): Promise<void>;
  table(objectKey: string): Promise<LayerTable | undefined>;
  saveUpload(upload: LayerUpload): Promise<void>;
  upload(ownerId: number, id: string): Promise<LayerUpload | undefined>;
  publishLayers(job: LayerJob): Promise<void>;
}

const uploadKey = (id: string) => `uploads/layers/${id}.json`;
export const sourceKey = (source: LayerJob['source'], id: string) => `uploads/layers/${source}-${id}.json`;

const SATELLITE = new Set([SENTINEL2, LANDSAT]);

/** The layer name of a layer type id made from files or samplings (satellite types are not). */
export function layerNameOf(idLayer: number): string {
  const name = layerTypes().find((type) => type.id === idLayer)?.nombre;
  if (!name || SATELLITE.has(name))
    throw new Invalid(
      `id_layer ${idLayer} is not a layer type a file can make (GET /api/layers/types; not ${[...SATELLITE].join(' or ')})`,
    );
  return name;
}

/** A layer name of the catalogue that files and samplings can make. */
export function checkLayerName(name: string): string {
  if (!layerTypes().some((type) => type.nombre === name) || SATELLITE.has(name))
    throw new Invalid(`layer_name ${name} is not a layer type a sampling can make (GET /api/layers/types)`);
  return name;
}

/** POST /files: the field the file lies on, with its columns and their figures; or where it lies when on none. */
export type UploadAnswer =
  | { not_found: true; lote: string }
  | {
      redis_id: string;
      lote_id: number;
      columns: string[];
      stats: Record<string, ColumnStats | null>;
      histograms: Record<string, Histogram | null>;
    };

/** The WKT of the features' extent: their bounding rectangle, or a point. */
function extentWkt(features: readonly LayerFeature[]): string {
  const [minX, minY, maxX, maxY] = featureBounds(features);
  if (minX === maxX && minY === maxY) return `POINT(${formatNumber(minX)} ${formatNumber(minY)})`;
  return boundsToWkt([minX, minY, maxX, maxY]);
}

const overlaps = (a: readonly number[], b: readonly number[]) =>
  a[0]! <= b[2]! && b[0]! <= a[2]! && a[1]! <= b[3]! && b[1]! <= a[3]!;

export function userLayers({
  repository,
  gate,
  now = () => new Date(),
}: {
  repository: UserLayerRepository;
  gate: FieldGate;
  now?: () => Date;
}) {
  const refusals: Refusals = {
    notFound: () => new NotFound('Field not found'),
    forbidden: () => new Forbidden('The user cannot add layers to this field'),
  };

  /**
   * POST /files: the field of the caller's (one it may add data to) holding most of the file's
   * features; the features inside are kept for a day and described by column.
   */
  async function upload(principal: Principal, table: LayerTable): Promise<UploadAnswer> {
    const bounds = featureBounds(table.features);
    const places = table.features.map(placeOf);
    let best: { fieldId: number; inside: LayerFeature[] } | undefined;
    const writable = (await gate.readable(principal)).filter(({ access }) => can(access, 'write'));
    // the current shapes, read with the fields (a field's read again only when the gate did not)
    const shapes = await Promise.all(writable.map(({ field, shape }) => shape ?? gate.shape(field)));
    const geometry = await geometryKit();
    for (const [i, { field }] of writable.entries()) {
      const shape = shapes[i]!;
      if (!overlaps(shape.bounds, bounds)) continue;
      const rings = ringsOfWkt(geometry, shape.polygon);
      const inside = table.features.filter((_, i) => containsPoint(rings, places[i]!));
      if (
        inside.length &&
        (!best ||
          inside.length > best.inside.length ||
          (inside.length === best.inside.length && field.id < best.fieldId))
      ) {
        best = { fieldId: field.id, inside };
      }
    }
    if (!best) return { not_found: true, lote: extentWkt(table.features) };
    const id = newUuid().replace(/-/g, '');
    const kept: LayerTable = { columns: table.columns, features: best.inside };
    const objectKey = uploadKey(id);
    await repository.saveTable(objectKey, kept);
    await repository.saveUpload({
      id,
      ownerId: principal.user.id,
      fieldId: best.fieldId,
      objectKey,
      columns: kept.columns,
      expiresAt: Math.floor(now().getTime() / 1000) + UPLOAD_TTL_SECONDS,
    });
    const stats: Record<string, ColumnStats | null> = {};
    const histograms: Record<string, Histogram | null> = {};
    kept.columns.forEach((column, i) => {
      const values = columnValues(kept, i);
      stats[column] = columnStats(values);
      histograms[column] = histogramOf(values);
    });
    return { redis_id: id, lote_id: best.fieldId, columns: kept.columns, stats, histograms };
  }

  /** Whether a point of the table holds a value of the spec's column within its bounds. */
  const hasPointValues = (table: LayerTable, spec: LayerSpec): boolean => {
    const column = table.columns.indexOf(spec.column);
    return table.features.some((f) => {
      const v = f.values[column];
      return (
        f.point !== undefined &&
        typeof v === 'number' &&
        (spec.min === null || v >= spec.min) &&
        (spec.max === null || v <= spec.max)
      );
    });
  };

  /** Each layer's column has numbers within its bounds; the bounds are ordered; one layer per layer type. */
  function checkSpecs(table: LayerTable, specs: readonly LayerSpec[]): void {
    const names = new Set<string>();
    for (const spec of specs) {
      if (names.has(spec.layer_name))
        throw new Invalid(`two columns make the layer ${spec.layer_name} of the same date`);
      names.add(spec.layer_name);
      const column = table.columns.indexOf(spec.column);
      if (column < 0)
        throw new Invalid(`${spec.column} is not a numeric column of the file (${table.columns.join(', ')})`);
      if (spec.min !== null && spec.max !== null && spec.min > spec.max)
        throw new Invalid(`min is greater than max for ${spec.column}`);
      if (
        !columnValues(table, column).some(
          (v) => (spec.min === null || v >= spec.min) && (spec.max === null || v <= spec.max),
        )
      ) {
        throw new Invalid(`${spec.column} has no value within its bounds`);
      }
    }
  }

  /** Saves a source table and queues its layer job; answers what will be made. */
  async function queue(
    fieldId: number,
    source: LayerJob['source'],
    sourceId: string,
    key: string,
    datetime: string,
    specs: LayerSpec[],
  ) {
    const job: LayerJob = {
      job_id: newUuid(),
      field_id: fieldId,
      source,
      source_id: sourceId,
      source_key: key,
      datetime,
      layers: specs,
    };
    await repository.publishLayers(job);
    return {
      job_id: job.job_id,
      field_id: fieldId,
      layers: specs.map((spec) => ({
        column: spec.column,
        id_layer: spec.id_layer,
        layer_name: spec.layer_name,
        operation: spec.layer_name,
        date: datetime,
        interpolation: spec.interpolation,
      })),
    };
  }

  /** POST /raster: the layers of an upload, queued (the worker makes them). */
  async function fromUpload(
    principal: Principal,
    request: { redis_id: string; lote_id: number; datetime: string; layers: Omit<LayerSpec, 'layer_name'>[] },
  ) {
    const kept = await repository.upload(principal.user.id, request.redis_id);
    if (!kept || kept.expiresAt * 1000 <= now().getTime())
      throw new NotFound(`no upload ${request.redis_id} (uploads are kept ${UPLOAD_TTL_SECONDS / 3600} hours)`);
    await gate.field(principal, request.lote_id, 'write', refusals);
    if (kept.fieldId !== request.lote_id)
      throw new Invalid(`the upload ${request.redis_id} lies on field ${kept.fieldId}, not ${request.lote_id}`);
    const table = await repository.table(kept.objectKey);
    if (!table) throw new NotFound(`no upload ${request.redis_id}`);
    const specs = request.layers.map((layer) => ({ ...layer, layer_name: layerNameOf(layer.id_layer) }));
    checkSpecs(table, specs);
    // what the worker will do (lib/imagery/layer-build.ts): points are interpolated as asked; a
    // column whose values lie only on polygons (a zone shapefile) is painted zone by zone
    const interpolated = specs.map((spec) => ({
      ...spec,
      interpolation: hasPointValues(table, spec) ? spec.interpolation : ('polygons' as const),
    }));
    return queue(kept.fieldId, 'file', kept.id, kept.objectKey, request.datetime, interpolated);
  }

  /** A sampling's layers: its table saved as a source, then queued like an upload's. */
  async function fromTable(fieldId: number, sourceId: string, table: LayerTable, datetime: string, specs: LayerSpec[]) {
    checkSpecs(table, specs);
    const key = sourceKey('sampling', `${sourceId}-${newUuid()}`);
    await repository.saveTable(key, table);
    return queue(fieldId, 'sampling', sourceId, key, datetime, specs);
  }

  return { upload, fromUpload, fromTable };
}

export type UserLayers = ReturnType<typeof userLayers>;
