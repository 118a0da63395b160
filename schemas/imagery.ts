// Imagery layers (spec 2, Imagery layers, Layer type catalogue, GET /api/fields/ndvi): the dates of
// a field's layers, its NDVI series, an image of one date and operation, and the layer types.
// Rules in lib/imagery (docs/imagery.md).
import * as z from 'zod/mini';
import { generalDialect, imageryDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { MAX_EPSG } from '../lib/imagery/epsg';
import { HISTOGRAM_BINS, LAYER_FILE_LIMITS, PERCENTILES } from '../lib/imagery/layer-limits';
import { SATELLITE_OPERATIONS } from '../lib/imagery/layers';
import type { ScaleInput } from '../lib/imagery/scale-templates';
import { DISTRIBUTIONS, SCALE_LIMITS, type ScaleTemplate } from '../lib/imagery/scales';
import { isDateTimeZ } from '../lib/util/time';
import { booleanLike, calendarDate, dateTimeZ, positiveInteger } from './common';

const imageryRoute = { tags: ['imagery'], auth: 'bearer', dialect: imageryDialect } as const;

/** Largest width or height of a rendered image, in pixels. */
export const MAX_IMAGE_SIDE = 4096;
export const IMAGE_FORMATS = ['image/png', 'image/tiff', 'image/encoded'] as const;

const DateEntry = z.object({
  date: z.string().check(z.describe('acquisition time, YYYY-MM-DDTHH:mm:ssZ (give it to /api/geoserver/v2 as date)')),
  min: z.number().check(z.describe('least NDVI inside the perimeter')),
  max: z.number().check(z.describe('greatest NDVI inside the perimeter')),
  cloudy: z.boolean().check(z.describe('at least 5% of the pixels inside the field are cloudy')),
  metadata: z.optional(z.record(z.string(), z.unknown())),
});

export const layerDatesRoute = defineRoute({
  ...imageryRoute,
  operationId: 'layerDates',
  handler: 'functions/imagery/dates.get',
  method: 'get',
  paths: ['/api/layers/dates/v3'],
  summary: 'The layers of a field the caller reads, each with its operations and its dates (newest first)',
  request: { query: z.object({ field_id: positiveInteger() }) },
  responses: {
    200: {
      description: `layers keyed by layer name; the satellite layer has the operations ${SATELLITE_OPERATIONS.map((o) => o.operation).join(', ')}`,
      schema: z.object({
        code: z.literal(0),
        layers: z.record(
          z.string(),
          z.object({
            operations: z.array(z.object({ operation: z.string(), name: z.string() })),
            dates: z.array(DateEntry),
          }),
        ),
      }),
    },
  },
  ...growingList,
});

export const fieldNdviRoute = defineRoute({
  tags: ['fields'],
  auth: 'bearer',
  dialect: generalDialect,
  operationId: 'fieldNdvi',
  handler: 'functions/imagery/ndvi.get',
  method: 'get',
  paths: ['/api/fields/ndvi'],
  summary: 'Mean NDVI of a field per cloud-free date (oldest first), optionally between two days (inclusive)',
  request: {
    query: z.object({
      field_id: positiveInteger(),
      date_from: z.optional(calendarDate()),
      date_to: z.optional(calendarDate()),
    }),
  },
  responses: {
    200: {
      description: 'the series',
      schema: z.object({
        ndvi: z.array(z.object({ date: z.string().check(z.describe('YYYY-MM-DD')), ndvi_mean: z.number() })),
        code: z.literal(0),
        field_id: z.number().check(z.int()),
      }),
    },
  },
  ...growingList,
});

const bboxText = z.pipe(
  z.string().check(z.trim()),
  z.transform((value, ctx) => {
    const parts = value.split(',').map((part) => Number(part.trim()));
    if (
      parts.length !== 4 ||
      parts.some((n) => !Number.isFinite(n)) ||
      value.split(',').some((part) => part.trim() === '')
    ) {
      ctx.issues.push({ code: 'custom', message: 'bbox is xmin,ymin,xmax,ymax: four numbers', input: value });
      return z.NEVER;
    }
    const [xmin, ymin, xmax, ymax] = parts as [number, number, number, number];
    if (xmin >= xmax || ymin >= ymax) {
      ctx.issues.push({ code: 'custom', message: 'bbox needs xmin < xmax and ymin < ymax', input: value });
      return z.NEVER;
    }
    return [xmin, ymin, xmax, ymax] as [number, number, number, number];
  }),
);
const side = () =>
  z.pipe(positiveInteger(), z.number().check(z.lte(MAX_IMAGE_SIDE, `at most ${MAX_IMAGE_SIDE} pixels`)));

export const GeoserverQuery = z
  .object({
    field_id: positiveInteger(),
    layer_name: z.string().check(z.minLength(1), z.maxLength(100)),
    operation: z.string().check(z.minLength(1), z.maxLength(50)),
    date: dateTimeZ(),
    format: z._default(z.enum(IMAGE_FORMATS), 'image/png'),
    epsg: z.optional(
      positiveInteger().check(
        z.refine((code) => code <= MAX_EPSG, 'epsg must be an EPSG code'),
        z.describe(
          'an EPSG code of the EPSG registry (4326, 3857, UTM zones, SIRGAS 2000 4674, POSGAR 2007 5343-5349, ...); an unknown code is a 400',
        ),
      ),
    ),
    bbox: z
      .optional(bboxText)
      .check(z.describe('xmin,ymin,xmax,ymax in the EPSG of the image; requires width and height')),
    width: z.optional(side()).check(z.describe('requires bbox and height')),
    height: z.optional(side()).check(z.describe('requires bbox and width')),
    transparent: z
      ._default(booleanLike(), false)
      .check(z.describe('mask pixels outside the field (PNG alpha 0, TIFF NODATA)')),
    scale_template_id: z
      .optional(positiveInteger())
      .check(z.describe("ours: colour the PNG with one of the caller's scale templates (its layer and operation)")),
  })
  .check(
    z.superRefine((query, ctx) => {
      const given = [query.bbox, query.width, query.height].filter((value) => value !== undefined).length;
      if (given !== 0 && given !== 3)
        ctx.addIssue({ code: 'custom', message: 'bbox, width and height go together: send all three or none' });
    }),
  );

export const geoserverRoute = defineRoute({
  ...imageryRoute,
  operationId: 'renderLayer',
  handler: 'functions/imagery/geoserver.get',
  touches: { files: { 'imagery/': ['get'] } },
  method: 'get',
  paths: ['/api/geoserver/v2'],
  summary: 'An image of one operation of one date of a layer of a field: PNG, GeoTIFF or encoded PNG (docs/imagery.md)',
  request: { query: GeoserverQuery },
  responses: {
    200: {
      description: 'image/png or image/tiff',
      contentType: ['image/png', 'image/tiff'],
      schema: z.string().check(z.describe('binary')),
    },
  },
});

export const layerTypesRoute = defineRoute({
  ...imageryRoute,
  operationId: 'layerTypes',
  handler: 'functions/imagery/types.get',
  method: 'get',
  paths: ['/api/layers/types'],
  summary:
    'The layer type catalogue: every id with its name (fixed entries and depth families; not shown in the contract)',
  responses: {
    200: {
      description: 'by id',
      schema: z.object({
        code: z.literal(0),
        layer_types: z.array(z.object({ id: z.number().check(z.int()), nombre: z.string() })),
      }),
    },
  },
});

// --- scale templates (GET is the spec's; create, change and delete are ours: docs/imagery.md) ---

const byte = z.number().check(z.int(), z.gte(0), z.lte(255));
const finite = () => z.number();
const SCALE_PATH = '/api/layers/scale_template';
const scaleFields = {
  template_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(SCALE_LIMITS.NAME)),
  layer_name: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(SCALE_LIMITS.TEXT),
      z.describe('a layer type name (GET /api/layers/types), e.g. sentinel2 or rinde'),
    ),
  operation: z
    .string()
    .check(z.minLength(1), z.maxLength(SCALE_LIMITS.TEXT), z.describe('for sentinel2: ndvi1, gndvi1, msavi2 or ndre')),
  palette: z.string().check(z.maxLength(SCALE_LIMITS.TEXT)),
  type_distribution: z
    .enum(DISTRIBUTIONS)
    .check(z.describe('equidistant: the scale boundaries as given; quantiles: as many pixels in each interval')),
  cant_intervals: z.number().check(z.int(), z.gte(1), z.lte(SCALE_LIMITS.INTERVALS)),
  range_min: finite(),
  range_max: finite(),
  hierarchy: z.array(z.string().check(z.maxLength(SCALE_LIMITS.TEXT))).check(z.maxLength(SCALE_LIMITS.HIERARCHY)),
  colors_scale: z.strictObject({
    colors: z
      .array(z.tuple([byte, byte, byte]))
      .check(z.minLength(1), z.maxLength(SCALE_LIMITS.INTERVALS), z.describe('one [R, G, B] per interval')),
    scale: z
      .array(finite())
      .check(
        z.minLength(2),
        z.maxLength(SCALE_LIMITS.INTERVALS + 1),
        z.describe('cant_intervals + 1 ascending boundaries within range_min..range_max'),
      ),
  }),
};
export const WireScaleTemplate = z.object({ scale_template_id: z.number().check(z.int()), ...scaleFields });
export const CreateScaleBody = z.strictObject({
  ...scaleFields,
  palette: z._default(scaleFields.palette, ''),
  hierarchy: z._default(scaleFields.hierarchy, []),
});
export const PatchScaleBody = z.strictObject({
  scale_template_id: positiveInteger(),
  ...z.partial(z.object(scaleFields)).shape,
});

export const wireScaleTemplate = (t: ScaleTemplate): z.infer<typeof WireScaleTemplate> => ({
  scale_template_id: t.id,
  template_name: t.name,
  layer_name: t.layerName,
  operation: t.operation,
  palette: t.palette,
  type_distribution: t.distribution,
  cant_intervals: t.intervals,
  range_min: t.rangeMin,
  range_max: t.rangeMax,
  hierarchy: t.hierarchy,
  colors_scale: { colors: t.colors, scale: t.scale },
});

/** The service's form of a (partial) wire template. */
export const scaleInput = (body: Partial<z.infer<typeof CreateScaleBody>>): Partial<ScaleInput> => ({
  name: body.template_name,
  layerName: body.layer_name,
  operation: body.operation,
  palette: body.palette,
  distribution: body.type_distribution,
  intervals: body.cant_intervals,
  rangeMin: body.range_min,
  rangeMax: body.range_max,
  hierarchy: body.hierarchy,
  colors: body.colors_scale?.colors,
  scale: body.colors_scale?.scale,
});

export const listScaleTemplatesRoute = defineRoute({
  ...imageryRoute,
  operationId: 'listScaleTemplates',
  record: 'scale_template',
  handler: 'functions/imagery/scale-templates.get',
  method: 'get',
  paths: [SCALE_PATH],
  summary: "The caller's scale templates (the user's, shared by the extensions acting for the user)",
  responses: {
    200: {
      description: 'by id',
      schema: z.object({ scale_templates: z.array(WireScaleTemplate), code: z.literal('RETRIEVED_SCALE_TEMPLETES') }),
    },
  },
});

export const createScaleTemplateRoute = defineRoute({
  ...imageryRoute,
  operationId: 'createScaleTemplate',
  record: 'scale_template',
  handler: 'functions/imagery/scale-templates.post',
  touches: { table: 'write' },
  method: 'post',
  paths: [SCALE_PATH],
  summary: 'Create a scale template (not shown in the contract; docs/imagery.md)',
  request: { body: CreateScaleBody },
  responses: {
    200: {
      description: 'created',
      schema: z.object({ scale_template: WireScaleTemplate, code: z.literal('CREATED_SCALE_TEMPLATE') }),
    },
  },
});

export const patchScaleTemplateRoute = defineRoute({
  ...imageryRoute,
  operationId: 'patchScaleTemplate',
  record: 'scale_template',
  handler: 'functions/imagery/scale-templates.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: [SCALE_PATH],
  summary: 'Change what is sent of a scale template of the caller (not shown in the contract)',
  request: { body: PatchScaleBody },
  responses: {
    200: {
      description: 'changed',
      schema: z.object({ scale_template: WireScaleTemplate, code: z.literal('UPDATED_SCALE_TEMPLATE') }),
    },
  },
});

export const deleteScaleTemplateRoute = defineRoute({
  ...imageryRoute,
  operationId: 'deleteScaleTemplate',
  record: 'scale_template',
  handler: 'functions/imagery/scale-templates.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: [SCALE_PATH],
  summary: 'Delete a scale template of the caller (not shown in the contract)',
  request: { query: z.object({ scale_template_id: positiveInteger() }) },
  responses: { 200: { description: 'deleted', schema: z.object({ code: z.literal('DELETED_SCALE_TEMPLATE') }) } },
});

// --- layers from files (spec 2, "Creating a layer from a file"; docs/imagery.md "Layers from files") ---

const finiteOrNull = () => z.optional(z.nullable(z.number()));
const ColumnStatsWire = z.nullable(
  z.object({
    count: z.number().check(z.int()),
    min: z.number(),
    max: z.number(),
    mean: z.number(),
    std: z.number().check(z.describe('population standard deviation')),
    percentiles: z
      .record(z.string(), z.number())
      .check(z.describe(`p${PERCENTILES.join(', p')} (linear interpolation between ranks)`)),
  }),
);
const HistogramWire = z.nullable(
  z.object({
    bins: z
      .array(z.number())
      .check(z.describe(`${HISTOGRAM_BINS} + 1 edges from min to max (2 when all values are equal)`)),
    counts: z.array(z.number().check(z.int())),
  }),
);

export const uploadLayerFileRoute = defineRoute({
  ...imageryRoute,
  operationId: 'uploadLayerFile',
  handler: 'functions/imagery/layer-files.upload',
  touches: { table: 'write', files: { 'uploads/': ['put'] } },
  method: 'post',
  paths: ['/files'],
  summary:
    "Step 1 of a layer from a file: a zip of a shapefile, csv, txt or xlsx; the caller's field it lies on, its numeric columns, their statistics and histograms",
  description:
    `multipart/form-data, the zip under \`file\`. Files of at most ${LAYER_FILE_LIMITS.FILE_BYTES / 1024 / 1024} MiB, zips of at most ${LAYER_FILE_LIMITS.ZIP_ENTRIES} entries and ` +
    `${LAYER_FILE_LIMITS.UNZIPPED_BYTES / 1024 / 1024} MiB uncompressed, ${LAYER_FILE_LIMITS.FEATURES} features, ${LAYER_FILE_LIMITS.VERTICES} vertices; anything else (not a zip, ` +
    'no readable point or polygon, an entry outside the zip) answers 400 ERROR_ARCHIVO. The features inside the field are kept 24 hours under redis_id for POST /raster.',
  request: { bodyType: 'multipart' },
  maxBodyBytes: 6 * 1024 * 1024,
  responses: {
    200: {
      description: 'the field and the columns, or not_found with the extent of the file',
      schema: z.object({
        data: z.union([
          z.object({
            not_found: z.literal(true),
            lote: z.string().check(z.describe("WKT of the file's extent (EPSG 4326)")),
          }),
          z.object({
            redis_id: z.string().check(z.describe('the upload, for POST /raster (kept 24 hours)')),
            lote_id: z
              .number()
              .check(
                z.int(),
                z.describe('the field holding most of the features, among those the caller may add data to'),
              ),
            columns: z.array(z.string()).check(z.describe('the numeric columns')),
            stats: z
              .record(z.string(), ColumnStatsWire)
              .check(z.describe('per column, over the features inside the field')),
            histograms: z.record(z.string(), HistogramWire),
          }),
        ]),
      }),
    },
  },
});

/** 'YYYY-MM-DD HH:MM:SS' naming a real instant, as YYYY-MM-DDTHH:MM:SSZ. */
const spacedDateTime = () =>
  z.pipe(
    z
      .string()
      .check(
        z.refine(
          (v) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v) && isDateTimeZ(`${v.replace(' ', 'T')}Z`),
          "expected a real date-time 'YYYY-MM-DD HH:MM:SS'",
        ),
      ),
    z.transform((v) => `${v.replace(' ', 'T')}Z`),
  );

export const LayerSettings = z.strictObject({
  id_layer: positiveInteger().check(z.describe('a layer type id (GET /api/layers/types), not a satellite layer')),
  mean: finiteOrNull().check(
    z.describe('rescale the layer so that its mean inside the field is this (yield calibration)'),
  ),
  min: finiteOrNull().check(z.describe('outlier bound: values below are dropped before interpolating')),
  max: finiteOrNull().check(z.describe('outlier bound: values above are dropped before interpolating')),
  meta: z
    .optional(
      z.object({
        numerador_media: z.optional(z.nullable(z.string().check(z.maxLength(50)))),
        denominador_media: z.optional(z.nullable(z.string().check(z.maxLength(50)))),
      }),
    )
    .check(z.describe('the unit, kept with the layer (dates v3 metadata)')),
  interpolation_type: z
    .optional(z.nullable(z.enum(['kriging', 'idw'])))
    .check(
      z.describe(
        'points: kriging (ordinary, fitted variogram) or idw (inverse distance, the default); polygons are rasterized',
      ),
    ),
});

export const CreateLayersBody = z.object({
  redis_id: z.string().check(z.regex(/^[0-9a-f]{32}$/, 'redis_id is the id POST /files answered')),
  date: spacedDateTime(),
  lote_id: positiveInteger(),
  data: z.record(z.string().check(z.minLength(1), z.maxLength(200)), LayerSettings).check(
    z.refine((data) => Object.keys(data).length >= 1 && Object.keys(data).length <= 20, 'data holds 1 to 20 columns'),
    z.describe('one layer per key: the column name and how to make it'),
  ),
});

const QueuedLayers = z.object({
  job_id: z
    .string()
    .check(z.describe('the layer job (the imagery worker makes the layers; dates v3 lists each when stored)')),
  field_id: z.number().check(z.int()),
  layers: z.array(
    z.object({
      column: z.string(),
      id_layer: z.number().check(z.int()),
      layer_name: z
        .string()
        .check(z.describe("the layer type's nombre: the layer name and its one operation for /api/geoserver/v2")),
      operation: z.string(),
      date: z.string().check(z.describe('YYYY-MM-DDTHH:MM:SSZ')),
      interpolation: z.string(),
    }),
  ),
});

export { QueuedLayers };

export const createLayersRoute = defineRoute({
  ...imageryRoute,
  operationId: 'createLayersFromFile',
  handler: 'functions/imagery/raster.post',
  touches: { table: 'read', sends: ['imageryUrgent'], files: { 'uploads/': ['get'] } },
  method: 'post',
  paths: ['/raster'],
  summary:
    'Step 2 of a layer from a file: one layer per column of the upload, made by the imagery worker (response designed here)',
  request: { body: CreateLayersBody },
  responses: {
    200: { description: 'the layers queued', schema: z.object({ code: z.literal(0), data: QueuedLayers }) },
  },
});

export const imageryRoutes = [
  layerDatesRoute,
  fieldNdviRoute,
  geoserverRoute,
  layerTypesRoute,
  listScaleTemplatesRoute,
  createScaleTemplateRoute,
  patchScaleTemplateRoute,
  deleteScaleTemplateRoute,
  uploadLayerFileRoute,
  createLayersRoute,
];
