// POST /api/spots/getspot and /api/spots/all (spec 1, Spots)
import { endpoint } from '../../lib/http/endpoint';
import { listSpots } from '../../lib/spots/list';
import { messagesOf } from '../../lib/spots/messages';
import { allSpotsRoute, getSpotsRoute, wireMessage, wireSpot } from '../../schemas/spots';
import { toFilters, toPaging } from './filters';

export const getspot = endpoint(getSpotsRoute, {
  handler: async ({ body, principal }) => {
    const wire = body ?? {};
    const paging = toPaging(wire);
    const page = await listSpots(principal, toFilters(wire), paging);
    return {
      continues: page.continues,
      data: page.spots.map((s) => wireSpot(s, page)),
      page: paging.page,
      page_size: paging.pageSize,
      ...(page.cursor ? { cursor: page.cursor } : {}),
    };
  },
});

export const all = endpoint(allSpotsRoute, {
  handler: async ({ body, principal }) => {
    const wire = body ?? {};
    const paging = toPaging(wire);
    const page = await listSpots(principal, toFilters(wire), paging);
    const data = await Promise.all(
      page.spots.map(async (s) => ({ ...wireSpot(s, page), msgs: (await messagesOf(s.uuid)).map(wireMessage) })),
    );
    return { continues: page.continues, data, page: paging.page, page_size: paging.pageSize, ...(page.cursor ? { cursor: page.cursor } : {}) };
  },
});
