// Season shapes (spec 2): POST /api/fields/v2/shapes, GET /api/fields/v2/shape/lock,
// GET /api/fields/v2/shape/limits. Errors: `{code, msg}` with the spec's codes.
import * as z from 'zod/mini';
import { Forbidden } from '../lib/errors';
import { GEOMETRY_ROUTE_MAX_BYTES } from '../lib/geo/bounds';
import { shapesDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';
import { positiveInteger } from './common';

const shapesRoute = { tags: ['season shapes'], auth: 'bearer', dialect: shapesDialect } as const;

export const PostShapeBody = z.object({
  field_id: z.number().check(z.int(), z.gte(1)),
  campaign: z.number().check(z.int(), z.gte(1)),
  shape: z.string().check(z.minLength(1), z.describe('WKT POLYGON in EPSG 4326')),
});

export const FieldQuery = z.object({ field_id: positiveInteger() });

export const postShapeRoute = defineRoute({
  ...shapesRoute,
  operationId: 'postSeasonShape',
  handler: 'functions/season-shapes/shapes.post',
  claims: ['SHAPES_EDIT'],
  missingClaim: () => new Forbidden('the create-field and modify-campaign options are not enabled (claim SHAPES_EDIT)'),
  touches: { table: 'write', sends: ['events'] },
  method: 'post',
  paths: ['/api/fields/v2/shapes'],
  summary: 'Create or replace the polygon of a field for one campaign (later campaigns take it too)',
  description:
    'Needs permission 220 (modify field shape) over the field and the claim SHAPES_EDIT. While the images of a previous shape are reprocessed the answer is REPROCESSING.',
  request: { body: PostShapeBody },
  maxBodyBytes: GEOMETRY_ROUTE_MAX_BYTES,
  responses: {
    200: {
      description: 'the shape was saved',
      schema: z.object({ info: z.literal('shape was created'), data: z.object({ images_reprocessing: z.boolean() }) }),
    },
  },
});

export const shapeLockRoute = defineRoute({
  ...shapesRoute,
  operationId: 'getSeasonShapeLock',
  handler: 'functions/season-shapes/lock.get',
  method: 'get',
  paths: ['/api/fields/v2/shape/lock'],
  summary: 'Whether the polygon of the field can be modified now (REPROCESSING while images are processed)',
  request: { query: FieldQuery },
  responses: {
    200: {
      description: 'the shape can be modified',
      schema: z.object({ info: z.literal('allowed'), data: z.object({ images_reprocessing: z.literal(false) }) }),
    },
  },
});

export const shapeLimitsRoute = defineRoute({
  ...shapesRoute,
  operationId: 'getSeasonShapeLimits',
  handler: 'functions/season-shapes/limits.get',
  method: 'get',
  paths: ['/api/fields/v2/shape/limits'],
  summary: 'The area a new shape of the field must stay within, in EPSG 4326 and 3857',
  request: { query: FieldQuery },
  responses: {
    200: {
      description: 'the limits',
      schema: z.object({
        info: z.literal('shape expansion limits retrieved'),
        data: z.object({ limits_4326: z.string(), limits_3857: z.string() }),
      }),
    },
  },
});

export const seasonShapeRoutes = [postShapeRoute, shapeLockRoute, shapeLimitsRoute];
