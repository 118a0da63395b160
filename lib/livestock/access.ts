// Livestock access: the records of a field are read with read access to it and changed with
// "edit data" (110); a field the caller cannot read is answered as not found (lib/authz/guard.ts).
// Paddock and herd uuids name records within their field (docs/decisions.md, "Client uuids").
import { Forbidden, NotFound, type DomainError } from '../errors';
import { fieldAmong, fieldFor as guardField, readableAmong, type FieldInScope } from '../authz/guard';
import { queryAll } from '../db/table';
import type { Principal } from '../auth/principal';
import { LIVESTOCK_CODES } from './codes';

export type { FieldInScope };

const forbidden = () => new Forbidden('the user cannot change livestock records of this field', { code: LIVESTOCK_CODES.PERMISSION_ERROR });

export function fieldFor(
  principal: Principal,
  fieldId: number,
  action: 'read' | 'write',
  notFound: () => DomainError = () => new NotFound(`field ${fieldId} not found`, { code: LIVESTOCK_CODES.FIELD_NOT_FOUND }),
): Promise<FieldInScope> {
  return guardField(principal, fieldId, action, { notFound, forbidden });
}

/** The field, among those whose record carries a uuid (`refs`: its refs partition), that the caller may act on. */
export async function fieldOfRefs(principal: Principal, refs: { pk: string; skPrefix: string }, action: 'read' | 'write', notFound: () => DomainError): Promise<FieldInScope> {
  const items = await queryAll(refs);
  return fieldAmong(principal, items.map((r) => Number(r.field_id)), action, { notFound, forbidden });
}

/** Whether the caller can read a record of that uuid in a field other than `fieldId` (an idempotent create then conflicts). */
export async function readableElsewhere(principal: Principal, refs: { pk: string; skPrefix: string }, fieldId: number): Promise<boolean> {
  return readableAmong(principal, (await queryAll(refs)).map((r) => Number(r.field_id)).filter((id) => id !== fieldId));
}
