// /api/spots/msgs: POST, GET, DELETE (spec 1, Spots)
import { endpoint } from '../../lib/http/endpoint';
import { spotMessages as spots } from '../../lib/spots/repository';
import { createMessagesRoute, deleteMessageRoute, listMessagesRoute, wireMessage } from '../../schemas/spots';

export const MESSAGES_PAGE_SIZE = 20;

export const post = endpoint(createMessagesRoute, {
  handler: async ({ body, principal }) => {
    const scope = await spots.locateSpot(principal, body.uuid, 'write');
    const added = await spots.addMessages(principal, scope, body.texts);
    return { spot_uuid: scope.spot.uuid, texts: body.texts.map((t) => t.uuid.toLowerCase()), added };
  },
});

export const list = endpoint(listMessagesRoute, {
  handler: async ({ query, principal }) => {
    const { spot } = await spots.locateSpot(principal, query.uuid);
    const page = query.page ?? 0;
    const pageSize = query.page_size ?? MESSAGES_PAGE_SIZE;
    const result = await spots.listMessages(spot.id, page, pageSize);
    return { continues: result.continues, data: result.messages.map(wireMessage), page, page_size: pageSize };
  },
});

export const del = endpoint(deleteMessageRoute, {
  handler: async ({ query, principal }) => {
    await spots.deleteMessage(principal, query.uuid);
    return { uuid: query.uuid.toLowerCase(), deleted: true };
  },
});
