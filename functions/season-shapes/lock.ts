// GET /api/fields/v2/shape/lock (spec 2, Season shapes)
import { endpoint } from '../../lib/http/endpoint';
import { shapes } from '../../lib/season-shapes/repository';
import { shapeLockRoute } from '../../schemas/season-shapes';

export const get = endpoint(shapeLockRoute, {
  handler: async ({ query, principal }) => {
    await shapes.lockState(principal, query.field_id); // throws REPROCESSING while images are processed
    return { info: 'allowed', data: { images_reprocessing: false } };
  },
});
