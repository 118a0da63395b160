// POST /internal/users (docs/internal-api.md)
import { endpoint } from '../../lib/http/endpoint';
import { createUser } from '../../lib/platform/users';
import { createUserRoute } from '../../schemas/platform';

export const post = endpoint(createUserRoute, {
  handler: async ({ body }) => {
    const user = await createUser({
      userName: body.user_name,
      locale: body.locale,
      features: body.features ?? ['*'],
      hectareQuota: body.hectare_quota ?? null,
      spaceId: body.space_id,
    });
    return {
      code: 0,
      data: { id: user.id, uid: user.uid, user_name: user.userName, locale: user.locale, space_id: user.spaceId },
    };
  },
});
