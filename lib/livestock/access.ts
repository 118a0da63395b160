// Livestock access: the records of a field are read with read access to it and changed with
// "edit data" (110); a field the caller cannot read is answered as not found (lib/authz/guard.ts).
import { Forbidden, NotFound, type DomainError } from '../errors';
import { fieldFor as guardField, type FieldInScope } from '../authz/guard';
import type { Principal } from '../auth/principal';
import { LIVESTOCK_CODES } from './codes';

export type { FieldInScope };

export function fieldFor(
  principal: Principal,
  fieldId: number,
  action: 'read' | 'write',
  notFound: () => DomainError = () => new NotFound(`field ${fieldId} not found`, { code: LIVESTOCK_CODES.FIELD_NOT_FOUND }),
): Promise<FieldInScope> {
  return guardField(principal, fieldId, action, {
    notFound,
    forbidden: () => new Forbidden('the user cannot change livestock records of this field', { code: LIVESTOCK_CODES.PERMISSION_ERROR }),
  });
}
