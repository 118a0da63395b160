// POST /internal/supervisions (docs/internal-api.md)

import type { SupervisionLevel } from '../../lib/authz/access';
import { endpoint } from '../../lib/http/endpoint';
import { addSupervision } from '../../lib/platform/users';
import { createSupervisionRoute } from '../../schemas/platform';

export const post = endpoint(createSupervisionRoute, {
  handler: async ({ body }) => {
    await addSupervision({
      supervisorId: body.supervisor_id,
      userId: body.user_id,
      level: body.permission as SupervisionLevel,
    });
    return { code: 0, data: body };
  },
});
