// /api/spots/tags: POST, GET, PATCH, DELETE (spec 1, Spots: tags; the path is this service's choice)
import { endpoint } from '../../lib/http/endpoint';
import { spotTags as spots } from '../../lib/spots/repository';
import { createTagsRoute, deleteTagRoute, renameTagRoute, searchTagsRoute, wireTag } from '../../schemas/spots';

export const post = endpoint(createTagsRoute, {
  handler: async ({ body, principal }) => {
    const created = await spots.createTags(principal, Array.isArray(body) ? body : [body]);
    return { data: created.map((t) => ({ ...wireTag(t), ignored: t.ignored })) };
  },
});

export const get = endpoint(searchTagsRoute, {
  handler: async ({ query, principal }) => ({
    data: (await spots.searchTags(principal, { general: query.general, user: query.user })).map(wireTag),
  }),
});

export const patch = endpoint(renameTagRoute, {
  handler: async ({ body, principal }) => ({ data: wireTag(await spots.renameTag(principal, body.uuid, body.tag)) }),
});

export const del = endpoint(deleteTagRoute, {
  handler: async ({ query, principal }) => {
    await spots.deleteTag(principal, query.uuid);
    return { uuid: query.uuid.toLowerCase(), deleted: true };
  },
});
