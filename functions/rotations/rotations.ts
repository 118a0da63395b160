// /api/rotations and /rotations: list, one, create, patch (spec 2, Rotations)
import { endpoint } from '../../lib/http/endpoint';
import { rotations } from '../../lib/rotations/repository';
import type { RotationRequest } from '../../lib/rotations/service';
import {
  createRotationsRoute,
  getRotationRoute,
  listRotationsRoute,
  patchedRotation,
  patchRotationRoute,
  RotationItem,
  wireRotation,
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
  handler: async ({ body, principal }) => {
    const requests: RotationRequest[] = body.map((raw) => {
      const parsed = RotationItem.safeParse(raw);
      if (!parsed.success)
        return { malformed: parsed.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; ') };
      const item = parsed.data;
      return {
        input: {
          fieldId: item.field_id,
          cropId: item.crop_id,
          yeargroup: item.yeargroup,
          startDate: item.start_date,
          endDate: item.end_date,
          ha: item.ha,
          yieldCrop: item.yield_crop,
          metadata: item.metadata,
          uuid: item.rotation_uuid,
        },
      };
    });
    const { created, refused } = await rotations.createRotations(principal, requests);
    const echoed = (raw: unknown) =>
      raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : { item: raw };
    return {
      data: {
        created_ones: created.map(wireRotation),
        unabled_to_be_created: refused.map(({ index, code, message }) => ({
          ...echoed(body[index]),
          reason: { error_code: code, error_msg: message },
        })),
      },
    };
  },
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
