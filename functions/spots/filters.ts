// Query or body filters of the spot lists, as the service takes them, and the page they answer.
import type { Principal } from '../../lib/auth/principal';
import type { Paging, SpotFilters } from '../../lib/spots/list';
import type { Spot } from '../../lib/spots/model';
import { spotLists as spots } from '../../lib/spots/repository';
import { wireSpot } from '../../schemas/spots';

export interface WireFilters {
  uuid?: string[];
  group_uuid?: string;
  farm_id?: number;
  field_id?: number;
  sample_set_type?: string;
  sample_set_uuid?: string;
  date_from?: string;
  date_to?: string;
  tag_uuid?: string;
  page_size?: number;
  page?: number;
  cursor?: string;
}

export const SPOT_PAGE_SIZE = 50;

export const toFilters = (w: WireFilters): SpotFilters => ({
  uuids: w.uuid,
  groupUuid: w.group_uuid,
  farmId: w.farm_id,
  fieldId: w.field_id,
  sampleSetType: w.sample_set_type,
  sampleSetUuid: w.sample_set_uuid,
  dateFrom: w.date_from,
  dateTo: w.date_to,
  tagUuid: w.tag_uuid,
});

export const toPaging = (w: WireFilters): Paging => ({
  page: w.page ?? 0,
  pageSize: w.page_size ?? SPOT_PAGE_SIZE,
  cursor: w.cursor,
});

/**
 * One page of spots in the lists' wire shape (GET /spots/spot, POST /spots/getspot and, each
 * spot with what `extra` adds, POST /spots/all).
 */
export async function spotsPage<Extra extends object = Record<never, never>>(
  principal: Principal,
  wire: WireFilters,
  extra?: (spot: Spot) => Promise<Extra>,
) {
  const paging = toPaging(wire);
  const page = await spots.listSpots(principal, toFilters(wire), paging);
  const data = await Promise.all(
    page.spots.map(async (s) => ({ ...wireSpot(s, page), ...((extra ? await extra(s) : {}) as Extra) })),
  );
  return {
    continues: page.continues,
    data,
    page: paging.page,
    page_size: paging.pageSize,
    ...(page.cursor ? { cursor: page.cursor } : {}),
  };
}
