// Farms and fields in the main table (docs/data-model.md, "Farms and fields").
import { keys } from '../db/keys';
import { FARM_DELETING_FIELDS } from '../db/revision';
import { EXISTS, NOT_EXISTS, nextId, readItem, type TxOp, transact, tx } from '../db/table';
import { Farm, Field } from '../platform/model';
import { getFarm } from '../platform/records';
import { chargeOps } from './quota';
import { farmMadeMeanwhile, spaceQuotaExceeded, userQuotaExceeded } from './rules';
import type { FieldRepository } from './service';

// The readers of farms and fields live with the platform's records (lib/platform/records.ts), below
// every area that reads them (authorisation included); the fields area writes them.

/** The id of the caller's own farm with this name (case-insensitive), if any. */
export async function farmIdByName(ownerId: number, farmName: string): Promise<number | undefined> {
  return readItem(keys.userFarmName(ownerId, farmName), (item) => Number(item.farm_id));
}

// --- writes (the fields service, lib/fields/service.ts) ---------------------------------------------

/** A field with its farm (created with it when new), names, refs and the hectares it charges, in one transaction. */
export const dynamoFieldRepository: FieldRepository = {
  nextId: (sequence) => nextId(sequence),
  farmIdByName,
  farm: getFarm,
  async create({ field, farm, newFarm, charge }, nameTaken) {
    const ops: TxOp[] = [];
    if (!newFarm) ops.push(tx.check(keys.farm(farm.id), EXISTS));
    else {
      ops.push(
        tx.put({ ...keys.farm(farm.id), ...Farm.toItem(farm) }, NOT_EXISTS),
        tx.put({ ...keys.farmByUuid(farm.uuid), kind: 'farm_uuid', farm_id: farm.id }, NOT_EXISTS),
        // Another request created a farm with this name meanwhile: join it on the next attempt.
        tx.put(
          { ...keys.userFarmName(farm.ownerId, farm.name), kind: 'farm_name', farm_id: farm.id },
          NOT_EXISTS,
          farmMadeMeanwhile,
        ),
        tx.put({
          ...keys.userFarmAccess(farm.ownerId, farm.id),
          kind: 'access',
          target: 'farm',
          user_id: farm.ownerId,
          farm_id: farm.id,
          level: 'owner',
          created_at: farm.createdAt,
        }),
      );
    }
    ops.push(
      tx.put({ ...keys.field(field.id), ...Field.toItem(field) }, NOT_EXISTS),
      tx.put({ ...keys.farmField(farm.id, field.id), kind: 'farm_field', farm_id: farm.id, field_id: field.id }),
      tx.put({ ...keys.fieldByUuid(field.uuid), kind: 'field_uuid', field_id: field.id }, NOT_EXISTS),
      tx.put(
        { ...keys.farmFieldName(farm.id, field.name), kind: 'field_name', field_id: field.id },
        NOT_EXISTS,
        nameTaken,
      ),
      ...chargeOps(charge, { user: userQuotaExceeded, space: spaceQuotaExceeded }),
    );
    await transact(ops);
  },
  async remove(field, charge, notFound) {
    await transact([
      tx.delete(keys.field(field.id), EXISTS, notFound),
      tx.delete(keys.farmField(field.farmId, field.id)),
      tx.delete(keys.farmFieldName(field.farmId, field.name)),
      tx.delete(keys.fieldByUuid(field.uuid)),
      // until the clean-up has taken what hangs from the field out of the farm's indexes, the
      // farm's listings leave the field out (lib/authz/by-farm.ts; the clean-up's end takes it off)
      tx.bookkeeping(keys.farm(field.farmId), {
        expression: 'ADD #deleting :field',
        condition: EXISTS,
        names: { '#deleting': FARM_DELETING_FIELDS },
        values: { ':field': new Set([field.id]) },
      }),
      ...chargeOps(charge, { user: userQuotaExceeded, space: spaceQuotaExceeded }),
    ]);
  },
};
