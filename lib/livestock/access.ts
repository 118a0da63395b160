// Livestock access: the records of a field are read with read access to it and changed with
// "edit data" (110); a field the caller cannot read is answered as not found.
import { Forbidden, NotFound, type DomainError } from '../errors';
import { can } from '../authz/access';
import { fieldAccess } from '../authz/resolve';
import type { Principal } from '../auth/principal';
import type { Farm, Field } from '../platform/model';
import { getFarm, getField } from '../fields/repository';
import { LIVESTOCK_CODES } from './codes';

export interface FieldInScope {
  field: Field;
  farm: Farm;
}

export async function fieldFor(
  principal: Principal,
  fieldId: number,
  action: 'read' | 'write',
  notFound: () => DomainError = () => new NotFound(`field ${fieldId} not found`, { code: LIVESTOCK_CODES.FIELD_NOT_FOUND }),
): Promise<FieldInScope> {
  const field = await getField(fieldId);
  const access = field ? await fieldAccess(principal.user.id, field) : undefined;
  if (!field || !access || !can(access, 'read')) throw notFound();
  if (action === 'write' && !can(access, 'write')) {
    throw new Forbidden('the user cannot change livestock records of this field', { code: LIVESTOCK_CODES.PERMISSION_ERROR });
  }
  const farm = await getFarm(field.farmId);
  if (!farm) throw notFound();
  return { field, farm };
}
