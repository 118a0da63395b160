// Extension storage scopes and their access rules (spec 3, "Scope access rules"), applied through
// lib/authz. Storage belongs to an extension: a token without one, or whose claimset lacks
// Storage, is an invalid extension version (code 4).

import type { Principal } from '../auth/principal';
import { type Access, type Action, can, canOnUser } from '../authz/access';
import { farmReach } from '../authz/by-farm';
import { platformFieldGate } from '../authz/gate';
import { accessibleFarms } from '../authz/reach';
import { farmAccess, fieldAccess, relationsTo } from '../authz/resolve';
import { keys } from '../db/keys';
import { Forbidden, Invalid } from '../errors';
import { getFarm, getFarmByUuid, getField, getFieldByUuid } from '../platform/records';
import { getUser, getUserByUid } from '../platform/users';
import { mapLimit } from '../util/map-limit';
import { STORAGE_CODES } from './codes';

export type Scope = 'users' | 'fields' | 'farms';
export type StorageAction = 'read' | 'write' | 'delete';
export const SCOPES: readonly Scope[] = ['users', 'fields', 'farms'];

export const KEY_PATTERN = /^\w+$/;
export const KEY_MAX_LENGTH = 200;
/** Keys per request (GET and DELETE). */
export const KEYS_MAX = 100;
/** Resource ids per GET. */
export const IDS_MAX = 100;
/** Largest file: 10 MB (spec 3, Limits). */
export const FILE_MAX_KB = 10 * 1024;

export const validKey = (key: string): boolean => key.length <= KEY_MAX_LENGTH && KEY_PATTERN.test(key);

/** Who stores: an extension (its version's claimset has the Storage permissions: the route checks) acting for a user. */
export interface StorageCaller {
  principal: Principal;
  extension: string;
}

/** Storage belongs to an extension: a user's own session has none to store for (code 4). */
export function storageCaller(principal: Principal): StorageCaller {
  if (!principal.extensionId) {
    throw new Forbidden('storage needs an extension version whose claimset has the Storage permissions', {
      code: STORAGE_CODES.INVALID_EXTENSION,
    });
  }
  return { principal, extension: principal.extensionId };
}

export type Verdict = 'allowed' | 'denied' | 'missing';

/** Every field a caller reads, by farm (`fieldsByFarm`). */
export interface FieldsByFarm {
  /** The farms it reads whole (every field it reads there), ascending. */
  wholeFarmIds: number[];
  /** The fields it reads in the other farms (shared alone), ascending. */
  singleFieldIds: number[];
  /** Whether it reads this field of this farm (false for a field being deleted). */
  reads(fieldId: number, farmId: number): boolean;
}

/**
 * What a storage action needs on a field or farm (docs/authorization.md): retrieving needs view
 * (100), creating and changing needs write data (110), deleting needs delete data (130).
 */
export const resourceAction = (action: StorageAction): Action =>
  action === 'read' ? 'read' : action === 'write' ? 'write' : 'deleteData';

/**
 * Whether `access` allows a storage action on a field or farm: the permission it needs, and (the
 * spec's table: "owners and users with edit, add or administration permission create and
 * retrieve") an add share creates and changes too, though it writes nothing else of the farm's
 * data (docs/security.md, "Add shares").
 */
export const mayOnResource = (access: Access, action: StorageAction): boolean =>
  can(access, resourceAction(action)) || (action === 'write' && access.grants.includes('add'));

/** A resource storage is kept for: its id, and for a field its farm (whose index lists the field's entries). */
export interface Resource {
  id: number;
  farmId?: number;
}

/**
 * Whether the caller may do `action` on the resource `id` of `scope`, or it does not exist; with a
 * field's farm.
 */
async function verdictOn(
  principal: Principal,
  scope: Scope,
  id: number,
  action: StorageAction,
): Promise<{ verdict: Verdict; farmId?: number }> {
  const decide = async (found: boolean, ok: () => Promise<boolean>) => ({
    verdict: (found ? ((await ok()) ? 'allowed' : 'denied') : 'missing') as Verdict,
  });
  if (scope === 'users') {
    const target = id === principal.user.id ? principal.user : await getUser(id);
    return decide(Boolean(target), async () => canOnUser(await relationsTo(principal.user, target!), action));
  }
  if (scope === 'fields') {
    const field = await getField(id);
    return {
      ...(await decide(Boolean(field), async () =>
        mayOnResource(await fieldAccess(principal.user.id, field!), action),
      )),
      ...(field ? { farmId: field.farmId } : {}),
    };
  }
  const farm = await getFarm(id);
  return decide(Boolean(farm), async () => mayOnResource(await farmAccess(principal.user.id, farm!), action));
}

/** Whether the caller may do `action` on the resource `id` of `scope`, or it does not exist. */
export async function verdict(principal: Principal, scope: Scope, id: number, action: StorageAction): Promise<Verdict> {
  return (await verdictOn(principal, scope, id, action)).verdict;
}

/** Every resource of the scope the caller can read (fields and farms: empty ids; users: itself). */
export async function readableIds(principal: Principal, scope: Scope): Promise<number[]> {
  if (scope === 'users') return [principal.user.id];
  // the fields from the farms' memberships and the caller's grants: no field read
  if (scope === 'fields') return (await farmReach(platformFieldGate, principal)).readableFieldIds();
  return [...(await accessibleFarms(principal.user.id)).keys()].sort((a, b) => a - b);
}

/** The partition of a resource's storage entries. */
export const resourcePk = (scope: Scope, id: number) => keys.storageResource(scope, id);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of a resource given as an integer, a string of digits, or its opaque id: a user's `uid`
 * (the "encrypted user id"), a field's or farm's uuid. Undefined when it names nothing.
 */
export async function resolveResourceRef(scope: Scope, ref: unknown): Promise<number | undefined> {
  if (typeof ref === 'number') return Number.isSafeInteger(ref) && ref > 0 ? ref : undefined;
  if (typeof ref !== 'string') return undefined;
  const text = ref.trim();
  if (/^\d{1,15}$/.test(text)) return Number(text) > 0 ? Number(text) : undefined;
  if (!UUID.test(text)) return undefined;
  if (scope === 'users') return (await getUserByUid(text))?.id;
  if (scope === 'fields') return (await getFieldByUuid(text))?.id;
  return (await getFarmByUuid(text))?.id;
}

const noPermission = (scope: Scope, ref: unknown) =>
  new Forbidden(`no permission on ${scope} ${JSON.stringify(ref)} (or it does not exist)`, {
    code: STORAGE_CODES.NO_PERMISSION,
  });

/** The resource `ref` names, once the caller may do `action` on it (code 3 otherwise). */
export async function authorisedResource(
  principal: Principal,
  scope: Scope,
  ref: unknown,
  action: StorageAction,
): Promise<Resource> {
  const id = await resolveResourceRef(scope, ref);
  const found = id === undefined ? undefined : await verdictOn(principal, scope, id, action);
  if (id === undefined || found?.verdict !== 'allowed') throw noPermission(scope, ref);
  return { id, ...(found.farmId === undefined ? {} : { farmId: found.farmId }) };
}

/**
 * Every field the caller reads, by farm (a GET of the fields scope without ids): the farms it reads
 * whole, whose fields' entries one query of the farm's index answers; the fields shared with it
 * alone; and whether an entry an index answers is of a field it reads (not one being deleted).
 */
export async function fieldsByFarm(principal: Principal): Promise<FieldsByFarm> {
  const reach = await farmReach(platformFieldGate, principal);
  return {
    wholeFarmIds: reach.wholeFarms.map((farm) => farm.id),
    singleFieldIds: reach.readableSingleFieldIds,
    reads: (fieldId, farmId) => reach.listedFarm(fieldId, farmId) !== undefined,
  };
}

/** Whether a ref has the form of a resource id: a positive integer (or its digits) or a uuid. */
const idShaped = (ref: unknown): boolean =>
  (typeof ref === 'number' && Number.isSafeInteger(ref) && ref > 0) ||
  (typeof ref === 'string' && (/^\d{1,15}$/.test(ref.trim()) ? Number(ref.trim()) > 0 : UUID.test(ref.trim())));

/**
 * The resources a GET reads: every readable one when `refs` is empty or absent, else each named
 * one: code 5 for a ref that is no id at all, 3 for one the caller cannot read, whether it exists
 * or not (a resource of another tenant is answered exactly as one that exists nowhere). Keys of
 * the answer: the refs as sent, or the integer ids.
 */
export async function readableResources(
  principal: Principal,
  scope: Scope,
  refs: readonly unknown[] | undefined,
): Promise<Array<{ label: string; id: number }>> {
  if (!refs || refs.length === 0) return (await readableIds(principal, scope)).map((id) => ({ label: String(id), id }));
  const unique = [...new Map(refs.map((ref) => [String(ref).trim(), ref])).entries()];
  const resolved = await mapLimit(unique, 8, async ([label, ref]) => {
    const id = await resolveResourceRef(scope, ref);
    return { label, ref, id, verdict: id === undefined ? 'missing' : await verdict(principal, scope, id, 'read') };
  });
  const malformed = resolved.find((entry) => !idShaped(entry.ref));
  if (malformed)
    throw new Invalid(`invalid id ${JSON.stringify(malformed.ref)}: not an id of a ${scope.slice(0, -1)}`, {
      code: STORAGE_CODES.ID_INVALID,
    });
  const refused = resolved.find((entry) => entry.verdict !== 'allowed');
  if (refused) throw noPermission(scope, refused.ref);
  return resolved.map((entry) => ({ label: entry.label, id: entry.id! }));
}
