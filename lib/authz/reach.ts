// What a user reaches: the farms and fields it owns, those shared with it (a farm, or one field of
// it), and those of the users it supervises, each with the access it has (lib/authz/access.ts).
// Read straight from the grants and the platform's records, below every area: the gate answers
// "every field the caller reads" from here (lib/authz/gate.ts), the fields area lists them
// (GET /api/getfields, lib/fields/list.ts, which adds the caller's tags).

import type { Principal } from '../auth/principal';
import type { Farm, Field, FieldShape, SupervisionLevel, User } from '../platform/model';
import { fieldIdsOfFarm, getFarms, getFields } from '../platform/records';
import { currentShapes } from '../platform/shapes';
import { getUsers, supervisionsOf } from '../platform/users';
import { mapLimit } from '../util/map-limit';
import { type Access, accessFrom } from './access';
import { factsFrom, farmGrants, fieldGrants, type GrantFacts, readUserGrants } from './grants';

/** Fields read at a time: a listing holds one page of fields in memory, whatever the account's size. */
export const REACH_PAGE = 100;

export interface ReachedField {
  field: Field;
  access: Access;
  /** The shape of the current campaign. */
  shape: FieldShape;
}

/** A farm the user reaches, with its fields read page by page when asked (`pages`). */
export interface ReachedFarm {
  farm: Farm;
  access: Access;
  /** Every field of the farm is reached (owned, shared or supervised whole), else only `sharedFieldIds`. */
  whole: boolean;
  /** The fields of the farm shared with the user one by one. */
  sharedFieldIds: number[];
  /** The user's access to a field of this farm (no grants when it does not reach it). */
  accessTo(fieldId: number): Access;
  /** The fields of the farm the user reaches, by id, REACH_PAGE at a time. */
  pages(): AsyncIterable<ReachedField[]>;
}

export interface ReachedListing {
  user: User;
  farms: ReachedFarm[];
  supervised: Array<{ user: User; farms: ReachedFarm[] }>;
}

/**
 * The farms a user reaches by ownership or shares, each with the fields it reaches in it, by id;
 * with `supervision`, the farms of a user the caller supervises, as the caller reaches them. Only
 * ids and farms are read here; each farm's fields are read when its pages are.
 */
async function reachableFarms(
  userId: number,
  supervision?: SupervisionLevel,
  only?: ReadonlySet<number>,
): Promise<ReachedFarm[]> {
  const grants = await readUserGrants(userId);
  // A supervisor sees the supervised user's own farms only.
  const facts = (record: { farmId: number; fieldId?: number }): GrantFacts =>
    supervision ? { owner: false, supervision } : factsFrom(grants, record);
  const wholeFarms = new Set(
    [...grants.farms].filter(([, grant]) => !supervision || grant === 'owner').map(([farmId]) => farmId),
  );
  const sharedFields = supervision ? new Map<number, { farmId: number }>() : grants.fields;
  const sharedIn = new Map<number, number[]>();
  for (const [fieldId, share] of sharedFields)
    (sharedIn.get(share.farmId) ?? sharedIn.set(share.farmId, []).get(share.farmId)!).push(fieldId);
  const farmIds = [...new Set([...wholeFarms, ...sharedIn.keys()])]
    .filter((farmId) => !only || only.has(farmId))
    .sort((a, b) => a - b);
  const farms = await getFarms(farmIds);
  return farmIds.flatMap((farmId) => {
    const farm = farms.get(farmId);
    if (!farm) return [];
    return [
      {
        farm,
        access: accessFrom(farmGrants(facts({ farmId }))),
        whole: wholeFarms.has(farmId),
        sharedFieldIds: [...(sharedIn.get(farmId) ?? [])].sort((a, b) => a - b),
        accessTo: (fieldId: number) => accessFrom(fieldGrants(facts({ farmId, fieldId }))),
        async *pages() {
          const ids = new Set(sharedIn.get(farmId) ?? []);
          if (wholeFarms.has(farmId)) for (const id of await fieldIdsOfFarm(farmId)) ids.add(id);
          const sorted = [...ids].sort((a, b) => a - b);
          for (let start = 0; start < sorted.length; start += REACH_PAGE) {
            const fields = await getFields(sorted.slice(start, start + REACH_PAGE));
            const shapes = await currentShapes([...fields.values()]);
            const page: ReachedField[] = [];
            for (const field of fields.values()) {
              if (field.farmId !== farmId) continue;
              const access = accessFrom(fieldGrants(facts({ farmId, fieldId: field.id })));
              if (access.grants.length) page.push({ field, access, shape: shapes.get(field.id) ?? field.shape });
            }
            if (page.length) yield page;
          }
        },
      },
    ];
  });
}

/**
 * The farms the caller reaches and those of the users it supervises; each farm's fields read when its
 * pages are. With `farmIds`, of those farms only (the others are not read).
 */
export async function reach(principal: Principal, farmIds?: readonly number[]): Promise<ReachedListing> {
  const only = farmIds && new Set(farmIds);
  const [farms, supervisions] = await Promise.all([
    reachableFarms(principal.user.id, undefined, only),
    supervisionsOf(principal.user.id),
  ]);
  const users = await getUsers(supervisions.map((s) => s.userId));
  const supervised = await mapLimit(
    supervisions.filter((s) => users.has(s.userId)),
    4,
    async (s) => ({ user: users.get(s.userId)!, farms: await reachableFarms(s.userId, s.level, only) }),
  );
  return { user: principal.user, farms, supervised };
}

/**
 * The farms a user reaches (own, shared, through shares of their fields, or owned by users it
 * supervises) with its access to each, without reading their fields.
 */
export async function accessibleFarms(userId: number): Promise<Map<number, Access>> {
  const [grants, supervisions] = await Promise.all([readUserGrants(userId), supervisionsOf(userId)]);
  const supervisionOf = new Map<number, SupervisionLevel>();
  for (const { s, items } of await mapLimit(supervisions, 4, async (s) => ({
    s,
    items: await readUserGrants(s.userId),
  }))) {
    for (const [farmId, grant] of items.farms) if (grant === 'owner') supervisionOf.set(farmId, s.level);
  }
  const farmIds = new Set([...grants.farms.keys(), ...grants.sharedFieldFarms, ...supervisionOf.keys()]);
  return new Map(
    [...farmIds].map((farmId) => [
      farmId,
      accessFrom(farmGrants(factsFrom(grants, { farmId }, supervisionOf.get(farmId)))),
    ]),
  );
}

export interface ReadableField extends ReachedField {
  farm: Farm;
}

/** Every field the user can read (own, shared, supervised users'), with its farm and current shape. */
export async function readableFields(principal: Principal): Promise<ReadableField[]> {
  const listing = await reach(principal);
  const farms = [...listing.farms, ...listing.supervised.flatMap((s) => s.farms)];
  const seen = new Set<number>();
  const result: ReadableField[] = [];
  for (const entry of farms) {
    for await (const page of entry.pages()) {
      for (const listed of page) {
        if (seen.has(listed.field.id)) continue;
        seen.add(listed.field.id);
        result.push({ ...listed, farm: entry.farm });
      }
    }
  }
  return result;
}
