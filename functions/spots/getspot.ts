// POST /api/spots/getspot and /api/spots/all (spec 1, Spots)
import { endpoint } from '../../lib/http/endpoint';
import { messagesOf } from '../../lib/spots/messages';
import { allSpotsRoute, getSpotsRoute, wireMessage } from '../../schemas/spots';
import { spotsPage } from './filters';

export const getspot = endpoint(getSpotsRoute, {
  handler: async ({ body, principal }) => spotsPage(principal, body ?? {}),
});

export const all = endpoint(allSpotsRoute, {
  handler: async ({ body, principal }) =>
    spotsPage(principal, body ?? {}, async (spot) => ({ msgs: (await messagesOf(spot.id)).map(wireMessage) })),
});
