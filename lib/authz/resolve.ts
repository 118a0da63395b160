// Reads what the access rules of lib/authz/access.ts need: a user's grants over one farm, one
// field or another user.
import { keys } from '../db/keys';
import { batchGet, itemKey } from '../db/table';
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

export async function farmAccess(userId: number, farm: Farm): Promise<Access> {
  return accessFrom(await grantsOver(userId, farm.ownerId, farm.id));
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
