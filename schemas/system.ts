// System routes: the OpenAPI document and the answer to unknown routes.
import * as z from 'zod/mini';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';

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

export const systemRoutes = [openApiRoute, notFoundRoute];
