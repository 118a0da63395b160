// /api/fields/v2/tag: POST, DELETE (spec 2, Field tags)
import { endpoint } from '../../lib/http/endpoint';
import { getField, getFieldByUuid } from '../../lib/fields/repository';
import { linkField, unlinkField } from '../../lib/tags/service';
import { fieldTagsResponse, linkFieldTagRoute, unlinkFieldTagRoute } from '../../schemas/tags';

/** field_uuid is preferred; exactly one of the two is sent (checked by the schema). */
const findField = (ref: { field_uuid?: string; field_id?: number }) =>
  ref.field_uuid !== undefined ? getFieldByUuid(ref.field_uuid) : getField(ref.field_id!);

export const post = endpoint(linkFieldTagRoute, {
  handler: async ({ body, principal }) => fieldTagsResponse(await linkField(principal, await findField(body), body.tag_id)),
});

export const del = endpoint(unlinkFieldTagRoute, {
  handler: async ({ query, principal }) => fieldTagsResponse(await unlinkField(principal, await findField(query), query.tag_id)),
});
