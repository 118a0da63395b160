// /api/fields/v2/tag: POST, DELETE (spec 2, Field tags)
import { endpoint } from '../../lib/http/endpoint';
import { tags } from '../../lib/tags/instance';
import { fieldTagsResponse, linkFieldTagRoute, unlinkFieldTagRoute } from '../../schemas/tags';

export const post = endpoint(linkFieldTagRoute, {
  handler: async ({ body, principal }) => fieldTagsResponse(await tags.linkField(principal, body, body.tag_id)),
});

export const del = endpoint(unlinkFieldTagRoute, {
  handler: async ({ query, principal }) => fieldTagsResponse(await tags.unlinkField(principal, query, query.tag_id)),
});
