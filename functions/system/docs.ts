// GET /docs: the API reference, Swagger UI over GET /openapi.json, built with this function from
// console/reference/ (deploy/pages.cjs; docs/console.md). Its "try it" calls this API, on the same
// origin, with the bearer token given in the page.
import files from 'surco-pages:docs';
import { endpoint } from '../../lib/http/endpoint';
import { pageServer } from '../../lib/http/pages';
import { apiReferenceRoute } from '../../schemas/system';

// Swagger UI styles its elements inline and draws its icons as data: images
const serve = pageServer(files, {
  contentSecurityPolicy: [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
});

export const get = endpoint(apiReferenceRoute, {
  handler: async ({ path, headers }) => serve(path.asset, headers),
});
