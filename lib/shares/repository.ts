// Sharing a farm or a field with another user (POST /internal/shares). The grant is stored on the
// user's side (to list what it can reach) and on the record's side (to find every grant when the
// record is deleted), in one transaction. The user is told through FIELD_SHARE.V1.

import { keys } from '../db/keys';
import { EXISTS, getItem, transact, tx } from '../db/table';
import { Invalid, NotFound } from '../errors';
import { publishEvent } from '../events/publish';
import { FIELD_SHARE_EVENT } from '../notifications/catalogue';
import { INTERNAL_CODES } from '../platform/codes';
import type { Farm, Field, ShareLevel } from '../platform/model';
import { fieldIdsOfFarm, getFarm, getField, getFields } from '../platform/records';
import { requireUser } from '../platform/users';

export type ShareInput = { userId: number; level: ShareLevel } & ({ farmId: number } | { fieldId: number });

/**
 * Withdraws a share (DELETE /internal/shares): the user's grant and the record's reverse share, in
 * one transaction; NotFound when the user holds no such share. The change feed tells the user
 * (access_lost); its webhooks stop at the next delivery's check.
 */
export async function unshare(input: { userId: number } & ({ farmId: number } | { fieldId: number })): Promise<void> {
  const missing = () =>
    new NotFound(`user ${input.userId} holds no share of that ${'farmId' in input ? 'farm' : 'field'}`, {
      code: INTERNAL_CODES.NOT_FOUND,
    });
  // the owner's own grant of its farm is not a share
  const grant = await getItem(
    'farmId' in input
      ? keys.userFarmAccess(input.userId, input.farmId)
      : keys.userFieldAccess(input.userId, input.fieldId),
  );
  if (!grant || grant.level === 'owner') throw missing();
  await transact(
    'farmId' in input
      ? [
          tx.delete(keys.userFarmAccess(input.userId, input.farmId), EXISTS, missing),
          tx.delete(keys.farmShare(input.farmId, input.userId)),
        ]
      : [
          tx.delete(keys.userFieldAccess(input.userId, input.fieldId), EXISTS, missing),
          tx.delete(keys.fieldShare(input.fieldId, input.userId)),
        ],
  );
}

export async function share(input: ShareInput): Promise<void> {
  const user = await requireUser(input.userId);
  let farm: Farm | undefined;
  let fields: Field[];
  if ('farmId' in input) {
    farm = await getFarm(input.farmId);
    if (!farm) throw new NotFound(`farm ${input.farmId} does not exist`, { code: INTERNAL_CODES.NOT_FOUND });
    fields = [...(await getFields(await fieldIdsOfFarm(farm.id))).values()];
  } else {
    const field = await getField(input.fieldId);
    if (!field) throw new NotFound(`field ${input.fieldId} does not exist`, { code: INTERNAL_CODES.NOT_FOUND });
    farm = await getFarm(field.farmId);
    if (!farm) throw new NotFound(`field ${input.fieldId} has no farm`, { code: INTERNAL_CODES.NOT_FOUND });
    fields = [field];
  }
  if (farm.ownerId === user.id) {
    throw new Invalid('the user already owns this record', { code: INTERNAL_CODES.INVALID_RELATION });
  }
  const owner = await requireUser(farm.ownerId, 'owner');
  const now = new Date().toISOString();
  const grant = {
    kind: 'access',
    user_id: user.id,
    farm_id: farm.id,
    level: input.level,
    created_at: now,
  };
  const shareItem = { kind: 'share', user_id: user.id, level: input.level };
  if ('farmId' in input) {
    await transact([
      tx.put({ ...keys.userFarmAccess(user.id, farm.id), ...grant, target: 'farm' }),
      tx.put({ ...keys.farmShare(farm.id, user.id), ...shareItem }),
      tx.check(keys.farm(farm.id), EXISTS),
    ]);
  } else {
    await transact([
      tx.put({ ...keys.userFieldAccess(user.id, input.fieldId), ...grant, field_id: input.fieldId, target: 'field' }),
      tx.put({ ...keys.fieldShare(input.fieldId, user.id), ...shareItem }),
      tx.check(keys.field(input.fieldId), EXISTS),
    ]);
  }
  await publishEvent(FIELD_SHARE_EVENT, {
    user_ids: [user.id],
    payload: {
      fields: fields.map((field) => ({
        field_name: field.name,
        field_id: field.id,
        field_uuid: field.uuid,
        farm_id: farm.id,
        farm_uuid: farm.uuid,
        source_user_name: owner.userName,
      })),
    },
  });
}
