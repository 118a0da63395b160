// Soil samplings (spec 3, Samplings): GET /api/sampling, /api/sampling/analysis and
// /api/sampling/variablelist for extensions; POST /internal/samplings and PATCH
// /internal/samplings/{sampling_uuid} for the platform. docs/decisions.md, "Samplings".
import * as z from 'zod/mini';
import { internalDialect, samplingDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { dateTimeZ, isoDateTime, okData, positiveInteger } from './common';

const samplingRoute = { tags: ['samplings'], auth: 'bearer', dialect: samplingDialect } as const;
const internalRoute = { tags: ['internal'], auth: 'internal', dialect: internalDialect } as const;
const uuid = z.string().check(z.uuid());

const Zoning = z.object({
  info: z
    .record(z.string(), z.string())
    .check(z.describe('map_id, or date, layer, operation, hour, provider of a layer')),
  type: z.string(),
});
/** A group of a sampling's points, as the platform created it. */
const WireGroup = z.object({
  group_uuid: z.string(),
  group_data: z.object({ sampling: z.object({ color: z.string(), name: z.string() }) }),
});
/** A point to sample, of a group. */
const WirePoint = z.object({
  point_uuid: z.string(),
  geometry: z.string().check(z.describe('WKT POINT')),
  checked: z.number(),
  created_at: z.string(),
  group_uuid: z.string(),
});
const Analysis = z
  .record(z.string(), z.array(z.object({ name: z.string(), unit_id: z.number().check(z.int()) })))
  .check(z.describe('analysis name -> its variables'));

export const listSamplingsRoute = defineRoute({
  ...samplingRoute,
  operationId: 'listSamplings',
  handler: 'functions/samplings/samplings.get',
  method: 'get',
  paths: ['/api/sampling'],
  summary: 'The samplings of a field, or one by uuid, with groups, samples (spots of the sample set) and points',
  request: {
    query: z.object({
      field_id: z.optional(positiveInteger()),
      sampling_uuid: z.optional(uuid).check(z.describe('wins over field_id')),
    }),
  },
  responses: {
    200: {
      description: 'samplings',
      schema: z.object({ code: z.literal(0), data: z.array(z.record(z.string(), z.unknown())) }),
    },
  },
  ...growingList,
});

export const samplingAnalysisRoute = defineRoute({
  ...samplingRoute,
  operationId: 'listSamplingAnalyses',
  handler: 'functions/samplings/samplings.analysis',
  method: 'get',
  paths: ['/api/sampling/analysis'],
  summary: 'What the samplings of a field, a farm or one sampling analyse',
  request: {
    query: z.object({
      field_id: z.optional(positiveInteger()),
      farm_id: z.optional(positiveInteger()),
      sampling_uuid: z.optional(uuid),
    }),
  },
  responses: {
    200: {
      description: 'analyses',
      schema: z.object({
        code: z.literal(0),
        data: z.array(
          z.object({
            farm_id: z.number().check(z.int()),
            field_id: z.number().check(z.int()),
            sampling_name: z.string(),
            sampling_uuid: z.string(),
            sample_set_uuid: z.string(),
            zoning: Zoning,
            analysis: Analysis,
          }),
        ),
      }),
    },
  },
  ...growingList,
});

export const variableListRoute = defineRoute({
  ...samplingRoute,
  operationId: 'listSamplingVariableLists',
  handler: 'functions/samplings/samplings.variablelist',
  method: 'get',
  paths: ['/api/sampling/variablelist'],
  summary: "The platform's variable lists (values a sample variable may take)",
  responses: {
    200: {
      description: 'variable lists',
      schema: z.object({
        code: z.literal(0),
        variablelist: z.array(
          z.object({
            list_name: z.string(),
            variablelist_uuid: z.string(),
            items: z.array(z.object({ name: z.string(), value: z.number() })),
          }),
        ),
      }),
    },
  },
});

export const analysisLayerTypesRoute = defineRoute({
  ...samplingRoute,
  operationId: 'analysisLayerTypes',
  handler: 'functions/samplings/layers.catalogue',
  method: 'get',
  paths: ['/api/sampling/analysis_variable/layer_type'],
  summary: 'For each depth range (0-20, 20-30, ... 140-150 cm), each analysis with the layer its samples make',
  responses: {
    200: {
      description: 'by depth range, then analysis name',
      schema: z.object({
        code: z.literal('OK'),
        data: z.record(
          z.string(),
          z.record(
            z.string(),
            z.object({
              operation: z.string(),
              layer_name: z.string(),
              id_layer: z.number().check(z.int(), z.describe('ours: the layer type id')),
            }),
          ),
        ),
      }),
    },
  },
});

export const RasterizeBody = z.object({
  layers: z
    .array(
      z.object({
        analysis: z.string().check(z.minLength(1), z.maxLength(200), z.describe('an analysis of the sampling')),
        variable_name: z.string().check(z.minLength(1), z.maxLength(200), z.describe('a variable its samples hold')),
        layer_date: dateTimeZ().check(z.describe('YYYY-MM-DDT00:00:00Z')),
        layer_name: z
          .string()
          .check(
            z.minLength(1),
            z.maxLength(100),
            z.describe('a layer type name, e.g. MO_20 (GET api/sampling/analysis_variable/layer_type)'),
          ),
      }),
    )
    .check(z.minLength(1), z.maxLength(20)),
  interpolation_polygon: z
    .boolean()
    .check(
      z.describe(
        "false: the samples kriged; true: each polygon of the sampling's map (or the field) takes the mean of its samples",
      ),
    ),
});

export const rasterizeSamplingRoute = defineRoute({
  ...samplingRoute,
  operationId: 'rasterizeSampling',
  handler: 'functions/samplings/layers.rasterize',
  touches: { table: 'read', sends: ['imageryUrgent'], files: { 'uploads/': ['put'] } },
  method: 'post',
  paths: ['/api/sampling/{sampling_uuid}/rasterize'],
  summary: 'One layer per item from the values of the samples (made by the imagery worker; response designed here)',
  request: { path: z.object({ sampling_uuid: uuid }), body: RasterizeBody },
  responses: {
    200: {
      description: 'the layers queued',
      schema: okData(
        z.object({
          job_ids: z.array(z.string()).check(z.describe('one layer job per layer_date')),
          field_id: z.number().check(z.int()),
          layers: z.array(
            z.object({
              column: z.string(),
              id_layer: z.number().check(z.int()),
              layer_name: z.string(),
              operation: z.string(),
              date: z.string(),
              interpolation: z.string(),
            }),
          ),
        }),
      ),
    },
  },
});

export const CreateSamplingBody = z.object({
  sampling_uuid: z.optional(uuid).check(z.describe('makes the call idempotent')),
  sampling_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  field_id: positiveInteger(),
  yeargroup: z.number().check(z.int(), z.gte(1900), z.lte(2200)),
  sample_set_uuid: z
    .optional(uuid)
    .check(z.describe('the sample set whose spots are the samples; generated when absent')),
  group_assigned_id: z.optional(z.number().check(z.int())),
  zoning: Zoning,
  analysis: Analysis,
  groups: z
    .array(
      z.object({
        group_uuid: z.optional(uuid),
        color: z.string().check(z.maxLength(20)),
        name: z.string().check(z.maxLength(200)),
      }),
    )
    .check(z.maxLength(200)),
  points: z
    .array(
      z.object({
        point_uuid: z.optional(uuid),
        geometry: z.string().check(z.maxLength(200), z.describe('WKT POINT')),
        group_uuid: uuid,
        checked: z.optional(z.number()),
      }),
    )
    .check(z.maxLength(2000)),
});

export const createSamplingRoute = defineRoute({
  ...internalRoute,
  operationId: 'internalCreateSampling',
  handler: 'functions/samplings/internal.post',
  touches: { table: 'write' },
  method: 'post',
  paths: ['/internal/samplings'],
  summary: 'Create a sampling of a field (the platform creates samplings, not extensions)',
  request: { body: CreateSamplingBody },
  responses: {
    200: {
      description: 'the sampling',
      schema: okData(
        z.object({
          sampling_uuid: z.string(),
          sample_set_uuid: z.string(),
          groups: z.array(WireGroup),
          points: z.array(WirePoint),
        }),
      ),
    },
  },
});

export const closeSamplingRoute = defineRoute({
  ...internalRoute,
  operationId: 'internalCloseSampling',
  handler: 'functions/samplings/internal.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: ['/internal/samplings/{sampling_uuid}'],
  summary: 'Close a sampling (closed_at), or open it again (null)',
  request: { path: z.object({ sampling_uuid: uuid }), body: z.object({ closed_at: z.nullable(isoDateTime()) }) },
  responses: {
    200: {
      description: 'the sampling',
      schema: okData(z.object({ sampling_uuid: z.string(), closed_at: z.nullable(z.string()) })),
    },
  },
});

export const samplingRoutes = [
  listSamplingsRoute,
  samplingAnalysisRoute,
  variableListRoute,
  analysisLayerTypesRoute,
  rasterizeSamplingRoute,
  createSamplingRoute,
  closeSamplingRoute,
];
