// /api/rotations and /rotations: list, one, create, patch (spec 2, Rotations)
import { endpoint } from '../../lib/http/endpoint';
import { rotations } from '../../lib/rotations/repository';
import {
  createRotationsRoute,
  getRotationRoute,
  listRotationsRoute,
  patchedRotation,
  patchRotationRoute,
  rotationRequests,
  wireRotation,
  wireRotationBatch,
} from '../../schemas/rotations';

export const list = endpoint(listRotationsRoute, {
  handler: async ({ query, principal }) => ({
    data: (
      await rotations.listRotations(principal, {
        yeargroup: query.yeargroup,
        fieldsId: query.fields_id,
        fieldsUuid: query.fields_uuid,
        farmsId: query.farms_id,
        farmsUuid: query.farms_uuid,
      })
    ).map(wireRotation),
  }),
});

export const get = endpoint(getRotationRoute, {
  handler: async ({ path, principal }) => ({
    data: wireRotation(await rotations.getRotation(principal, path.rotation_uuid)),
  }),
});

export const post = endpoint(createRotationsRoute, {
  handler: async ({ body, principal }) => ({
    data: wireRotationBatch(body, await rotations.createRotations(principal, rotationRequests(body))),
  }),
});

export const patch = endpoint(patchRotationRoute, {
  handler: async ({ path, body, principal }) =>
    patchedRotation(
      await rotations.patchRotation(principal, path.rotation_uuid, {
        ha: body.ha,
        cropId: body.crop_id,
        startDate: body.start_date,
        endDate: body.end_date,
      }),
    ),
});
