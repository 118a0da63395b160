// System routes: the OpenAPI document and the answer to unknown routes.
import { z } from 'zod';
import { defineRoute } from '../lib/http/route';
import { generalDialect } from '../lib/http/dialects';

export const openApiRoute = defineRoute({
  operationId: 'getOpenApi',
  method: 'get',
  paths: ['/openapi.json'],
  summary: 'This OpenAPI 3.1 document (no token needed)',
  tags: ['system'],
  auth: 'none',
  dialect: generalDialect,
  responses: { 200: { description: 'the document', schema: z.record(z.string(), z.unknown()) } },
});

/** Catch-all (`ANY /{proxy+}`); not part of the document. */
export const notFoundRoute = defineRoute({
  operationId: 'notFound',
  method: 'get',
  paths: ['/{proxy+}'],
  summary: 'Unknown route',
  tags: ['system'],
  auth: 'none',
  dialect: generalDialect,
  responses: {},
});

export const systemRoutes = [openApiRoute];
