// POST /internal/shares (docs/internal-api.md)

import type { ShareLevel } from '../../lib/authz/access';
import { endpoint } from '../../lib/http/endpoint';
import { share } from '../../lib/shares/repository';
import { createShareRoute } from '../../schemas/platform';

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
