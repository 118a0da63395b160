// Labours (spec 3): GET /activities/labour with the spec's filters and paging; POST, PATCH and
// DELETE (not shown by the spec; the contract is docs/decisions.md, "Labours"). Served with and
// without /api. Every route needs the View season feature (claim SEASON_VIEW).
import * as z from 'zod/mini';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';
import { seasonViewRequired } from '../lib/labours/codes';
import {
  type Amount,
  APPLICATION_TYPES,
  inputTotal,
  LABOUR_INPUTS_MAX,
  LABOUR_PAGE_SIZE,
  LABOUR_TYPE,
  type LabourTypeId,
  SEEDING_TYPES,
  type Status,
  totalUnit,
} from '../lib/labours/model';
import type { LabourView, LabourWrite } from '../lib/labours/service';
import type { FieldRef } from '../lib/platform/model';
import { isoSeconds } from '../lib/util/time';
import { booleanLike, calendarDate, commaList, integer, jsonObject, positiveInteger, text } from './common';

const laboursRoute = {
  tags: ['labours'],
  auth: 'bearer',
  dialect: generalDialect,
  claims: ['SEASON_VIEW'],
  missingClaim: seasonViewRequired,
} as const;
const both = (path: string) => [`/api${path}`, path];

const uuid = z.pipe(
  z.uuid(),
  z.transform((v) => v.toLowerCase()),
);
const year = z.number().check(z.int(), z.gte(1900), z.lte(2200));
const oneOf = (table: Record<number, string>) =>
  z.number().check(
    z.int(),
    z.refine(
      (v) => table[v] !== undefined,
      `one of ${Object.entries(table)
        .map(([id, name]) => `${id} (${name})`)
        .join(', ')}`,
    ),
  );
const ARRAY_MAX = 50;

const AmountBody = z.object({ unit: text(40, 1, { trim: true }), value: z.number().check(z.gte(0), z.lte(1e9)) });
const LabourInputItem = z.object({
  id: z.optional(z.number().check(z.int(), z.positive())).check(z.describe('an existing input, master or own')),
  uuid: z.optional(uuid).check(z.describe('an existing input, or the uuid of one to create')),
  name: z
    .optional(text(200, 1, { trim: true }))
    .check(z.describe('required to create an input; renames an own input whose name differs')),
  dose: z.number().check(z.gte(0), z.lte(1e7)),
  unit: text(40, 1, { trim: true }).check(z.describe("the dose's unit, e.g. L/ha, kg/ha")),
  observations: z.optional(z.nullable(text(1000))),
  pest_uuid: z.optional(z.nullable(uuid)),
  warehouse_uuid: z.optional(z.nullable(uuid)),
  justify_id: z.optional(z.nullable(z.number().check(z.int(), z.positive()))),
  stock: z.optional(z.nullable(jsonObject())),
});
const Costs = z.object({
  labour: z.optional(z.nullable(AmountBody)),
  inputs: z.optional(z.record(z.uuid(), AmountBody)).check(z.describe('by input uuid; only inputs the labour lists')),
  seed: z.optional(z.nullable(AmountBody)).check(z.describe('sowings only')),
});

/** Type fields (spec 3, Labour): each labour type takes its own (lib/labours/model.ts TYPE_FIELDS). */
const TypeFields = {
  application_type_id: z.optional(z.nullable(oneOf(APPLICATION_TYPES))).check(z.describe('applications')),
  end_cycle: z.optional(z.boolean()).check(z.describe('applications and harvests: the activity closes the crop')),
  map_id: z
    .optional(z.nullable(z.number().check(z.int(), z.positive())))
    .check(z.describe("applications: a map of the labour's field")),
  inputs: z
    .optional(z.array(LabourInputItem).check(z.maxLength(LABOUR_INPUTS_MAX)))
    .check(z.describe('applications and sowings: the complete final list')),
  layer: z.optional(z.nullable(text(200))).check(z.describe('harvests')),
  expected_unit: z.optional(z.nullable(text(40))).check(z.describe('harvests')),
  harvested_unit: z.optional(z.nullable(text(40))).check(z.describe('harvests')),
  expected_yield: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1e7)))).check(z.describe('harvests')),
  harvested_yield: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1e7)))).check(z.describe('harvests')),
  quality: z.optional(z.nullable(text(40))).check(z.describe('harvests: percentage of quality achieved')),
  humidity: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(100)))).check(z.describe('harvests: %')),
  yield_zones: z.optional(z.array(jsonObject()).check(z.maxLength(ARRAY_MAX))).check(z.describe('harvests')),
  seed_total: z.optional(z.nullable(AmountBody)).check(z.describe('sowings')),
  seed_rate: z.optional(z.nullable(AmountBody)).check(z.describe('sowings: density')),
  actual_seed_rate: z.optional(z.nullable(AmountBody)).check(z.describe('sowings: achieved density')),
  row_width: z.optional(z.nullable(AmountBody)).check(z.describe('sowings: distance between rows')),
  seeding_type_id: z.optional(z.nullable(oneOf(SEEDING_TYPES))).check(z.describe('sowings')),
  variety_id: z.optional(z.nullable(z.number().check(z.int(), z.positive()))).check(z.describe('sowings')),
  variety_name: z.optional(z.nullable(text(200))).check(z.describe('sowings')),
  name: z.optional(text(200)).check(z.describe('other labours (type 4): what was done')),
};
const DETAIL_NAMES = Object.keys(TypeFields).filter((name) => name !== 'inputs' && name !== 'map_id') as Array<
  keyof typeof TypeFields
>;

const Common = {
  uuid: z.optional(uuid).check(z.describe('client uuid: a repeated create answers the labour it made')),
  labour_type_id: z
    .number()
    .check(z.int(), z.gte(1), z.lte(4), z.describe('1 applications, 2 harvests, 3 sowings, 4 other labours')),
  status: z.number().check(z.int(), z.gte(1), z.lte(3), z.describe('1 planned, 2 executed, 3 cancelled')),
  yeargroup: year,
  biennial: z.optional(booleanLike()).check(z.describe("sets the campaign's biennial (it spans two years)")),
  date: calendarDate(),
  field_id: z.optional(z.number().check(z.int(), z.positive())),
  field_uuid: z.optional(uuid),
  rotation_uuid: z.optional(z.nullable(uuid)).check(z.describe('a rotation of the same field and campaign')),
  surface: z
    .optional(z.number().check(z.positive(), z.lte(1e6)))
    .check(z.describe("hectares; the field's area when not sent, never above it")),
  observations: z.optional(text(5000)),
  attachments: z.optional(z.array(uuid).check(z.maxLength(ARRAY_MAX))),
  stock: z.optional(z.array(jsonObject()).check(z.maxLength(ARRAY_MAX))).check(z.describe('warehouses used')),
  resources: z.optional(z.array(jsonObject()).check(z.maxLength(ARRAY_MAX))).check(z.describe('machinery used')),
  staff: z.optional(z.array(uuid).check(z.maxLength(ARRAY_MAX))),
  costs: z.optional(Costs),
  ...TypeFields,
};

export const CreateLabourBody = z.object({
  ...Common,
  status: z._default(Common.status, 1).check(z.describe('1 planned (default), 2 executed, 3 cancelled')),
});
export const PatchLabourBody = z.object({
  ...Common,
  labour_type_id: z.optional(Common.labour_type_id),
  status: z.optional(Common.status),
  yeargroup: z.optional(year),
  date: z.optional(Common.date),
});

type Body = z.output<typeof PatchLabourBody>;

/** The service's write from a body (spec names to domain names). */
export function labourWrite(body: Body): LabourWrite {
  const details: Record<string, unknown> = {};
  for (const name of DETAIL_NAMES) if (body[name] !== undefined) details[name] = body[name];
  return {
    uuid: body.uuid,
    typeId: body.labour_type_id as LabourTypeId | undefined,
    status: body.status as Status | undefined,
    yeargroup: body.yeargroup,
    biennial: body.biennial,
    date: body.date,
    fieldId: body.field_id,
    fieldUuid: body.field_uuid,
    rotationUuid: body.rotation_uuid,
    surface: body.surface,
    observations: body.observations,
    attachments: body.attachments,
    stock: body.stock,
    resources: body.resources,
    staff: body.staff,
    costs: body.costs,
    mapId: body.map_id,
    details,
    inputs: body.inputs?.map((i) => ({
      id: i.id,
      uuid: i.uuid,
      name: i.name,
      dose: i.dose,
      unit: i.unit,
      observations: i.observations,
      pestUuid: i.pest_uuid,
      warehouseUuid: i.warehouse_uuid,
      justifyId: i.justify_id,
      stock: i.stock,
    })),
  };
}

// --- the wire form of a listed labour --------------------------------------------------------

const WireAmount = z.object({ unit: z.string(), value: z.number() });
const WireLabourInput = z.object({
  unit: z.string(),
  dose: z.number(),
  unit_total: z.string().check(z.describe('the unit of total (the dose unit without "/ha")')),
  total: z.number().check(z.describe('dose x surface for a dose per hectare, else the dose')),
  input_name: z.string(),
  input_uuid: z.string(),
  input_id: z.number().check(z.int()),
  input_deleted: z.boolean().check(z.describe('the input was deleted from its list since (docs/decisions.md, Inputs)')),
  labour_input_uuid: z.string(),
  pest_uuid: z.nullable(z.string()),
  warehouse_uuid: z.nullable(z.string()),
  justify_id: z.nullable(z.number().check(z.int())),
  crop_id: z.nullable(z.number().check(z.int())),
  stock: z.unknown(),
  observations: z.nullable(z.string()),
});

export const WireLabour = z
  .catchall(
    z.object({
      uuid: z.string(),
      labour_type_id: z.number().check(z.int()),
      status: z.number().check(z.int()),
      yeargroup: z.number().check(z.int()),
      biennial: z.boolean(),
      cicle_id: z.number().check(z.int(), z.describe("the campaign (shared with the field's rotations)")),
      date: z.string(),
      farm_id: z.number().check(z.int()),
      field_id: z.number().check(z.int()),
      farm_uuid: z.string(),
      field_uuid: z.string(),
      farm_name: z.string(),
      field_name: z.string(),
      rotation: z.nullable(
        z.object({ crop_name: z.nullable(z.string()), crop_id: z.number().check(z.int()), uuid: z.string() }),
      ),
      attachments: z.array(z.string()),
      stock: z.array(z.unknown()),
      resources: z.array(z.unknown()),
      staff: z.array(z.string()),
      surface: z.number(),
      surface_unit: z.null(),
      observations: z.string(),
      costs: z.object({
        labour: z.nullable(WireAmount),
        inputs: z.record(z.string(), WireAmount),
        seed: z.optional(z.nullable(WireAmount)),
      }),
      inputs: z.optional(z.array(WireLabourInput)).check(z.describe('applications and sowings')),
      map_id: z.optional(z.nullable(z.number().check(z.int()))).check(z.describe('applications')),
      created_at: z.string().check(z.describe('YYYY-MM-DDTHH:MM:SSZ')),
      updated_at: z.string().check(z.describe('YYYY-MM-DDTHH:MM:SSZ')),
    }),
    z.unknown(),
  )
  .check(z.describe('and the type fields of its type (spec 3, Labour)'));

const TYPE_DEFAULTS: Record<number, Record<string, unknown>> = {
  [LABOUR_TYPE.APPLICATION]: { application_type_id: null, end_cycle: false },
  [LABOUR_TYPE.HARVEST]: {
    end_cycle: false,
    layer: null,
    expected_unit: null,
    harvested_unit: null,
    expected_yield: null,
    harvested_yield: null,
    quality: null,
    humidity: null,
    yield_zones: [],
  },
  [LABOUR_TYPE.SOWING]: {
    seed_total: null,
    seed_rate: null,
    actual_seed_rate: null,
    row_width: null,
    seeding_type_id: null,
    variety_id: null,
    variety_name: null,
  },
  [LABOUR_TYPE.OTHER]: { name: null },
};

const amount = (a: Amount | null) => (a ? { unit: a.unit, value: a.value } : null);

export function wireLabour({
  labour,
  field,
  farm,
  biennial,
  rotation,
  inputs,
}: LabourView<FieldRef>): z.infer<typeof WireLabour> {
  const hasInputs = labour.typeId === LABOUR_TYPE.APPLICATION || labour.typeId === LABOUR_TYPE.SOWING;
  return {
    uuid: labour.uuid,
    labour_type_id: labour.typeId,
    status: labour.status,
    yeargroup: labour.yeargroup,
    biennial,
    cicle_id: labour.campaignId,
    date: labour.date,
    farm_id: farm.id,
    field_id: field.id,
    farm_uuid: farm.uuid,
    field_uuid: field.uuid,
    farm_name: farm.name,
    field_name: field.name,
    rotation: rotation ? { crop_name: rotation.cropName, crop_id: rotation.cropId, uuid: rotation.uuid } : null,
    attachments: labour.attachments,
    stock: labour.stock,
    resources: labour.resources,
    staff: labour.staff,
    surface: labour.surface,
    surface_unit: null,
    observations: labour.observations,
    costs: {
      labour: amount(labour.costs.labour),
      inputs: Object.fromEntries(Object.entries(labour.costs.inputs).map(([uuid, a]) => [uuid, amount(a)!])),
      ...(labour.typeId === LABOUR_TYPE.SOWING ? { seed: amount(labour.costs.seed) } : {}),
    },
    ...TYPE_DEFAULTS[labour.typeId],
    ...labour.details,
    ...(labour.typeId === LABOUR_TYPE.APPLICATION ? { map_id: labour.mapId } : {}),
    ...(hasInputs
      ? {
          inputs: labour.inputs.map((line) => ({
            unit: line.unit,
            dose: line.dose,
            unit_total: totalUnit(line.unit),
            total: inputTotal(line.dose, line.unit, labour.surface),
            input_name: inputs.get(line.inputUuid)?.name ?? line.name,
            input_uuid: line.inputUuid,
            input_id: line.inputId,
            input_deleted: inputs.get(line.inputUuid)?.deleted ?? false,
            labour_input_uuid: line.labourInputUuid,
            pest_uuid: line.pestUuid,
            warehouse_uuid: line.warehouseUuid,
            justify_id: line.justifyId,
            crop_id: rotation?.cropId ?? null,
            stock: line.stock,
            observations: line.observations,
          })),
        }
      : {}),
    created_at: isoSeconds(labour.createdAt),
    updated_at: isoSeconds(labour.updatedAt),
  };
}

// --- routes ----------------------------------------------------------------------------------

const slashDate = z.pipe(
  calendarDate('YYYY/MM/DD'),
  z.transform((v) => v.replaceAll('/', '-')),
);
const ids = commaList(z.pipe(z.string().check(z.regex(/^\d+$/, 'expected ids')), z.transform(Number)));

export const listLaboursRoute = defineRoute({
  ...laboursRoute,
  operationId: 'listLabours',
  record: 'labour',
  handler: 'functions/labours/labours.list',
  method: 'get',
  paths: both('/activities/labour'),
  summary: 'Labours of a campaign in the fields the caller reads, filtered (AND) and paged, by date',
  request: {
    query: z.object({
      yeargroup: z.pipe(integer(), year),
      farm_id: z.optional(positiveInteger()),
      fields_id: z.optional(ids).check(z.describe('comma-separated field ids')),
      field_uuid: z.optional(commaList(z.uuid())),
      farm_uuid: z.optional(commaList(z.uuid())),
      status: z.optional(z.pipe(integer(), z.number().check(z.int(), z.gte(1), z.lte(3)))),
      date_from: z.optional(slashDate).check(z.describe('%Y/%m/%d, included')),
      date_to: z.optional(slashDate).check(z.describe('%Y/%m/%d, included')),
      crop_id: z.optional(positiveInteger()),
      crops_ids: z.optional(ids).check(z.describe('comma-separated crop ids')),
      labour_type_id: z.optional(z.pipe(integer(), z.number().check(z.int(), z.gte(1), z.lte(4)))),
      page_size: z
        ._default(
          z.pipe(integer(), z.number().check(z.int(), z.gte(1), z.lte(LABOUR_PAGE_SIZE.MAX))),
          LABOUR_PAGE_SIZE.DEFAULT,
        )
        .check(z.describe(`default ${LABOUR_PAGE_SIZE.DEFAULT}`)),
      page: z
        ._default(z.pipe(integer(), z.number().check(z.int(), z.gte(1), z.lte(100_000))), 1)
        .check(z.describe('from 1')),
    }),
  },
  responses: {
    200: {
      description: 'one page of labours',
      schema: z.object({
        data: z.array(WireLabour),
        pagination: z.object({ total_page: z.number().check(z.int()), page: z.number().check(z.int()) }),
      }),
    },
  },
});

export const getLabourRoute = defineRoute({
  ...laboursRoute,
  operationId: 'getLabour',
  record: 'labour',
  handler: 'functions/labours/labours.get',
  method: 'get',
  paths: both('/activities/labour/{labour_uuid}'),
  summary: 'One labour, as listed',
  request: { path: z.object({ labour_uuid: z.uuid() }) },
  responses: { 200: { description: 'the labour', schema: z.object({ data: WireLabour }) } },
});

const created = z.object({ data: z.object({ uuid: z.string() }) });

export const createLabourRoute = defineRoute({
  ...laboursRoute,
  operationId: 'createLabour',
  record: 'labour',
  handler: 'functions/labours/labours.post',
  touches: { table: 'write' },
  method: 'post',
  paths: both('/activities/labour'),
  summary: 'Record one labour in a field the caller can change',
  description: 'Its inputs list, new or renamed personal inputs and the campaign are written in one transaction.',
  request: { body: CreateLabourBody },
  responses: { 200: { description: 'created (or made before under this uuid)', schema: created } },
});

export const patchLabourRoute = defineRoute({
  ...laboursRoute,
  operationId: 'patchLabour',
  record: 'labour',
  handler: 'functions/labours/labours.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/activities/labour/{labour_uuid}'),
  summary: 'Change what is sent of a labour; `inputs`, when sent, is the complete final list',
  request: { path: z.object({ labour_uuid: z.uuid() }), body: PatchLabourBody },
  responses: { 200: { description: 'changed', schema: created } },
});

export const deleteLabourRoute = defineRoute({
  ...laboursRoute,
  operationId: 'deleteLabour',
  record: 'labour',
  handler: 'functions/labours/labours.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: both('/activities/labour/{labour_uuid}'),
  summary: 'Delete a labour',
  request: { path: z.object({ labour_uuid: z.uuid() }) },
  responses: { 200: { description: 'deleted', schema: created } },
});

export const labourRoutes = [listLaboursRoute, getLabourRoute, createLabourRoute, patchLabourRoute, deleteLabourRoute];
