// /api/rotations and /rotations: list, one, create, patch (spec 2, Rotations)
import { DomainError } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { createRotation, getRotation, listRotations, patchRotation } from '../../lib/rotations/service';
import { ROTATION_CODES } from '../../lib/rotations/codes';
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
      await listRotations(principal, {
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
  handler: async ({ path, principal }) => ({ data: wireRotation(await getRotation(principal, path.rotation_uuid)) }),
});

export const post = endpoint(createRotationsRoute, {
  handler: async ({ body, principal }) => {
    const created: unknown[] = [];
    const refused: unknown[] = [];
    for (const raw of body) {
      const parsed = RotationItem.safeParse(raw);
      const asObject = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : { item: raw };
      if (!parsed.success) {
        const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; ');
        refused.push({ ...asObject, reason: { error_code: ROTATION_CODES.WRONG_FORMAT, error_msg: message } });
        continue;
      }
      const item = parsed.data;
      try {
        const view = await createRotation(principal, {
          fieldId: item.field_id,
          cropId: item.crop_id,
          yeargroup: item.yeargroup,
          startDate: item.start_date,
          endDate: item.end_date,
          ha: item.ha,
          yieldCrop: item.yield_crop,
          metadata: item.metadata,
          uuid: item.rotation_uuid,
        });
        created.push(wireRotation(view));
      } catch (error) {
        if (!(error instanceof DomainError) || error.kind === 'internal') throw error;
        refused.push({ ...asObject, reason: { error_code: error.code ?? ROTATION_CODES.WRONG_FORMAT, error_msg: error.message } });
      }
    }
    return { data: { created_ones: created, unabled_to_be_created: refused } };
  },
});

export const patch = endpoint(patchRotationRoute, {
  handler: async ({ path, body, principal }) =>
    patchedRotation(
      await patchRotation(principal, path.rotation_uuid, {
        ha: body.ha,
        cropId: body.crop_id,
        startDate: body.start_date,
        endDate: body.end_date,
      }),
    ),
});
