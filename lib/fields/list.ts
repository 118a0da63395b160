// GET /api/getfields (spec 2, Fields): what a user reaches by ownership or shares, grouped by farm,
// and the farms of the users it supervises, with the caller's tags on each farm.

import type { Principal } from '../auth/principal';
import { type ReachedFarm, type ReachedField, reach } from '../authz/reach';
import type { Farm, User } from '../platform/model';
import { tagsOfFarms } from '../tags/repository';
import type { Tag } from '../tags/service';

export type ListedField = ReachedField;

export interface ListedFarm {
  farm: Farm;
  access: ReachedFarm['access'];
  fields: ListedField[];
  /** The caller's tags on the farm. */
  tags: Tag[];
}

export interface FieldListing {
  user: User;
  farms: ListedFarm[];
  supervised: Array<{ user: User; farms: ListedFarm[] }>;
}

/** A farm the user reaches, with the caller's tags on it and its fields read page by page when asked (`pages`). */
export interface FarmPages extends ReachedFarm {
  /** The caller's tags on the farm. */
  tags: Tag[];
}

export interface PagedListing {
  user: User;
  farms: FarmPages[];
  supervised: Array<{ user: User; farms: FarmPages[] }>;
}

/**
 * GET /api/getfields, page by page: the farms the caller reaches and those of the users it
 * supervises (with the caller's tags on each, unless `tags: false`), each farm's fields read when
 * its pages are: what a streamed answer writes as it reads (schemas/fields.ts).
 */
export async function pagedFields(principal: Principal, options: { tags?: boolean } = {}): Promise<PagedListing> {
  const reached = await reach(principal);
  const withTags = (farm: ReachedFarm): FarmPages => ({ ...farm, tags: [] });
  const farms = reached.farms.map(withTags);
  const supervised = reached.supervised.map((s) => ({ user: s.user, farms: s.farms.map(withTags) }));
  if (options.tags !== false) {
    const everyFarm = [...farms, ...supervised.flatMap((s) => s.farms)];
    const tags = await tagsOfFarms(principal.user.id, [...new Set(everyFarm.map((f) => f.farm.id))]);
    for (const entry of everyFarm) entry.tags = tags.get(entry.farm.id) ?? [];
  }
  return { user: reached.user, farms, supervised };
}
