// Reads what the access rules of lib/authz/access.ts need: a user's grants over one farm, one
// field or another user.
import { keys } from '../db/keys';
import { batchGet, itemKey, queryAll } from '../db/table';
import type { Farm, Field, User } from '../platform/model';
import { accessFrom, supervisionGrant, type Access, type Grant, type SupervisionLevel, type UserRelation } from './access';

async function grantsOver(userId: number, ownerId: number, farmId: number, fieldId?: number): Promise<Grant[]> {
  if (userId === ownerId) return ['owner'];
  const farmKey = keys.userFarmAccess(userId, farmId);
  const fieldKey = fieldId === undefined ? undefined : keys.userFieldAccess(userId, fieldId);
  const supervisionKey = keys.supervision(userId, ownerId);
  const found = await batchGet([farmKey, supervisionKey, ...(fieldKey ? [fieldKey] : [])]);
  const grants: Grant[] = [];
  const farmShare = found.get(itemKey(farmKey));
  if (farmShare) grants.push(farmShare.level as Grant);
  const fieldShare = fieldKey && found.get(itemKey(fieldKey));
  if (fieldShare) grants.push(fieldShare.level as Grant);
  const supervision = found.get(itemKey(supervisionKey));
  if (supervision) grants.push(supervisionGrant(supervision.permission as SupervisionLevel));
  return grants;
}

export async function fieldAccess(userId: number, field: Field): Promise<Access> {
  return accessFrom(await grantsOver(userId, field.ownerId, field.farmId, field.id));
}

/**
 * A user's access to a farm. Besides ownership, farm shares and supervision, a share on one of
 * its fields lets the user see the farm (getfields lists it under that farm): read, nothing more.
 */
export async function farmAccess(userId: number, farm: Farm): Promise<Access> {
  const grants = await grantsOver(userId, farm.ownerId, farm.id);
  if (grants.length === 0 && (await farmsOfSharedFields(userId)).has(farm.id)) grants.push('read');
  return accessFrom(grants);
}

async function farmsOfSharedFields(userId: number): Promise<Set<number>> {
  const { pk, skPrefix } = keys.userAccessPrefix(userId);
  const items = await queryAll({ pk, skPrefix });
  return new Set(items.filter((item) => item.target === 'field').map((item) => Number(item.farm_id)));
}

/** How the caller relates to a user, for the users scope of extension storage. */
export async function relationsTo(caller: User, target: User): Promise<UserRelation[]> {
  if (caller.id === target.id) return ['self'];
  const relations: UserRelation[] = [];
  const spaceKey = keys.space(target.spaceId);
  const supervisionKey = keys.supervision(caller.id, target.id);
  const found = await batchGet([spaceKey, supervisionKey]);
  if (Number(found.get(itemKey(spaceKey))?.admin_user_id) === caller.id) relations.push('space_admin');
  const supervision = found.get(itemKey(supervisionKey));
  if (supervision) relations.push(`supervisor_${supervision.permission as SupervisionLevel}`);
  return relations;
}
