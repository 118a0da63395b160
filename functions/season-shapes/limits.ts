// GET /api/fields/v2/shape/limits (spec 2, Season shapes)
import { endpoint } from '../../lib/http/endpoint';
import { shapes } from '../../lib/season-shapes/repository';
import { shapeLimitsRoute } from '../../schemas/season-shapes';

export const get = endpoint(shapeLimitsRoute, {
  handler: async ({ query, principal }) => {
    const limits = await shapes.limitsOf(principal, query.field_id);
    return {
      info: 'shape expansion limits retrieved',
      data: { limits_4326: limits.limits4326, limits_3857: limits.limits3857 },
    };
  },
});
