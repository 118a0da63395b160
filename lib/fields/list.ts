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

/**
 * The farms a user reaches by ownership or shares, each with the fields it reaches in it; with
 * `supervision`, the farms of a user the caller supervises, as the caller reaches them.
 */
async function reachableFarms(userId: number, supervision?: SupervisionLevel): Promise<ListedFarm[]> {
  const grants = await readUserGrants(userId);
  // A supervisor sees the supervised user's own farms only.
  const facts = (record: { farmId: number; fieldId?: number }): GrantFacts =>
    supervision ? { owner: false, supervision } : factsFrom(grants, record);
  const wholeFarms = [...grants.farms]
    .filter(([, grant]) => !supervision || grant === 'owner')
    .map(([farmId]) => farmId);
  const sharedFields = supervision ? new Map() : grants.fields;
  const farmIds = [...new Set([...wholeFarms, ...[...sharedFields.values()].map((share) => share.farmId)])];
  const farmFieldIds = await mapLimit(wholeFarms, 8, async (farmId) => fieldIdsOfFarm(farmId));
  const fieldIds = new Set<number>([...sharedFields.keys(), ...farmFieldIds.flat()]);
  const [farms, fields] = await Promise.all([getFarms(farmIds), getFields([...fieldIds])]);
  const shapes = await currentShapes([...fields.values()]);

  const listed = new Map<number, ListedFarm>();
  for (const farmId of farmIds.sort((a, b) => a - b)) {
    const farm = farms.get(farmId);
    if (farm) listed.set(farmId, { farm, access: accessFrom(farmGrants(facts({ farmId }))), fields: [], tags: [] });
  }
  for (const field of [...fields.values()].sort((a, b) => a.id - b.id)) {
    const entry = listed.get(field.farmId);
    const access = accessFrom(fieldGrants(facts({ farmId: field.farmId, fieldId: field.id })));
    if (entry && access.grants.length) entry.fields.push({ field, access, shape: shapes.get(field.id) ?? field.shape });
  }
  return [...listed.values()];
}

export async function listFields(principal: Principal, options: { tags?: boolean } = {}): Promise<FieldListing> {
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
