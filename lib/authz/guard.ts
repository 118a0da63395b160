// The one guard of farms and fields: "load this field (or farm) for this action". A record that
// does not exist and a record the caller cannot read get the same answer (404 in the area's
// dialect), so existence is never revealed; a record it can read but not act on gets 403. Each
// area passes its own dialect's errors.
import type { Principal } from '../auth/principal';
import type { DomainError } from '../errors';
import type { Farm, Field } from '../platform/model';
import { getFarm, getField } from '../fields/repository';
import { can, type Access, type Action } from './access';
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
}

/** The field (by id, or already loaded), its farm and the caller's access, checked for `action`. */
export async function fieldFor(principal: Principal, fieldOrId: number | Field | undefined, action: Action, refuse: Refusals): Promise<FieldInScope> {
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

export async function farmFor(principal: Principal, farmOrId: number | Farm | undefined, action: Action, refuse: Refusals): Promise<FarmInScope> {
  const farm = typeof farmOrId === 'number' ? await getFarm(farmOrId) : farmOrId;
  if (!farm) throw refuse.notFound();
  const access = await farmAccess(principal.user.id, farm);
  if (!can(access, 'read')) throw refuse.notFound();
  if (!can(access, action)) throw refuse.forbidden();
  return { farm, access };
}
