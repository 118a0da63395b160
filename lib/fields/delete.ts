// GET /api/borrarlotes (spec 2, Fields).
import { keys } from '../db/keys';
import { EXISTS, transact, tx, type TxOp } from '../db/table';
import { Forbidden, NotFound } from '../errors';
import { publishEvent } from '../events/publish';
import type { Principal } from '../auth/principal';
import type { Field } from '../platform/model';
import { getUser } from '../platform/users';
import { FIELD_DELETED_JOB } from './cleanup';
import { hectaresUpdate } from './quota';
import { FIELD_CODES, spaceQuotaExceeded, userQuotaExceeded } from './rules';
import { fieldFor } from '../authz/guard';

export const FIELD_DELETE_CODES = { NOT_FOUND: 1, NO_PERMISSION: FIELD_CODES.NO_PERMISSION } as const;

/**
 * Deletes the field, its name and its farm membership and gives its hectares back, in one
 * transaction; what else hangs from the field (shares, per-field data) is removed by the worker.
 */
export async function deleteField(principal: Principal, fieldId: number): Promise<Field> {
  const { field } = await fieldFor(principal, fieldId, 'deleteField', {
    notFound: () => new NotFound(`field ${fieldId} not found`, { code: FIELD_DELETE_CODES.NOT_FOUND }),
    forbidden: () => new Forbidden('the user lacks permission to delete this field', { code: FIELD_DELETE_CODES.NO_PERMISSION }),
  });
  const owner = await getUser(field.ownerId);
  const ops: TxOp[] = [
    tx.delete(keys.field(field.id), EXISTS, () => new NotFound(`field ${fieldId} not found`, { code: FIELD_DELETE_CODES.NOT_FOUND })),
    tx.delete(keys.farmField(field.farmId, field.id)),
    tx.delete(keys.farmFieldName(field.farmId, field.name)),
    tx.delete(keys.fieldByUuid(field.uuid)),
  ];
  if (owner) {
    ops.push(
      hectaresUpdate(keys.user(owner.id), -field.hectaresCharged, null, userQuotaExceeded),
      hectaresUpdate(keys.space(owner.spaceId), -field.hectaresCharged, null, spaceQuotaExceeded),
    );
  }
  await transact(ops);
  await publishEvent(FIELD_DELETED_JOB, { field_id: field.id, farm_id: field.farmId });
  return field;
}
