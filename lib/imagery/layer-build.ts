// The layer job (docs/imagery.md, "Layers from files"): each column of the source table interpolated
// (kriging or inverse distance) or rasterized onto the field's 10 m grid and stored as a dated
// layer, which dates v3 lists and /api/geoserver/v2 renders like a satellite date. The imagery
// worker's part only: the API functions do not bundle the interpolation.
import { geometryKit } from '../geo/geometry';
import { log } from '../log';
import type { WebhookEmitter } from '../webhooks/emit';
import { transformer } from './crs';
import { fieldGrid, fieldMask, ringsOfWkt } from './field-grid';
import { type Grid, projectRings, rasterize } from './grid';
import { gridFits, gridSize } from './grid-bound';
import { averageByCell, estimatorFor, interpolateGrid, type Variogram } from './kriging';
import type { LayerTable } from './layer-table';
import { encodeLayer } from './raster';
import { type ImageryDate, rasterKey, shapeVersion } from './service';
import type { LayerJob, LayerSpec, UserLayerRepository } from './user-layers';

export function layerBuilder({
  repository,
  emit,
}: {
  repository: Pick<UserLayerRepository, 'fieldShape' | 'table' | 'date' | 'store'>;
  emit?: WebhookEmitter;
}) {
  /** The worker: makes each layer of the job on the field's grid and stores it (idempotent: same keys, same values). */
  async function build(job: LayerJob): Promise<ImageryDate[]> {
    const shape = await repository.fieldShape(job.field_id);
    const table = shape ? await repository.table(job.source_key) : undefined;
    if (!shape || !table) return []; // the field was deleted, or the upload expired: nothing to make
    const version = shapeVersion(shape.polygon);
    const geometry = await geometryKit();
    const grid = await fieldGrid(geometry, shape.polygon);
    if (!gridFits(grid)) {
      // a field stored before the bound (docs/decisions.md, Bounds): no layer is made on it
      log.warn('imagery grid over its bound: layer not made', { fieldId: job.field_id, ...gridSize(grid) });
      return [];
    }
    const rings = ringsOfWkt(geometry, shape.polygon);
    const mask = await fieldMask(rings, grid);
    const day = job.datetime.slice(0, 10);
    const made: ImageryDate[] = [];
    for (const spec of job.layers) {
      const layer = await layerValues(table, spec, grid, mask);
      if (!layer) continue;
      const { values, method, variogram } = layer;
      const figures = valueFigures(values);
      if (!figures) continue;
      const entry: ImageryDate = {
        layer: spec.layer_name,
        day,
        datetime: job.datetime,
        ...figures,
        cloudy: false,
        cloudShare: 0,
        sceneId: `${job.source}:${job.source_id}:${spec.column}`,
        shapeVersion: version,
        objectKey: rasterKey(job.field_id, spec.layer_name, day, version),
        empty: false,
        metadata: {
          id_layer: spec.id_layer,
          column: spec.column,
          numerador_media: spec.meta.numerador_media ?? null,
          denominador_media: spec.meta.denominador_media ?? null,
          source: job.source,
          interpolation: method,
          ...(variogram
            ? {
                variogram: {
                  model: variogram.model,
                  nugget: variogram.nugget,
                  partial_sill: variogram.partialSill,
                  range_m: variogram.range,
                },
              }
            : {}),
          ...(spec.mean !== null ? { mean_rescaled_to: spec.mean } : {}),
        },
      };
      const replaced = await repository.date(job.field_id, spec.layer_name, day);
      await repository.store(
        job.field_id,
        entry,
        encodeLayer({ grid, rings, shapeVersion: version, datetime: job.datetime, values }),
        replaced,
      );
      made.push(entry);
      await emit?.('IMAGERY_DATES.V1', {
        userIds: [],
        fieldId: job.field_id,
        data: { field_id: job.field_id, layer: spec.layer_name, date: job.datetime, source: job.source },
      });
    }
    return made;
  }

  return { build };
}

/** min, max and mean of the finite values; undefined when there is none. */
function valueFigures(values: Float32Array): { min: number; max: number; mean: number } | undefined {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
    n += 1;
  }
  return n ? { min, max, mean: sum / n } : undefined;
}

/**
 * One column on the grid, inside the field: points interpolated (kriging or inverse distance, after
 * averaging per cell), polygons painted with their value (later features over earlier), values
 * outside the bounds dropped first; then rescaled to the asked mean.
 */
export async function layerValues(
  table: LayerTable,
  spec: LayerSpec,
  grid: Grid,
  mask: Uint8Array,
): Promise<{ values: Float32Array; method: string; variogram?: Variogram } | undefined> {
  const column = table.columns.indexOf(spec.column);
  if (column < 0) return undefined;
  const within = (v: number | null | undefined): v is number =>
    v !== null && v !== undefined && (spec.min === null || v >= spec.min) && (spec.max === null || v <= spec.max);
  const features = table.features.filter((f) => within(f.values[column]));
  const toGrid = await transformer(4326, grid.epsg);
  let values: Float32Array = new Float32Array(grid.width * grid.height).fill(NaN);
  let method = 'polygons';
  let variogram: Variogram | undefined;
  const points = features
    .filter((f) => f.point)
    .map((f) => {
      const [x, y] = toGrid(f.point!);
      return { x, y, value: f.values[column]! };
    });
  if (points.length) {
    const cells = averageByCell(points, grid);
    if (cells.length) {
      const estimator = estimatorFor(cells, spec.interpolation === 'kriging' ? 'kriging' : 'idw');
      values = interpolateGrid(estimator.estimate, grid, mask);
      // kriging weights may be negative: estimates are kept within the values interpolated (and so within the bounds)
      const low = cells.reduce((m, c) => Math.min(m, c.value), Infinity);
      const high = cells.reduce((m, c) => Math.max(m, c.value), -Infinity);
      for (let i = 0; i < values.length; i++)
        if (!Number.isNaN(values[i]!)) values[i] = Math.min(high, Math.max(low, values[i]!));
      method = estimator.method;
      variogram = estimator.variogram;
    }
  }
  for (const feature of features) {
    if (!feature.polygon) continue;
    const covered = rasterize(projectRings(feature.polygon.flat(), toGrid), grid);
    const value = feature.values[column]!;
    for (let i = 0; i < covered.length; i++) if (covered[i] && mask[i]) values[i] = value;
  }
  if (spec.mean !== null) {
    const figures = valueFigures(values);
    if (figures && figures.mean !== 0) {
      const factor = spec.mean / figures.mean;
      for (let i = 0; i < values.length; i++) values[i] = values[i]! * factor;
    }
  }
  return { values, method, ...(variogram ? { variogram } : {}) };
}
