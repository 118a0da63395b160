// GET /api/getfields (spec 2, Fields): what a user reaches by ownership or shares, grouped by farm,
// and the farms of the users it supervises.

import type { Principal } from '../auth/principal';
import { type Access, accessFrom, type SupervisionLevel } from '../authz/access';
import { factsFrom, farmGrants, fieldGrants, type GrantFacts, readUserGrants } from '../authz/grants';
import type { Farm, Field, FieldShape, User } from '../platform/model';
import { getUsers, supervisionsOf } from '../platform/users';
import { tagsOfFarms } from '../tags/repository';
import type { Tag } from '../tags/service';
import { mapLimit } from '../util/map-limit';
import { currentShapes } from './current-shape';
import { fieldIdsOfFarm, getFarms, getFields } from './repository';

export interface ListedField {
  field: Field;
  access: Access;
  /** The shape of the current campaign. */
  shape: FieldShape;
}

export interface ListedFarm {
  farm: Farm;
  access: Access;
  fields: ListedField[];
  /** The caller's tags on the farm. */
  tags: Tag[];
}

export interface FieldListing {
  user: User;
  farms: ListedFarm[];
  supervised: Array<{ user: User; farms: ListedFarm[] }>;
}

/** Fields read and answered at a time: a listing holds one page of fields in memory, whatever the account's size. */
export const FIELD_PAGE = 100;

/** A farm the user reaches, with its fields read page by page when asked (`pages`). */
export interface FarmPages {
  farm: Farm;
  access: Access;
  /** The caller's tags on the farm. */
  tags: Tag[];
  /** The fields of the farm the user reaches, by id, FIELD_PAGE at a time. */
  pages(): AsyncIterable<ListedField[]>;
}

export interface PagedListing {
  user: User;
  farms: FarmPages[];
  supervised: Array<{ user: User; farms: FarmPages[] }>;
}

/**
 * The farms a user reaches by ownership or shares, each with the fields it reaches in it, by id;
 * with `supervision`, the farms of a user the caller supervises, as the caller reaches them. Only
 * ids and farms are read here; each farm's fields are read when its pages are.
 */
async function reachableFarms(userId: number, supervision?: SupervisionLevel): Promise<FarmPages[]> {
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
  const farmIds = [...new Set([...wholeFarms, ...sharedIn.keys()])].sort((a, b) => a - b);
  const farms = await getFarms(farmIds);
  return farmIds.flatMap((farmId) => {
    const farm = farms.get(farmId);
    if (!farm) return [];
    return [
      {
        farm,
        access: accessFrom(farmGrants(facts({ farmId }))),
        tags: [],
        async *pages() {
          const ids = new Set(sharedIn.get(farmId) ?? []);
          if (wholeFarms.has(farmId)) for (const id of await fieldIdsOfFarm(farmId)) ids.add(id);
          const sorted = [...ids].sort((a, b) => a - b);
          for (let start = 0; start < sorted.length; start += FIELD_PAGE) {
            const fields = await getFields(sorted.slice(start, start + FIELD_PAGE));
            const shapes = await currentShapes([...fields.values()]);
            const page: ListedField[] = [];
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
 * GET /api/getfields, page by page: the farms the caller reaches and those of the users it
 * supervises (with the caller's tags on each, unless `tags: false`), each farm's fields read when
 * its pages are: what a streamed answer writes as it reads (schemas/fields.ts).
 */
export async function pagedFields(principal: Principal, options: { tags?: boolean } = {}): Promise<PagedListing> {
  const [farms, supervisions] = await Promise.all([
    reachableFarms(principal.user.id),
    supervisionsOf(principal.user.id),
  ]);
  const users = await getUsers(supervisions.map((s) => s.userId));
  const supervised = await mapLimit(
    supervisions.filter((s) => users.has(s.userId)),
    4,
    async (s) => ({ user: users.get(s.userId)!, farms: await reachableFarms(s.userId, s.level) }),
  );
  if (options.tags !== false) {
    const everyFarm = [...farms, ...supervised.flatMap((s) => s.farms)];
    const tags = await tagsOfFarms(principal.user.id, [...new Set(everyFarm.map((f) => f.farm.id))]);
    for (const entry of everyFarm) entry.tags = tags.get(entry.farm.id) ?? [];
  }
  return { user: principal.user, farms, supervised };
}

/** A farm's pages read whole (a listing of modest size: the gate, tests). */
async function wholeFarm(entry: FarmPages): Promise<ListedFarm> {
  const fields: ListedField[] = [];
  for await (const page of entry.pages()) fields.push(...page);
  return { farm: entry.farm, access: entry.access, tags: entry.tags, fields };
}

/** The listing read whole, in memory. */
export async function listFields(principal: Principal, options: { tags?: boolean } = {}): Promise<FieldListing> {
  const paged = await pagedFields(principal, options);
  return {
    user: paged.user,
    farms: await mapLimit(paged.farms, 8, wholeFarm),
    supervised: await mapLimit(paged.supervised, 4, async (s) => ({
      user: s.user,
      farms: await mapLimit(s.farms, 8, wholeFarm),
    })),
  };
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

export interface ReadableField extends ListedField {
  farm: Farm;
}

/** Every field the user can read (own, shared, supervised users'), with its farm and current shape. */
export async function readableFields(principal: Principal): Promise<ReadableField[]> {
  const listing = await listFields(principal, { tags: false });
  const farms = [...listing.farms, ...listing.supervised.flatMap((s) => s.farms)];
  const seen = new Set<number>();
  const result: ReadableField[] = [];
  for (const entry of farms) {
    for (const listed of entry.fields) {
      if (seen.has(listed.field.id)) continue;
      seen.add(listed.field.id);
      result.push({ ...listed, farm: entry.farm });
    }
  }
  return result;
}
