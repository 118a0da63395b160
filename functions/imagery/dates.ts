// GET /api/layers/dates/v3 (spec 2, Imagery layers).
import { endpoint } from '../../lib/http/endpoint';
import { imageryDates } from '../../lib/imagery/repository';
import { layerDatesRoute } from '../../schemas/imagery';

export const get = endpoint(layerDatesRoute, {
  handler: async ({ query, principal }) => ({
    code: 0 as const,
    layers: await imageryDates.dates(principal, query.field_id),
  }),
});
