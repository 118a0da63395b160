// GET /openapi.json: the document committed in docs/openapi.json, as it is. npm run openapi writes
// it from the zod route definitions, and tests/http.test.ts fails when it is not up to date; serving
// the file spares this function building every area's schemas at its cold start, and bundling it
// as text (`?text`, deploy/esbuild-plugins.cjs) spares it parsing the document at its cold start
// and serialising it again at every request (ADR 0008).

import document from '../../docs/openapi.json?text';
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { openApiRoute } from '../../schemas/system';

export const get = endpoint(openApiRoute, {
  handler: async () => Reply.jsonText(document),
});
