// Finding a spot, a text or an image by the uuid a client sends. A client uuid names a record
// within its scope (docs/decisions.md, "Client uuids"), so one uuid may name records of several
// tenants: the lookup keeps the ones in fields the caller can read (in field order) and takes the
// first the caller may act on. Records the caller cannot read are never named nor hinted at: they
// get the same 404 as a uuid that names nothing.
import { keys } from '../db/keys';
import { getItem, queryAll, type Item } from '../db/table';
import { Forbidden, NotFound, type DomainError } from '../errors';
import { can } from '../authz/access';
import { fieldAmong, type FieldInScope } from '../authz/guard';
import type { Principal } from '../auth/principal';
import type { Farm, Field } from '../platform/model';
import { SPOT_CODES, Spot } from './model';

export interface SpotScope {
  spot: Spot;
  field: Field;
  farm: Farm;
  canWrite: boolean;
}

export type SpotAction = 'read' | 'write';

export const spotNotFound = (uuid: string) => new NotFound(`spot ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });
export const noPermission = () => new Forbidden('the user has no permission over the spot', { code: SPOT_CODES.NO_PERMISSION });

/** The first of `fieldIds` the caller may act on; 403 (12) when it can only read them, `notFound` when it reads none. */
export const reachableField = (principal: Principal, fieldIds: number[], action: SpotAction, notFound: () => DomainError): Promise<FieldInScope> =>
  fieldAmong(principal, fieldIds, action, { notFound, forbidden: noPermission });

const toScope = (spot: Spot, field: FieldInScope): SpotScope => ({ spot, field: field.field, farm: field.farm, canWrite: can(field.access, 'write') });

/** The spot `uuid` that the caller can reach (404 otherwise; 403, 12, when it can only read it and asks to write). */
export async function locateSpot(principal: Principal, uuid: string, action: SpotAction = 'read'): Promise<SpotScope> {
  const refs = await queryAll(keys.spotRefs(uuid));
  const field = await reachableField(principal, refs.map((r) => Number(r.field_id)), action, () => spotNotFound(uuid));
  const item = await getItem(keys.spot(field.field.id, uuid));
  if (!item) throw spotNotFound(uuid);
  return toScope(Spot.fromItem(item), field);
}

/** The spot with this numeric id, when the caller can reach it. */
async function spotById(spotId: number): Promise<Spot | undefined> {
  const where = await getItem(keys.spotById(spotId));
  const item = where ? await getItem(keys.spot(Number(where.field_id), String(where.uuid))) : undefined;
  return item ? Spot.fromItem(item) : undefined;
}

/**
 * A text or an image by its uuid (`refs`: its refs partition, one item per spot with `spot_id`):
 * the one in a spot the caller can reach, and the ref that led to it.
 */
export async function locateByRefs(
  principal: Principal,
  refs: { pk: string; skPrefix: string },
  action: SpotAction,
  notFound: () => DomainError,
): Promise<{ scope: SpotScope; ref: Item }> {
  const candidates: Array<{ spot: Spot; ref: Item }> = [];
  for (const ref of await queryAll(refs)) {
    const spot = await spotById(Number(ref.spot_id));
    if (spot) candidates.push({ spot, ref });
  }
  const field = await reachableField(principal, candidates.map((c) => c.spot.fieldId), action, notFound);
  const chosen = candidates.find((c) => c.spot.fieldId === field.field.id)!;
  return { scope: toScope(chosen.spot, field), ref: chosen.ref };
}
