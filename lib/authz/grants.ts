// The one grant reader: what gives a user access to a farm or a field (ownership, a farm share, a
// share of one field, supervision of the owner) and the rules that turn those facts into grants.
// Single checks read only the few items that concern one record (grantFacts); listings read all of
// a user's access items once (readUserGrants) and apply the same rules to every record.
import { keys } from '../db/keys';
import { batchGet, itemKey, queryAll } from '../db/table';
import { type Grant, type ShareLevel, type SupervisionLevel, supervisionGrant } from './access';

/** What concerns one user and one farm (and one of its fields). */
export interface GrantFacts {
  owner: boolean;
  /** `owner` or a share level, from the user's access item of the farm. */
  farmGrant?: Grant;
  fieldShare?: ShareLevel;
  /** The user supervises the record's owner. */
  supervision?: SupervisionLevel;
  /** The user has a share of some field of the farm. */
  sharedFieldInFarm?: boolean;
}

/** Grants over a field: ownership, a share of its farm or of itself, supervision of its owner. */
export function fieldGrants(facts: GrantFacts): Grant[] {
  if (facts.owner) return ['owner'];
  return [facts.farmGrant, facts.fieldShare, facts.supervision && supervisionGrant(facts.supervision)].filter(
    (g): g is Grant => Boolean(g),
  );
}

/**
 * Grants over a farm: those over its fields but a field share, and a share of one of its fields
 * lets the user see the farm (getfields lists the field under it): read, nothing more.
 */
export function farmGrants(facts: GrantFacts): Grant[] {
  const grants = fieldGrants({ ...facts, fieldShare: undefined });
  return grants.length === 0 && facts.sharedFieldInFarm ? ['read'] : grants;
}

interface Owned {
  ownerId: number;
  farmId: number;
  fieldId?: number;
}

/** The facts of one record, read with one batch (and, for a farm reached by no other way, one query). */
export async function grantFacts(userId: number, record: Owned): Promise<GrantFacts> {
  if (userId === record.ownerId) return { owner: true };
  const farmKey = keys.userFarmAccess(userId, record.farmId);
  const fieldKey = record.fieldId === undefined ? undefined : keys.userFieldAccess(userId, record.fieldId);
  const supervisionKey = keys.supervision(userId, record.ownerId);
  const found = await batchGet([farmKey, supervisionKey, ...(fieldKey ? [fieldKey] : [])]);
  const facts: GrantFacts = {
    owner: false,
    farmGrant: found.get(itemKey(farmKey))?.level as Grant | undefined,
    fieldShare: fieldKey ? (found.get(itemKey(fieldKey))?.level as ShareLevel | undefined) : undefined,
    supervision: found.get(itemKey(supervisionKey))?.permission as SupervisionLevel | undefined,
  };
  if (record.fieldId === undefined && !facts.farmGrant && !facts.supervision) {
    facts.sharedFieldInFarm = (await readUserGrants(userId)).sharedFieldFarms.has(record.farmId);
  }
  return facts;
}

/** All the access items of a user (listings). */
export interface UserGrants {
  userId: number;
  /** farm id -> `owner` or the share level of the farm */
  farms: Map<number, Grant>;
  /** field id -> its farm and the share level */
  fields: Map<number, { farmId: number; level: ShareLevel }>;
  /** farms with at least one shared field */
  sharedFieldFarms: Set<number>;
}

export async function readUserGrants(userId: number): Promise<UserGrants> {
  const grants: UserGrants = { userId, farms: new Map(), fields: new Map(), sharedFieldFarms: new Set() };
  for (const item of await queryAll(keys.userAccessPrefix(userId))) {
    if (item.target === 'farm') grants.farms.set(Number(item.farm_id), item.level as Grant);
    else {
      grants.fields.set(Number(item.field_id), { farmId: Number(item.farm_id), level: item.level as ShareLevel });
      grants.sharedFieldFarms.add(Number(item.farm_id));
    }
  }
  return grants;
}

/** The facts of a record from a user's loaded access items (supervision of its owner given by the caller). */
export function factsFrom(
  grants: UserGrants,
  record: { farmId: number; fieldId?: number },
  supervision?: SupervisionLevel,
): GrantFacts {
  if (grants.farms.get(record.farmId) === 'owner') return { owner: true };
  return {
    owner: false,
    farmGrant: grants.farms.get(record.farmId),
    fieldShare: record.fieldId === undefined ? undefined : grants.fields.get(record.fieldId)?.level,
    supervision,
    sharedFieldInFarm: grants.sharedFieldFarms.has(record.farmId),
  };
}
