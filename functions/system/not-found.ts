// ANY /{proxy+}: routes that do not exist answer 404 in the general dialect, not API Gateway's own.
import { NotFound } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { notFoundRoute } from '../../schemas/system';

export const any = endpoint(notFoundRoute, {
  handler: async ({ event }) => {
    throw new NotFound(`route not found: ${event.httpMethod} ${event.path}`);
  },
});
