// Rotations (spec 2): /api/rotations and /rotations (both forms are served), varieties.
// Requires the Campaign permissions (claim CAMPAIGN); refusals carry code -11.
import * as z from 'zod/mini';
import { Forbidden } from '../lib/errors';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { NOT_ALLOWED_MESSAGE, ROTATION_CODES } from '../lib/rotations/codes';
import type { RotationBatch, RotationRequest, RotationView, VarietyChoice } from '../lib/rotations/service';
import { calendarDate, commaList, dateTimeZ, integer, positiveInteger } from './common';

/** Rotations need the Campaign permissions (spec 2). */
const rotationsRoute = {
  tags: ['rotations'],
  auth: 'bearer',
  dialect: generalDialect,
  claims: ['CAMPAIGN'],
  missingClaim: () => new Forbidden(NOT_ALLOWED_MESSAGE, { code: ROTATION_CODES.NOT_ALLOWED }),
} as const;
const both = (path: string) => [`/api${path}`, path];

const datetime = dateTimeZ();
const date = calendarDate();
const meters = z.enum(['m', 'meters']);
const lengthUnit = z.enum(['m', 'cm']);

/** Rotation metadata keys and enumerations (spec 2, Rotation). */
export const RotationMetadata = z.catchall(
  z.partial(
    z.object({
      DGC: z.pipe(
        z.pipe(z.union([z.string(), z.number().check(z.int())]), z.transform(String)),
        z.string().check(z.regex(/^\d{16}$/, 'DGC is a 16-digit number')),
      ),
      cover_type: z
        .number()
        .check(
          z.int(),
          z.gte(1),
          z.lte(5),
          z.describe(
            '1 bare soil, 2 sown plant cover, 3 spontaneous plant cover, 4 inert cover of pruning remains, 5 inert cover of other materials',
          ),
        ),
      utilization: z.array(z.number().check(z.int())).check(z.maxLength(50)),
      agricultural_activity_details: z.array(z.number().check(z.int())).check(z.maxLength(50)),
      plant_spacing_value: z.number().check(z.nonnegative()),
      plant_spacing_unit: meters,
      crown_projection_free_width: z.number().check(z.nonnegative()),
      crown_projection_free_width_unit: lengthUnit,
      cover_width: z.number().check(z.nonnegative()),
      cover_width_unit: lengthUnit,
      row_spacing_value: z.number().check(z.nonnegative()),
      row_spacing_unit: meters,
      activity_on_cover: z.number().check(z.int()),
      production_type: z.union([z.literal(1), z.literal(2)]).check(z.describe('1 dry, 2 irrigation')),
      cover_date: date,
      flooding_date: date,
    }),
  ),
  z.never(),
);

export const RotationItem = z.object({
  field_id: z.number().check(z.int(), z.positive()),
  crop_id: z.number().check(z.int(), z.positive()),
  yeargroup: z.number().check(z.int(), z.gte(1900), z.lte(2200)),
  ha: z.optional(z.number().check(z.positive())),
  start_date: datetime,
  end_date: datetime,
  yield_crop: z.optional(z.nullable(z.number().check(z.nonnegative()))).check(z.describe('estimated yield, t/ha')),
  metadata: z.optional(z.nullable(RotationMetadata)),
  rotation_uuid: z
    .optional(z.string().check(z.uuid()))
    .check(z.describe('client uuid: sending the same rotation again returns it')),
});

const list = commaList;

/** The spec's filter priority: the first of these sent is applied, the others are ignored (not even checked). */
const FILTERS = {
  fields_id: list(z.pipe(z.string().check(z.regex(/^\d+$/, 'expected field ids')), z.transform(Number))),
  fields_uuid: list(z.string().check(z.uuid())),
  farms_id: list(z.pipe(z.string().check(z.regex(/^\d+$/, 'expected farm ids')), z.transform(Number))),
  farms_uuid: list(z.string().check(z.uuid())),
} as const;
type FilterName = keyof typeof FILTERS;
const PRIORITY = Object.keys(FILTERS) as FilterName[];

export const RotationFilters = z.pipe(
  z.object({
    yeargroup: z.optional(integer()),
    fields_id: z
      .optional(z.string())
      .check(z.describe('comma-separated field ids; when sent, the filters below are ignored')),
    fields_uuid: z
      .optional(z.string())
      .check(z.describe('comma-separated field uuids; when sent (without fields_id), the filters below are ignored')),
    farms_id: z
      .optional(z.string())
      .check(z.describe('comma-separated farm ids; when sent (without field filters), farms_uuid is ignored')),
    farms_uuid: z.optional(z.string()).check(z.describe('comma-separated farm uuids')),
  }),
  z.transform((query, ctx) => {
    const name = PRIORITY.find((filter) => query[filter] !== undefined);
    const chosen: { fields_id?: number[]; fields_uuid?: string[]; farms_id?: number[]; farms_uuid?: string[] } = {};
    if (name) {
      const parsed = FILTERS[name].safeParse(query[name]);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.issues.push({ ...issue, path: [name, ...issue.path], input: query[name] } as never);
        return z.NEVER;
      }
      Object.assign(chosen, { [name]: parsed.data });
    }
    return { yeargroup: query.yeargroup, ...chosen };
  }),
);

const Variety = z.object({
  crop_variety_id: z.number().check(z.int()),
  id: z.number().check(z.int()),
  crop_variety_name: z.string(),
});

export const WireRotation = z.object({
  rotation_uuid: z.string(),
  farm_uuid: z.string(),
  field_uuid: z.string(),
  farm_id: z.number().check(z.int()),
  field_id: z.number().check(z.int()),
  field_name: z.string(),
  crop_id: z.number().check(z.int()),
  crop_name: z.nullable(z.string()),
  yeargroup: z.number().check(z.int()),
  start_date: z.string(),
  end_date: z.string(),
  cicle_id: z.number().check(z.int()),
  crop_order: z.number().check(z.int()),
  ha: z.number(),
  yield_crop: z.nullable(z.number()),
  map_id: z.nullable(z.number().check(z.int())),
  varieties: z.nullable(z.array(Variety)),
  surface_unit: z.null(),
  metadata: z.nullable(z.record(z.string(), z.unknown())),
});

const varietiesOf = (view: RotationView) =>
  view.varietyIds.map((id) => ({
    crop_variety_id: id,
    id,
    crop_variety_name: view.crop?.varieties.find((v) => v.id === id)?.name ?? String(id),
  }));

export const wireRotation = (view: RotationView): z.infer<typeof WireRotation> => ({
  rotation_uuid: view.uuid,
  farm_uuid: view.farm.uuid,
  field_uuid: view.field.uuid,
  farm_id: view.farm.id,
  field_id: view.field.id,
  field_name: view.field.name,
  crop_id: view.cropId,
  crop_name: view.crop?.name ?? null,
  yeargroup: view.yeargroup,
  start_date: view.startDate,
  end_date: view.endDate,
  cicle_id: view.cycleId,
  crop_order: view.cropOrder,
  ha: view.ha,
  yield_crop: view.yieldCrop,
  map_id: view.mapId,
  varieties: view.varietyIds.length ? varietiesOf(view) : null,
  surface_unit: null,
  metadata: view.metadata,
});

/**
 * POST's items as the service takes them: each one read on its own (the spec answers a malformed
 * item among the refused ones, with its reason, instead of refusing the batch).
 */
export const rotationRequests = (body: unknown[]): RotationRequest[] =>
  body.map((raw) => {
    const parsed = RotationItem.safeParse(raw);
    if (!parsed.success)
      return { malformed: parsed.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; ') };
    const item = parsed.data;
    return {
      input: {
        fieldId: item.field_id,
        cropId: item.crop_id,
        yeargroup: item.yeargroup,
        startDate: item.start_date,
        endDate: item.end_date,
        ha: item.ha,
        yieldCrop: item.yield_crop,
        metadata: item.metadata,
        uuid: item.rotation_uuid,
      },
    };
  });

/** POST's answer: the rotations created, and each refused item as sent, with its reason. */
export const wireRotationBatch = (body: unknown[], { created, refused }: RotationBatch) => {
  const echoed = (raw: unknown) => (raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : { item: raw });
  return {
    created_ones: created.map(wireRotation),
    unabled_to_be_created: refused.map(({ index, code, message }) => ({
      ...echoed(body[index]),
      reason: { error_code: code, error_msg: message },
    })),
  };
};

/** PATCH answers these keys (spec 2, Rotations). */
export const patchedRotation = (view: RotationView) => {
  const first = view.varietyIds.length ? varietiesOf(view)[0] : undefined;
  return {
    crop_variety_id: first?.crop_variety_id ?? null,
    crop_variety_name: first?.crop_variety_name ?? null,
    crop_order: view.cropOrder,
    end_date: view.endDate,
    yeargroup: view.yeargroup,
    field_id: view.fieldId,
    crop_id: view.cropId,
    crop_name: view.crop?.name ?? null,
    cicle_id: view.cycleId,
    rotation_uuid: view.uuid,
    ha: view.ha,
    start_date: view.startDate,
  };
};

export const wireVarieties = (choices: VarietyChoice[]) => ({
  varieties: choices.map((c) => ({ variety_id: c.id, variety_name: c.name, selected: c.selected })),
});

const RotationPath = z.object({ rotation_uuid: z.string().check(z.uuid('rotation_uuid must be a UUID')) });
const VarietiesResponse = z.object({
  varieties: z.array(
    z.object({ variety_id: z.number().check(z.int()), variety_name: z.string(), selected: z.boolean() }),
  ),
});
export const MAX_ROTATIONS_PER_REQUEST = 100;

export const listRotationsRoute = defineRoute({
  ...rotationsRoute,
  operationId: 'listRotations',
  handler: 'functions/rotations/rotations.list',
  method: 'get',
  paths: both('/rotations'),
  summary:
    'Rotations of every campaign of the fields the user can read (filters: fields_id, else fields_uuid, else farms_id, else farms_uuid; and yeargroup)',
  request: { query: RotationFilters },
  responses: { 200: { description: 'the rotations', schema: z.object({ data: z.array(WireRotation) }) } },
  ...growingList,
});

export const getRotationRoute = defineRoute({
  ...rotationsRoute,
  operationId: 'getRotation',
  record: 'rotation',
  handler: 'functions/rotations/rotations.get',
  method: 'get',
  paths: both('/rotations/{rotation_uuid}'),
  summary: 'One rotation (query filters are ignored)',
  request: { path: RotationPath },
  responses: { 200: { description: 'the rotation', schema: z.object({ data: WireRotation }) } },
});

export const createRotationsRoute = defineRoute({
  ...rotationsRoute,
  operationId: 'createRotations',
  record: 'rotation',
  handler: 'functions/rotations/rotations.post',
  touches: { table: 'write' },
  method: 'post',
  paths: both('/rotations'),
  summary: 'Create rotations; each item succeeds or is listed with its reason',
  description: `At most ${MAX_ROTATIONS_PER_REQUEST} items. Reasons: -4 wrong data format, -11 not allowed, -12 invalid crop, -13 end before start, -14 ha above the field's area.`,
  request: {
    body: z.array(z.unknown()).check(z.maxLength(MAX_ROTATIONS_PER_REQUEST), z.describe('items as RotationItem')),
  },
  responses: {
    200: {
      description: 'created and refused items',
      schema: z.object({
        data: z.object({
          created_ones: z.array(WireRotation),
          unabled_to_be_created: z.array(z.record(z.string(), z.unknown())),
        }),
      }),
    },
  },
});

export const RotationPatch = z.object({
  ha: z.optional(z.number().check(z.positive())),
  crop_id: z.optional(z.number().check(z.int(), z.positive())),
  start_date: z.optional(datetime),
  end_date: z.optional(datetime),
});

export const patchRotationRoute = defineRoute({
  ...rotationsRoute,
  operationId: 'patchRotation',
  record: 'rotation',
  handler: 'functions/rotations/rotations.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/rotations/{rotation_uuid}'),
  summary: 'Change ha, crop_id, start_date or end_date of a rotation (other keys are ignored)',
  request: { path: RotationPath, body: RotationPatch },
  responses: { 200: { description: 'the rotation', schema: z.record(z.string(), z.unknown()) } },
});

export const getVarietiesRoute = defineRoute({
  ...rotationsRoute,
  operationId: 'getRotationVarieties',
  record: 'rotation',
  handler: 'functions/rotations/varieties.get',
  method: 'get',
  paths: both('/rotations/variety/{rotation_uuid}'),
  summary: "The varieties of the rotation's crop (selected: assigned to the rotation)",
  request: { path: RotationPath },
  responses: { 200: { description: 'varieties', schema: VarietiesResponse } },
});

export const addVarietiesRoute = defineRoute({
  ...rotationsRoute,
  operationId: 'addRotationVarieties',
  record: 'rotation',
  handler: 'functions/rotations/varieties.post',
  touches: { table: 'write' },
  method: 'post',
  paths: both('/rotations/variety/{rotation_uuid}'),
  summary: 'Assign varieties (of its crop) to the rotation',
  request: {
    path: RotationPath,
    body: z.object({ varieties: z.array(z.number().check(z.int(), z.positive())).check(z.minLength(1)) }),
  },
  responses: { 200: { description: 'varieties', schema: VarietiesResponse } },
});

export const removeVarietyRoute = defineRoute({
  ...rotationsRoute,
  operationId: 'removeRotationVariety',
  record: 'rotation',
  handler: 'functions/rotations/varieties.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: both('/rotations/variety/{rotation_uuid}'),
  summary: 'Remove a variety from the rotation',
  request: { path: RotationPath, query: z.object({ variety_id: positiveInteger() }) },
  responses: { 200: { description: 'varieties', schema: VarietiesResponse } },
});

export const rotationRoutes = [
  listRotationsRoute,
  getRotationRoute,
  createRotationsRoute,
  patchRotationRoute,
  getVarietiesRoute,
  addVarietiesRoute,
  removeVarietyRoute,
];
