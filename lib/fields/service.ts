// Fields and farms (spec 2, Fields): create a field in an existing or new farm, list what a user
// reaches grouped by farm (with supervised users), delete a field.
import { randomUUID } from 'node:crypto';
import { iso1A2Code } from '@rapideditor/country-coder';
import { config } from '../config';
import { keys } from '../db/keys';
import { EXISTS, NOT_EXISTS, nextId, transact, tx, type TxOp } from '../db/table';
import { Conflict, Forbidden, NotFound } from '../errors';
import { publishEvent } from '../events/publish';
import { accessFrom, can, supervisionGrant, type Access, type Grant } from '../authz/access';
import { farmAccess, fieldAccess } from '../authz/resolve';
import type { Principal } from '../auth/principal';
import { fieldToItem, farmToItem, type Farm, type Field, type User } from '../platform/model';
import { getSpace, getUser, getUsers, supervisionsOf } from '../platform/users';
import { FIELD_DELETED_JOB } from './cleanup';
import { accessItemsOf, farmIdByName, fieldIdsOfFarm, getFarm, getFarms, getField, getFields } from './repository';
import {
  FIELD_CODES,
  checkFarmName,
  checkFieldArea,
  checkFieldName,
  fieldShapeFrom,
  quotaCeiling,
  spaceQuotaExceeded,
  userQuotaExceeded,
} from './rules';

export interface CreateFieldInput {
  name: string;
  shape: string;
  farmId?: number;
  farmName?: string;
}

/** Internal marker of a lost race creating a farm by name; never reaches the wire. */
const FARM_RACE = 'FARM_RACE';

const today = () => new Date().toISOString().slice(0, 10);

function countryOf(centroidWkt: string): string | null {
  const match = /POINT\(([-\d.eE]+) ([-\d.eE]+)\)/.exec(centroidWkt);
  return match ? iso1A2Code([Number(match[1]), Number(match[2])]) : null;
}

/** The farm the field goes to: an existing farm the caller may add fields to, or one of its own by name. */
async function targetFarm(principal: Principal, input: CreateFieldInput): Promise<{ farm?: Farm; newFarmName?: string }> {
  if (input.farmId !== undefined) {
    const farm = await getFarm(input.farmId);
    if (!farm || !can(await farmAccess(principal.user.id, farm), 'addField')) {
      throw new Forbidden(`farm ${input.farmId} does not exist or the user cannot add fields to it`, {
        code: FIELD_CODES.USER_DATA,
      });
    }
    return { farm };
  }
  const farmName = checkFarmName(input.farmName ?? '');
  const existingId = await farmIdByName(principal.user.id, farmName);
  if (existingId !== undefined) {
    const farm = await getFarm(existingId);
    if (farm) return { farm };
  }
  return { newFarmName: farmName };
}

export async function createField(principal: Principal, input: CreateFieldInput): Promise<{ fieldId: number; farmId: number }> {
  const name = checkFieldName(input.name);
  const shape = fieldShapeFrom(input.shape, today());
  checkFieldArea(shape.areaHa, config().maxFieldHectares);

  for (let attempt = 0; ; attempt++) {
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
      createdAt: now,
      createdBy: principal.user.id,
    };
    const ops: TxOp[] = [];
    if (farm) {
      ops.push(tx.check(keys.farm(farm.id), EXISTS));
    } else {
      const newFarm: Farm = { id: farmId, uuid: randomUUID(), name: newFarmName!, ownerId: owner.id, createdAt: now };
      ops.push(
        tx.put({ ...keys.farm(farmId), ...farmToItem(newFarm) }, NOT_EXISTS),
        // Another request created a farm with this name meanwhile: join it on the next attempt.
        tx.put({ ...keys.userFarmName(owner.id, newFarm.name), kind: 'farm_name', farm_id: farmId }, NOT_EXISTS, () =>
          new Conflict('farm created concurrently', { code: FARM_RACE }),
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
      tx.put({ ...keys.field(fieldId), ...fieldToItem(field) }, NOT_EXISTS),
      tx.put({ ...keys.farmField(farmId, fieldId), kind: 'farm_field', farm_id: farmId, field_id: fieldId }),
      tx.put({ ...keys.farmFieldName(farmId, name), kind: 'field_name', field_id: fieldId }, NOT_EXISTS, () =>
        new Conflict(`a field named '${name}' already exists in the farm`, { code: FIELD_CODES.NAME_REPEATED }),
      ),
      hectaresUpdate(keys.user(owner.id), shape.areaHa, userCeiling, userQuotaExceeded),
      hectaresUpdate(keys.space(space.id), shape.areaHa, spaceCeiling, spaceQuotaExceeded),
    );
    try {
      await transact(ops);
      return { fieldId, farmId };
    } catch (error) {
      if (error instanceof Conflict && error.code === FARM_RACE && attempt < 2) continue;
      throw error;
    }
  }
}

/** Adds hectares to a user's or a space's consumption, refusing to go past the ceiling. */
function hectaresUpdate(key: { pk: string; sk: string }, deltaHa: number, ceiling: number | null, failure: () => Forbidden): TxOp {
  return tx.update(
    key,
    ceiling === null
      ? { expression: 'ADD hectares_used :delta', condition: EXISTS, values: { ':delta': deltaHa } }
      : {
          expression: 'ADD hectares_used :delta',
          condition: `${EXISTS} AND (attribute_not_exists(hectares_used) OR hectares_used <= :ceiling)`,
          values: { ':delta': deltaHa, ':ceiling': ceiling },
        },
    failure,
  );
}

// --- listing ------------------------------------------------------------------------------

export interface ListedField {
  field: Field;
  access: Access;
}

export interface ListedFarm {
  farm: Farm;
  access: Access;
  fields: ListedField[];
}

export interface FieldListing {
  user: User;
  farms: ListedFarm[];
  supervised: Array<{ user: User; farms: ListedFarm[] }>;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/** The farms a user reaches by ownership or shares, each with the fields it reaches in it. */
async function reachableFarms(userId: number, extraGrant?: Grant): Promise<ListedFarm[]> {
  const items = await accessItemsOf(userId);
  // A supervisor sees the supervised user's own farms only, with the supervision's grant.
  const farmGrants = new Map<number, Grant[]>();
  for (const [farmId, grant] of items.farms) {
    if (extraGrant && grant !== 'owner') continue;
    farmGrants.set(farmId, [extraGrant ?? grant]);
  }
  const fieldGrants = new Map<number, { farmId: number; grant: Grant }>();
  if (!extraGrant) {
    for (const [fieldId, share] of items.fields) fieldGrants.set(fieldId, { farmId: share.farmId, grant: share.level });
  }
  const farmIds = [...new Set([...farmGrants.keys(), ...[...fieldGrants.values()].map((g) => g.farmId)])];
  const farmFieldIds = await mapLimit([...farmGrants.keys()], 8, async (farmId) => [farmId, await fieldIdsOfFarm(farmId)] as const);
  const fieldIds = new Set<number>([...fieldGrants.keys(), ...farmFieldIds.flatMap(([, ids]) => ids)]);
  const [farms, fields] = await Promise.all([getFarms(farmIds), getFields([...fieldIds])]);

  const listed = new Map<number, ListedFarm>();
  for (const farmId of farmIds.sort((a, b) => a - b)) {
    const farm = farms.get(farmId);
    if (!farm) continue;
    const grants = farmGrants.get(farmId);
    // Reached only through shares of some of its fields: the farm itself is only visible.
    listed.set(farmId, { farm, access: accessFrom(grants ?? ['read']), fields: [] });
  }
  for (const field of [...fields.values()].sort((a, b) => a.id - b.id)) {
    const entry = listed.get(field.farmId);
    if (!entry) continue;
    const grants: Grant[] = [...(farmGrants.get(field.farmId) ?? [])];
    const own = fieldGrants.get(field.id);
    if (own) grants.push(own.grant);
    if (grants.length) entry.fields.push({ field, access: accessFrom(grants) });
  }
  return [...listed.values()];
}

export async function listFields(principal: Principal): Promise<FieldListing> {
  const [farms, supervisions] = await Promise.all([
    reachableFarms(principal.user.id),
    supervisionsOf(principal.user.id),
  ]);
  const users = await getUsers(supervisions.map((s) => s.userId));
  const supervised = await mapLimit(
    supervisions.filter((s) => users.has(s.userId)),
    4,
    async (s) => ({ user: users.get(s.userId)!, farms: await reachableFarms(s.userId, supervisionGrant(s.level)) }),
  );
  return { user: principal.user, farms, supervised };
}

// --- deletion -----------------------------------------------------------------------------

export const FIELD_DELETE_CODES = { NOT_FOUND: 1, NO_PERMISSION: FIELD_CODES.NO_PERMISSION } as const;

/**
 * Deletes the field, its name and its farm membership and gives its hectares back, in one
 * transaction; what else hangs from the field (shares, per-field data) is removed by the worker.
 */
export async function deleteField(principal: Principal, fieldId: number): Promise<Field> {
  const field = await getField(fieldId);
  const access = field ? await fieldAccess(principal.user.id, field) : undefined;
  if (!field || !access || !can(access, 'read')) {
    throw new NotFound(`field ${fieldId} not found`, { code: FIELD_DELETE_CODES.NOT_FOUND });
  }
  if (!can(access, 'deleteField')) {
    throw new Forbidden('the user lacks permission to delete this field', { code: FIELD_DELETE_CODES.NO_PERMISSION });
  }
  const owner = await getUser(field.ownerId);
  const ops: TxOp[] = [
    tx.delete(keys.field(field.id), EXISTS, () => new NotFound(`field ${fieldId} not found`, { code: FIELD_DELETE_CODES.NOT_FOUND })),
    tx.delete(keys.farmField(field.farmId, field.id)),
    tx.delete(keys.farmFieldName(field.farmId, field.name)),
  ];
  if (owner) {
    ops.push(
      hectaresUpdate(keys.user(owner.id), -field.shape.areaHa, null, userQuotaExceeded),
      hectaresUpdate(keys.space(owner.spaceId), -field.shape.areaHa, null, spaceQuotaExceeded),
    );
  }
  await transact(ops);
  await publishEvent(FIELD_DELETED_JOB, { field_id: field.id, farm_id: field.farmId });
  return field;
}
