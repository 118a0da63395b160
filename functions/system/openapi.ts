// GET /openapi.json: the document committed in docs/openapi.json, as it is. npm run openapi writes
// it from the zod route definitions, and tests/http.test.ts fails when it is not up to date; serving
// the file spares this function building every area's schemas at its cold start (ADR 0008).
import { endpoint } from '../../lib/http/endpoint';
import { openApiRoute } from '../../schemas/system';
import document from '../../docs/openapi.json';

export const get = endpoint(openApiRoute, {
  handler: async () => document,
});
