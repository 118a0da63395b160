// /api/rotations/variety/<rotation_uuid> and /rotations/variety/...: GET, POST, DELETE (spec 2)
import { endpoint } from '../../lib/http/endpoint';
import { rotations } from '../../lib/rotations/repository';
import { addVarietiesRoute, getVarietiesRoute, removeVarietyRoute, wireVarieties } from '../../schemas/rotations';

export const get = endpoint(getVarietiesRoute, {
  handler: async ({ path, principal }) => wireVarieties(await rotations.varietiesOf(principal, path.rotation_uuid)),
});

export const post = endpoint(addVarietiesRoute, {
  handler: async ({ path, body, principal }) =>
    wireVarieties(await rotations.addVarieties(principal, path.rotation_uuid, body.varieties)),
});

export const del = endpoint(removeVarietyRoute, {
  handler: async ({ path, query, principal }) =>
    wireVarieties(await rotations.removeVariety(principal, path.rotation_uuid, query.variety_id)),
});
