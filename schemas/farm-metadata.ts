// Farm metadata (spec 3): GET/PATCH /api/farms/metadata.
import * as z from 'zod/mini';
import { metadataDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { JSON_OBJECT_LIMITS, jsonObject } from './common';

const metadataRoute = { tags: ['farm metadata'], auth: 'bearer', dialect: metadataDialect } as const;

export const GetMetadataQuery = z.object({
  farms_id: z
    .optional(
      z.pipe(
        z.pipe(
          z
            .string()
            .check(z.maxLength(2000), z.regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'farms_id must be comma-separated farm ids')),
          z.transform((value) => value.split(',').map((id) => Number(id.trim()))),
        ),
        z.array(z.number()).check(z.maxLength(100, 'at most 100 farm ids')),
      ),
    )
    .check(z.describe('comma-separated farm ids; all accessible farms when absent')),
});

export const PatchMetadataBody = z.object({
  farm_id: z.number().check(z.int(), z.positive()),
  metadata: jsonObject().check(
    z.describe(
      `keys to set; a key sent as null is removed. Keys of 1 to ${JSON_OBJECT_LIMITS.KEY_CHARS} characters, at most ${JSON_OBJECT_LIMITS.DEPTH} levels of nesting`,
    ),
  ),
});

export const getMetadataRoute = defineRoute({
  ...metadataRoute,
  operationId: 'getFarmMetadata',
  record: 'farm_metadata',
  handler: 'functions/farm-metadata/metadata.get',
  method: 'get',
  paths: ['/api/farms/metadata'],
  summary: 'Metadata of the given farms, or of every farm the user can access',
  request: { query: GetMetadataQuery },
  responses: {
    200: {
      description: 'metadata by farm id',
      schema: z.object({ data: z.record(z.string(), z.object({ metadata: z.record(z.string(), z.unknown()) })) }),
    },
  },
  ...growingList,
});

export const patchMetadataRoute = defineRoute({
  ...metadataRoute,
  operationId: 'patchFarmMetadata',
  record: 'farm_metadata',
  handler: 'functions/farm-metadata/metadata.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: ['/api/farms/metadata'],
  summary: "Merge keys into a farm's metadata (needs edit permission on the farm)",
  request: { body: PatchMetadataBody },
  responses: {
    200: {
      description: 'the updated metadata',
      schema: z.object({ data: z.object({ metadata: z.record(z.string(), z.unknown()) }) }),
    },
  },
});

export const farmMetadataRoutes = [getMetadataRoute, patchMetadataRoute];
