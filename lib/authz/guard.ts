// The one guard of farms and fields: "load this field (or farm) for this action". A record that
// does not exist and a record the caller cannot read get the same answer (404 in the area's
// dialect), so existence is never revealed; a record it can read but not act on gets 403. Each
// area passes its own dialect's errors.
import type { Principal } from '../auth/principal';
import type { DomainError } from '../errors';
import type { Farm, Field, FieldShape } from '../platform/model';
import { getFarm, getField } from '../platform/records';
import { type Access, type Action, can } from './access';
import { farmAccess, fieldAccess } from './resolve';

export interface Refusals {
  /** Absent, or not readable by the caller. */
  notFound: () => DomainError;
  /** Readable, but the action is not allowed. */
  forbidden: () => DomainError;
}

export interface FieldInScope {
  field: Field;
  farm: Farm;
  access: Access;
  /** The shape of its current campaign, when it was read with the field (the gate's `readable`). */
  shape?: FieldShape;
}

/** The field (by id, or already loaded), its farm and the caller's access, checked for `action`. */
export async function fieldFor(
  principal: Principal,
  fieldOrId: number | Field | undefined,
  action: Action,
  refuse: Refusals,
): Promise<FieldInScope> {
  const field = typeof fieldOrId === 'number' ? await getField(fieldOrId) : fieldOrId;
  if (!field) throw refuse.notFound();
  const [access, farm] = await Promise.all([fieldAccess(principal.user.id, field), getFarm(field.farmId)]);
  if (!farm || !can(access, 'read')) throw refuse.notFound();
  if (!can(access, action)) throw refuse.forbidden();
  return { field, farm, access };
}

export interface FarmInScope {
  farm: Farm;
  access: Access;
}

export async function farmFor(
  principal: Principal,
  farmOrId: number | Farm | undefined,
  action: Action,
  refuse: Refusals,
): Promise<FarmInScope> {
  const farm = typeof farmOrId === 'number' ? await getFarm(farmOrId) : farmOrId;
  if (!farm) throw refuse.notFound();
  const access = await farmAccess(principal.user.id, farm);
  if (!can(access, 'read')) throw refuse.notFound();
  if (!can(access, action)) throw refuse.forbidden();
  return { farm, access };
}

/**
 * Among the fields of the records one client uuid names (a uuid names a record within its scope,
 * docs/decisions.md "Client uuids"), the first (by id) the caller may act on: `forbidden` when it
 * can only read them, `notFound` when it reads none, exactly as for a uuid that names nothing.
 */
export async function fieldAmong(
  principal: Principal,
  fieldIds: number[],
  action: Action,
  refuse: Refusals,
): Promise<FieldInScope> {
  let readOnly: FieldInScope | undefined;
  for (const fieldId of [...new Set(fieldIds)].sort((a, b) => a - b)) {
    const field = await getField(fieldId);
    if (!field) continue;
    const [access, farm] = await Promise.all([fieldAccess(principal.user.id, field), getFarm(field.farmId)]);
    if (!farm || !can(access, 'read')) continue;
    if (can(access, action)) return { field, farm, access };
    readOnly ??= { field, farm, access };
  }
  if (readOnly) throw refuse.forbidden();
  throw refuse.notFound();
}

/** Whether the caller can read one of these fields (a uuid it sends names a record it can see there). */
export async function readableAmong(principal: Principal, fieldIds: number[]): Promise<boolean> {
  for (const fieldId of new Set(fieldIds)) {
    const field = await getField(fieldId);
    if (field && can(await fieldAccess(principal.user.id, field), 'read')) return true;
  }
  return false;
}
