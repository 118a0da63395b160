// Rotations in DynamoDB (docs/data-model.md): each in its field's partition, with a ref by uuid
// (ROTATIONREF#, one per field holding the uuid); campaigns shared with labours.

import { platformFieldGate } from '../authz/gate';
import { crops } from '../crops/repository';
import { BACKFILLS, backfilled } from '../db/backfills';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import { NOT_EXISTS, putItem, queryAll, readItem, transact, tx } from '../db/table';
import { Conflict } from '../errors';
import { campaignOf } from '../fields/campaigns';
import { ROTATION_CODES } from './codes';
import { Rotation, type RotationRepository, rotationsService } from './service';

export const dynamoRotationRepository: RotationRepository = {
  async rotationsOf(fieldId) {
    return (await queryAll(keys.rotationsPrefix(fieldId))).map(Rotation.fromItem);
  },
  async rotationsIn(farmId, yeargroup, fieldId) {
    // one field's of every campaign: its partition; else the farm's index (gsi1), as narrow as asked
    const query =
      fieldId !== undefined && yeargroup === undefined
        ? keys.rotationsPrefix(fieldId)
        : keys.rotationsOfFarm(farmId, yeargroup, fieldId);
    return (await queryAll(query)).map(Rotation.fromItem);
  },
  indexed: () => backfilled(BACKFILLS.rotationsByFarm),
  async rotation(fieldId, uuid) {
    return readItem(keys.rotation(fieldId, uuid), Rotation.fromItem);
  },
  async rotationFields(uuid) {
    return (await queryAll(keys.rotationRefs(uuid))).map((r) => Number(r.field_id));
  },
  async create(rotation) {
    const taken = () => new Conflict(`rotation ${rotation.uuid} already exists`, { code: ROTATION_CODES.WRONG_FORMAT });
    await transact([
      tx.put({ ...keys.rotation(rotation.fieldId, rotation.uuid), ...Rotation.toItem(rotation) }, NOT_EXISTS, taken),
      tx.put(
        { ...keys.rotationRef(rotation.uuid, rotation.fieldId), kind: 'rotation_ref', field_id: rotation.fieldId },
        NOT_EXISTS,
        taken,
      ),
    ]);
  },
  async save(rotation) {
    await putItem(
      {
        ...keys.rotation(rotation.fieldId, rotation.uuid),
        ...Rotation.toItem({ ...rotation, version: rotation.version + 1 }),
      },
      {
        expression: 'version = :version',
        values: { ':version': rotation.version },
        failure: () => new LostRace('rotation changed meanwhile'),
      },
    );
  },
  campaignId: async (fieldId, yeargroup) => (await campaignOf(fieldId, yeargroup)).id,
};

/** The rotations service of the functions: DynamoDB, the platform's field access and the crop catalogue. */
export const rotations = /* @__PURE__ */ rotationsService({
  repository: dynamoRotationRepository,
  fields: platformFieldGate,
  crops: (userId, cropId) => crops.cropById(userId, cropId),
});
