// /api/spots/tags: POST, GET, PATCH, DELETE (spec 1, Spots: tags; the path is this service's choice)
import { endpoint } from '../../lib/http/endpoint';
import { createTags, deleteTag, renameTag, searchTags } from '../../lib/spots/tags';
import { createTagsRoute, deleteTagRoute, renameTagRoute, searchTagsRoute, wireTag } from '../../schemas/spots';

export const post = endpoint(createTagsRoute, {
  handler: async ({ body, principal }) => {
    const created = await createTags(principal, Array.isArray(body) ? body : [body]);
    return { data: created.map((t) => ({ ...wireTag(t), ignored: t.ignored })) };
  },
});

export const get = endpoint(searchTagsRoute, {
  handler: async ({ query, principal }) => ({ data: (await searchTags(principal, { general: query.general, user: query.user })).map(wireTag) }),
});

export const patch = endpoint(renameTagRoute, {
  handler: async ({ body, principal }) => ({ data: wireTag(await renameTag(principal, body.uuid, body.tag)) }),
});

export const del = endpoint(deleteTagRoute, {
  handler: async ({ query, principal }) => {
    await deleteTag(principal, query.uuid);
    return { uuid: query.uuid.toLowerCase(), deleted: true };
  },
});
