// GET /openapi.json
import { endpoint } from '../../lib/http/endpoint';
import { openApiRoute } from '../../schemas/system';
import { openApiDocument } from '../../schemas/index';

let document: Record<string, unknown> | undefined;

export const get = endpoint(openApiRoute, {
  handler: async () => (document ??= openApiDocument()),
});
