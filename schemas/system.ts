// System routes: the OpenAPI document, the web pages the platform serves (docs/console.md) and the
// answer to unknown routes.
import * as z from 'zod/mini';
import { type Dialect, generalDialect, livestockDialect, sensorsDialect, spotsDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';
import { mapsDialect } from '../lib/maps/dialect';

export const openApiRoute = defineRoute({
  operationId: 'getOpenApi',
  handler: 'functions/system/openapi.get',
  method: 'get',
  paths: ['/openapi.json'],
  summary: 'This OpenAPI 3.1 document (no token needed)',
  tags: ['system'],
  auth: 'none',
  dialect: generalDialect,
  responses: { 200: { description: 'the document', schema: z.record(z.string(), z.unknown()) } },
});

/** A page's file names: `<name>-<hash>.<ext>` as the build writes them (deploy/pages.cjs). */
const pageAsset = z.object({ asset: z.optional(z.string().check(z.maxLength(200))) });

/**
 * GET /docs: the API reference, Swagger UI over GET /openapi.json, whose "try it" calls this API
 * with the token given in it; /docs/<file>: what the page loads. Pages, not part of the document.
 */
export const apiReferenceRoute = defineRoute({
  operationId: 'apiReference',
  handler: 'functions/system/docs.get',
  method: 'get',
  paths: ['/docs', '/docs/{asset}'],
  summary: 'The API reference (an HTML page; no token needed)',
  tags: ['system'],
  auth: 'none',
  dialect: generalDialect,
  request: { path: pageAsset },
  responses: {},
  undocumented: true,
});

/**
 * GET /console: the web console (fields on a map, their imagery, NDVI series, spots, samplings and
 * labours), which calls this API with the token pasted in it; /console/<file>: what the page loads.
 */
export const webConsoleRoute = defineRoute({
  operationId: 'webConsole',
  handler: 'functions/system/console.get',
  method: 'get',
  paths: ['/console', '/console/{asset}'],
  summary: 'The web console (an HTML page; no token needed to load it)',
  tags: ['system'],
  auth: 'none',
  dialect: generalDialect,
  request: { path: pageAsset },
  responses: {},
  undocumented: true,
});

/** Catch-all: any method of a path no route declares; not part of the document. */
export const notFoundRoute = defineRoute({
  operationId: 'notFound',
  handler: 'functions/system/not-found.any',
  method: 'any',
  paths: ['/{proxy+}'],
  summary: 'Unknown route',
  tags: ['system'],
  auth: 'none',
  dialect: generalDialect,
  responses: {},
  undocumented: true,
});

/**
 * The dialect of a path no route declares, by the area its prefix belongs to (docs/decisions.md,
 * "Unknown routes"); general otherwise.
 */
export const UNKNOWN_ROUTE_DIALECTS: ReadonlyArray<readonly [RegExp, Dialect]> = [
  [/^\/sensors\//, sensorsDialect],
  [/^(\/api)?\/livestock\//, livestockDialect],
  [/^(\/api)?\/spots\//, spotsDialect],
  [/^\/api\/users\/me\/maps/, mapsDialect],
];

export const unknownRouteDialect = (path: string): Dialect =>
  UNKNOWN_ROUTE_DIALECTS.find(([prefix]) => prefix.test(path))?.[1] ?? generalDialect;

export const systemRoutes = [openApiRoute, apiReferenceRoute, webConsoleRoute, notFoundRoute];
