// Sharing a farm or a field with another user (POST /internal/shares). The grant is stored on the
// user's side (to list what it can reach) and on the record's side (to find every grant when the
// record is deleted), in one transaction. The user is told through FIELD_SHARE.V1.

import { keys } from '../db/keys';
import { EXISTS, transact, tx } from '../db/table';
import { Invalid, NotFound } from '../errors';
import { publishEvent } from '../events/publish';
import { FIELD_SHARE_EVENT } from '../notifications/catalogue';
import { INTERNAL_CODES } from '../platform/codes';
import type { Farm, Field, ShareLevel } from '../platform/model';
import { fieldIdsOfFarm, getFarm, getField, getFields } from '../platform/records';
import { requireUser } from '../platform/users';

export type ShareInput = { userId: number; level: ShareLevel } & ({ farmId: number } | { fieldId: number });

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
