// GET /api/fields/ndvi (spec 2, Fields).
import { endpoint } from '../../lib/http/endpoint';
import { imageryDates } from '../../lib/imagery/repository';
import { fieldNdviRoute } from '../../schemas/imagery';

export const get = endpoint(fieldNdviRoute, {
  handler: async ({ query, principal }) => ({
    ndvi: await imageryDates.ndviSeries(principal, query.field_id, query.date_from, query.date_to),
    code: 0 as const,
    field_id: query.field_id,
  }),
});
