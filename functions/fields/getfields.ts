// GET /api/getfields (spec 2, Fields)
import { endpoint } from '../../lib/http/endpoint';
import { listFields } from '../../lib/fields/list';
import { getFieldsRoute, toGetFieldsResponse } from '../../schemas/fields';

export const get = endpoint(getFieldsRoute, {
  handler: async ({ principal }) => toGetFieldsResponse(await listFields(principal)),
});
