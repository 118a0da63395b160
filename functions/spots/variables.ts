// PATCH /api/spots/variables (spec 1, Spots)
import { endpoint } from '../../lib/http/endpoint';
import { spotVariables as spots } from '../../lib/spots/repository';
import { variablesRoute } from '../../schemas/spots';

export const patch = endpoint(variablesRoute, {
  handler: async ({ body, principal }) => {
    const spot = await spots.replaceVariables(principal, body.uuid, body.variables);
    return { spot_uuid: spot.uuid, variables: spot.variables ?? [] };
  },
});
