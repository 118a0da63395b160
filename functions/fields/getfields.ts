// GET /api/getfields (spec 2, Fields)

import { listFields } from '../../lib/fields/list';
import { endpoint } from '../../lib/http/endpoint';
import { getFieldsRoute, toGetFieldsResponse } from '../../schemas/fields';

export const get = endpoint(getFieldsRoute, {
  handler: async ({ principal }) => toGetFieldsResponse(await listFields(principal)),
});
