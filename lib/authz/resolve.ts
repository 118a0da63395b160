// A user's access to one farm, one field or another user, by the rules of lib/authz/grants.ts.
import { keys } from '../db/keys';
import { batchGet, itemKey } from '../db/table';
import type { Farm, Field, User } from '../platform/model';
import { type Access, accessFrom, type SupervisionLevel, type UserRelation } from './access';
import { farmGrants, fieldGrants, grantFacts } from './grants';

export async function fieldAccess(userId: number, field: Field): Promise<Access> {
  return accessFrom(
    fieldGrants(await grantFacts(userId, { ownerId: field.ownerId, farmId: field.farmId, fieldId: field.id })),
  );
}

export async function farmAccess(userId: number, farm: Farm): Promise<Access> {
  return accessFrom(farmGrants(await grantFacts(userId, { ownerId: farm.ownerId, farmId: farm.id })));
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
