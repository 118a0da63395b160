// POST /api/agregarlote (spec 2, Fields): a field in an existing farm or in the caller's farm of
// a name (created when absent), with its hectares counted against the owner's and workspace quotas
// in the same transaction.
import { randomUUID } from 'node:crypto';
import { iso1A2Code } from '@rapideditor/country-coder';
import { config } from '../config';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { EXISTS, NOT_EXISTS, nextId, transact, tx, type TxOp } from '../db/table';
import { Conflict, Forbidden } from '../errors';
import type { Principal } from '../auth/principal';
import { Field, Farm, User } from '../platform/model';
import { getSpace, getUser } from '../platform/users';
import { farmIdByName, getFarm } from './repository';
import { hectaresUpdate } from './quota';
import { FIELD_CODES, checkFarmName, checkFieldArea, checkFieldName, quotaCeiling, spaceQuotaExceeded, userQuotaExceeded } from './rules';
import { fieldShapeFrom } from './shape';
import { farmFor } from '../authz/guard';

/** Internal marker of a lost race creating a farm by name; never reaches the wire. */

const today = () => new Date().toISOString().slice(0, 10);

function countryOf(centroidWkt: string): string | null {
  const match = /POINT\(([-\d.eE]+) ([-\d.eE]+)\)/.exec(centroidWkt);
  return match ? iso1A2Code([Number(match[1]), Number(match[2])]) : null;
}

/** The farm the field goes to: an existing farm the caller may add fields to, or one of its own by name. */
async function targetFarm(principal: Principal, input: CreateFieldInput): Promise<{ farm?: Farm; newFarmName?: string }> {
  if (input.farmId !== undefined) {
    const refuse = () => new Forbidden(`farm ${input.farmId} does not exist or the user cannot add fields to it`, { code: FIELD_CODES.USER_DATA });
    return { farm: (await farmFor(principal, input.farmId, 'addField', { notFound: refuse, forbidden: refuse })).farm };
  }
  const farmName = checkFarmName(input.farmName ?? '');
  const existingId = await farmIdByName(principal.user.id, farmName);
  if (existingId !== undefined) {
    const farm = await getFarm(existingId);
    if (farm) return { farm };
  }
  return { newFarmName: farmName };
}

export interface CreateFieldInput {
  name: string;
  shape: string;
  farmId?: number;
  farmName?: string;
}

export async function createField(principal: Principal, input: CreateFieldInput): Promise<{ fieldId: number; farmId: number }> {
  const name = checkFieldName(input.name);
  const shape = fieldShapeFrom(input.shape, today());
  checkFieldArea(shape.areaHa, config().maxFieldHectares);

  return retryLostRace(async () => {
    const { farm, newFarmName } = await targetFarm(principal, input);
    const owner: User | undefined = farm ? await getUser(farm.ownerId) : principal.user;
    if (!owner) throw new Forbidden('the owner of the farm no longer exists', { code: FIELD_CODES.USER_DATA });
    const space = await getSpace(owner.spaceId);
    if (!space) throw new Forbidden("the user's workspace does not exist", { code: FIELD_CODES.USER_DATA });
    const userCeiling = quotaCeiling(owner.hectareQuota, shape.areaHa, userQuotaExceeded);
    const spaceCeiling = quotaCeiling(space.hectareQuota, shape.areaHa, spaceQuotaExceeded);

    const fieldId = await nextId('field');
    const farmId = farm ? farm.id : await nextId('farm');
    const now = new Date().toISOString();
    const field: Field = {
      id: fieldId,
      uuid: randomUUID(),
      farmId,
      ownerId: owner.id,
      name,
      country: countryOf(shape.centroid),
      shape,
      shapeCampaigns: [],
      hectaresCharged: shape.areaHa,
      createdAt: now,
      createdBy: principal.user.id,
    };
    const ops: TxOp[] = [];
    if (farm) {
      ops.push(tx.check(keys.farm(farm.id), EXISTS));
    } else {
      const newFarm: Farm = { id: farmId, uuid: randomUUID(), name: newFarmName!, ownerId: owner.id, createdAt: now };
      ops.push(
        tx.put({ ...keys.farm(farmId), ...Farm.toItem(newFarm) }, NOT_EXISTS),
        tx.put({ ...keys.farmByUuid(newFarm.uuid), kind: 'farm_uuid', farm_id: farmId }, NOT_EXISTS),
        // Another request created a farm with this name meanwhile: join it on the next attempt.
        tx.put({ ...keys.userFarmName(owner.id, newFarm.name), kind: 'farm_name', farm_id: farmId }, NOT_EXISTS, () =>
          new LostRace('farm created concurrently'),
        ),
        tx.put({
          ...keys.userFarmAccess(owner.id, farmId),
          kind: 'access',
          target: 'farm',
          user_id: owner.id,
          farm_id: farmId,
          level: 'owner',
          created_at: now,
        }),
      );
    }
    ops.push(
      tx.put({ ...keys.field(fieldId), ...Field.toItem(field) }, NOT_EXISTS),
      tx.put({ ...keys.farmField(farmId, fieldId), kind: 'farm_field', farm_id: farmId, field_id: fieldId }),
      tx.put({ ...keys.fieldByUuid(field.uuid), kind: 'field_uuid', field_id: fieldId }, NOT_EXISTS),
      tx.put({ ...keys.farmFieldName(farmId, name), kind: 'field_name', field_id: fieldId }, NOT_EXISTS, () =>
        new Conflict(`a field named '${name}' already exists in the farm`, { code: FIELD_CODES.NAME_REPEATED }),
      ),
      hectaresUpdate(keys.user(owner.id), shape.areaHa, userCeiling, userQuotaExceeded),
      hectaresUpdate(keys.space(space.id), shape.areaHa, spaceCeiling, spaceQuotaExceeded),
    );
    await transact(ops);
    return { fieldId, farmId };
  });
}

