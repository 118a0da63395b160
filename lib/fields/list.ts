// GET /api/getfields (spec 2, Fields): what a user reaches by ownership or shares, grouped by farm,
// and the farms of the users it supervises.
import { mapLimit } from '../util/map-limit';
import { accessFrom, supervisionGrant, type Access, type Grant } from '../authz/access';
import type { Principal } from '../auth/principal';
import type { Farm, Field, FieldShape, User } from '../platform/model';
import { currentShapes } from './current-shape';
import { tagsOfFarms, type Tag } from '../tags/service';
import { getUsers, supervisionsOf } from '../platform/users';
import { accessItemsOf, fieldIdsOfFarm, getFarms, getFields } from './repository';

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

/** The farms a user reaches by ownership or shares, each with the fields it reaches in it. */
async function reachableFarms(userId: number, extraGrant?: Grant): Promise<ListedFarm[]> {
  const items = await accessItemsOf(userId);
  // A supervisor sees the supervised user's own farms only, with the supervision's grant.
  const farmGrants = new Map<number, Grant[]>();
  for (const [farmId, grant] of items.farms) {
    if (extraGrant && grant !== 'owner') continue;
    farmGrants.set(farmId, [extraGrant ?? grant]);
  }
  const fieldGrants = new Map<number, { farmId: number; grant: Grant }>();
  if (!extraGrant) {
    for (const [fieldId, share] of items.fields) fieldGrants.set(fieldId, { farmId: share.farmId, grant: share.level });
  }
  const farmIds = [...new Set([...farmGrants.keys(), ...[...fieldGrants.values()].map((g) => g.farmId)])];
  const farmFieldIds = await mapLimit([...farmGrants.keys()], 8, async (farmId) => [farmId, await fieldIdsOfFarm(farmId)] as const);
  const fieldIds = new Set<number>([...fieldGrants.keys(), ...farmFieldIds.flatMap(([, ids]) => ids)]);
  const [farms, fields] = await Promise.all([getFarms(farmIds), getFields([...fieldIds])]);
  const shapes = await currentShapes([...fields.values()]);

  const listed = new Map<number, ListedFarm>();
  for (const farmId of farmIds.sort((a, b) => a - b)) {
    const farm = farms.get(farmId);
    if (!farm) continue;
    const grants = farmGrants.get(farmId);
    // Reached only through shares of some of its fields: the farm itself is only visible.
    listed.set(farmId, { farm, access: accessFrom(grants ?? ['read']), fields: [], tags: [] });
  }
  for (const field of [...fields.values()].sort((a, b) => a.id - b.id)) {
    const entry = listed.get(field.farmId);
    if (!entry) continue;
    const grants: Grant[] = [...(farmGrants.get(field.farmId) ?? [])];
    const own = fieldGrants.get(field.id);
    if (own) grants.push(own.grant);
    if (grants.length) entry.fields.push({ field, access: accessFrom(grants), shape: shapes.get(field.id) ?? field.shape });
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
    async (s) => ({ user: users.get(s.userId)!, farms: await reachableFarms(s.userId, supervisionGrant(s.level)) }),
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
  const [own, supervisions] = await Promise.all([accessItemsOf(userId), supervisionsOf(userId)]);
  const grants = new Map<number, Grant[]>();
  const add = (farmId: number, grant: Grant) => grants.set(farmId, [...(grants.get(farmId) ?? []), grant]);
  for (const [farmId, grant] of own.farms) add(farmId, grant);
  for (const share of own.fields.values()) if (!grants.has(share.farmId)) add(share.farmId, 'read');
  const supervised = await mapLimit(supervisions, 4, async (s) => ({ s, items: await accessItemsOf(s.userId) }));
  for (const { s, items } of supervised) {
    for (const [farmId, grant] of items.farms) if (grant === 'owner') add(farmId, supervisionGrant(s.level));
  }
  return new Map([...grants].map(([farmId, list]) => [farmId, accessFrom(list)]));
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
