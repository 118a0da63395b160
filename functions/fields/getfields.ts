// GET /api/getfields (spec 2, Fields)
import { endpoint } from '../../lib/http/endpoint';
import { listFields } from '../../lib/fields/service';
import { getFieldsRoute, toGetFieldsResponse } from '../../schemas/fields';

export const get = endpoint(getFieldsRoute, {
  handler: async ({ principal }) => toGetFieldsResponse(await listFields(principal)),
});
