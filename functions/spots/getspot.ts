// POST /api/spots/getspot and /api/spots/all (spec 1, Spots)
import { endpoint } from '../../lib/http/endpoint';
import { spotLists as spots } from '../../lib/spots/repository';
import { allSpotsRoute, getSpotsRoute, wireMessage } from '../../schemas/spots';
import { spotsPage } from './filters';

export const getspot = endpoint(getSpotsRoute, {
  handler: async ({ body, principal }) => spotsPage(principal, body ?? {}),
});

export const all = endpoint(allSpotsRoute, {
  handler: async ({ body, principal }) =>
    spotsPage(principal, body ?? {}, async (spot) => ({ msgs: (await spots.listedMessages(spot)).map(wireMessage) })),
});
