// POST /internal/tokens (docs/internal-api.md)

import { mintToken } from '../../lib/auth/tokens';
import { endpoint } from '../../lib/http/endpoint';
import { requireUser } from '../../lib/platform/users';
import { isoSeconds } from '../../lib/util/time';
import { createTokenRoute } from '../../schemas/platform';

export const post = endpoint(createTokenRoute, {
  handler: async ({ body }) => {
    const user = await requireUser(body.user_id);
    const { token, expiresAt } = await mintToken({
      userId: user.id,
      uid: user.uid,
      locale: user.locale,
      extensionId: body.extension_id,
      extensionVersion: body.extension_version,
      claims: body.claims,
      ttlSeconds: body.ttl_s,
    });
    return { code: 0, data: { access_token: token, expires_at: isoSeconds(expiresAt) } };
  },
});
