// POST and DELETE /internal/shares (docs/internal-api.md)

import type { ShareLevel } from '../../lib/authz/access';
import { endpoint } from '../../lib/http/endpoint';
import { share, unshare } from '../../lib/shares/repository';
import { createShareRoute, deleteShareRoute } from '../../schemas/platform';

export const post = endpoint(createShareRoute, {
  handler: async ({ body }) => {
    const level = body.permission as ShareLevel;
    await share(
      body.farm_id !== undefined
        ? { userId: body.user_id, farmId: body.farm_id, level }
        : { userId: body.user_id, fieldId: body.field_id!, level },
    );
    return { code: 0, data: body };
  },
});

export const del = endpoint(deleteShareRoute, {
  handler: async ({ body }) => {
    await unshare(
      body.farm_id !== undefined
        ? { userId: body.user_id, farmId: body.farm_id }
        : { userId: body.user_id, fieldId: body.field_id! },
    );
    return { code: 0, data: body };
  },
});
