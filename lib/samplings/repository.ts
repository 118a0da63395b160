// Samplings in DynamoDB (docs/data-model.md): a sampling in its field's partition (deleted with
// it), a ref finds it by uuid.

import type { Principal } from '../auth/principal';
import { platformFieldGate } from '../authz/gate';
import { BACKFILLS, backfilled } from '../db/backfills';
import { keys } from '../db/keys';
import { NOT_EXISTS, queryAll, readItem, transact, tx, updateItem } from '../db/table';
import { Conflict } from '../errors';
import { layers } from '../imagery/layers-repository';
import { zonesOf } from '../maps/model';
import { dynamoMapRepository } from '../maps/repository';
import { getField } from '../platform/records';
import { spotLists } from '../spots/repository';
import { Sampling } from './model';
import { samplingRasterizer } from './rasterize';
import { type SamplingRepository, samplingsService } from './service';

export const dynamoSamplingRepository: SamplingRepository = {
  async fieldOf(uuid) {
    return readItem(keys.samplingRef(uuid), (ref) => Number(ref.field_id));
  },
  async sampling(fieldId, uuid) {
    return readItem(keys.sampling(fieldId, uuid), Sampling.fromItem);
  },
  async samplingsOf(fieldId) {
    return (await queryAll(keys.samplingsOfField(fieldId))).map(Sampling.fromItem);
  },
  async samplingsOfFarm(farmId, fieldId) {
    return (await queryAll(keys.samplingsOfFarm(farmId, fieldId))).map(Sampling.fromItem);
  },
  byFarm: () => backfilled(BACKFILLS.samplingsByFarm),
  async create(sampling) {
    const taken = () => new Conflict(`sampling ${sampling.uuid} exists`);
    try {
      await transact([
        tx.put({ ...keys.sampling(sampling.fieldId, sampling.uuid), ...Sampling.toItem(sampling) }, NOT_EXISTS, taken),
        tx.put(
          { ...keys.samplingRef(sampling.uuid), kind: 'sampling_ref', field_id: sampling.fieldId },
          NOT_EXISTS,
          taken,
        ),
      ]);
      return true;
    } catch (error) {
      if (error instanceof Conflict) return false;
      throw error;
    }
  },
  async setClosed(sampling, closedAt) {
    await updateItem(keys.sampling(sampling.fieldId, sampling.uuid), {
      expression: 'SET closed_at = :at',
      condition: 'attribute_exists(pk)',
      values: { ':at': closedAt },
    });
  },
};

/** What points to a sampling from outside its field's partition (lib/samplings/field-deleted.ts). */
export const samplingPointers = (item: Record<string, unknown>) => [keys.samplingRef(String(item.sampling_uuid))];

/** The samples of a sample set: its spots, as the caller reads them. */
const samplesOf = async (principal: Principal, fieldId: number, sampleSetUuid: string) =>
  (await spotLists.listSpots(principal, { fieldId, sampleSetUuid }, { page: 0, pageSize: -1 })).spots;

/** The samplings service of the functions: DynamoDB, the platform's gate and fields, and the spots service for samples. */
export const samplings = /* @__PURE__ */ samplingsService({
  repository: dynamoSamplingRepository,
  fields: platformFieldGate,
  fieldById: getField,
  samplesOf,
});

type Position = [number, number];

/** POST /api/sampling/<uuid>/rasterize: the samples, the map's polygons and the imagery layer queue. */
export const samplingLayers = /* @__PURE__ */ samplingRasterizer({
  repository: dynamoSamplingRepository,
  fields: platformFieldGate,
  samplesOf,
  mapPolygons: async (fieldId, mapId) => {
    const map = await dynamoMapRepository.map(fieldId, mapId);
    return map ? (zonesOf(map.geojson) as Position[][][][]) : undefined;
  },
  layers,
});
