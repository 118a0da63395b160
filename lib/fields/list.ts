// GET /api/getfields (spec 2, Fields): what a user reaches by ownership or shares, grouped by farm,
// and the farms of the users it supervises.
import { accessFrom, supervisionGrant, type Access, type Grant } from '../authz/access';
import type { Principal } from '../auth/principal';
import type { Farm, Field, User } from '../platform/model';
import { getUsers, supervisionsOf } from '../platform/users';
import { accessItemsOf, fieldIdsOfFarm, getFarms, getFields } from './repository';

export interface ListedField {
  field: Field;
  access: Access;
}

export interface ListedFarm {
  farm: Farm;
  access: Access;
  fields: ListedField[];
}

export interface FieldListing {
  user: User;
  farms: ListedFarm[];
  supervised: Array<{ user: User; farms: ListedFarm[] }>;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
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

  const listed = new Map<number, ListedFarm>();
  for (const farmId of farmIds.sort((a, b) => a - b)) {
    const farm = farms.get(farmId);
    if (!farm) continue;
    const grants = farmGrants.get(farmId);
    // Reached only through shares of some of its fields: the farm itself is only visible.
    listed.set(farmId, { farm, access: accessFrom(grants ?? ['read']), fields: [] });
  }
  for (const field of [...fields.values()].sort((a, b) => a.id - b.id)) {
    const entry = listed.get(field.farmId);
    if (!entry) continue;
    const grants: Grant[] = [...(farmGrants.get(field.farmId) ?? [])];
    const own = fieldGrants.get(field.id);
    if (own) grants.push(own.grant);
    if (grants.length) entry.fields.push({ field, access: accessFrom(grants) });
  }
  return [...listed.values()];
}

export async function listFields(principal: Principal): Promise<FieldListing> {
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
  return { user: principal.user, farms, supervised };
}

