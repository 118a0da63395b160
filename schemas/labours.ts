// Labours (spec 3): GET /activities/labour with the spec's filters and paging; POST, PATCH and
// DELETE (not shown by the spec; the contract is docs/decisions.md, "Labours"). Served with and
// without /api. Every route needs the View season feature (claim SEASON_VIEW).
import * as z from 'zod';
import { defineRoute } from '../lib/http/route';
import { generalDialect } from '../lib/http/dialects';
import { seasonViewRequired } from '../lib/labours/codes';
import { APPLICATION_TYPES, inputTotal, LABOUR_INPUTS_MAX, LABOUR_PAGE_SIZE, LABOUR_TYPE, SEEDING_TYPES, totalUnit, type Amount, type LabourTypeId, type Status } from '../lib/labours/model';
import type { LabourView, LabourWrite } from '../lib/labours/service';
import { booleanLike, calendarDate, commaList, integer, jsonObject, positiveInteger, text } from './common';

const laboursRoute = {
  tags: ['labours'],
  auth: 'bearer',
  dialect: generalDialect,
  claims: ['SEASON_VIEW'],
  missingClaim: seasonViewRequired,
} as const;
const both = (path: string) => [`/api${path}`, path];

const uuid = z.uuid().transform((v) => v.toLowerCase());
const year = z.number().int().min(1900).max(2200);
const oneOf = (table: Record<number, string>) =>
  z.number().int().refine((v) => table[v] !== undefined, `one of ${Object.entries(table).map(([id, name]) => `${id} (${name})`).join(', ')}`);
const ARRAY_MAX = 50;

const Amount = z.object({ unit: text(40, 1, { trim: true }), value: z.number().min(0).max(1e9) });
const LabourInputItem = z.object({
  id: z.number().int().positive().optional().describe('an existing input, master or own'),
  uuid: uuid.optional().describe('an existing input, or the uuid of one to create'),
  name: text(200, 1, { trim: true }).optional().describe('required to create an input; renames an own input whose name differs'),
  dose: z.number().min(0).max(1e7),
  unit: text(40, 1, { trim: true }).describe("the dose's unit, e.g. L/ha, kg/ha"),
  observations: text(1000).nullable().optional(),
  pest_uuid: uuid.nullable().optional(),
  warehouse_uuid: uuid.nullable().optional(),
  justify_id: z.number().int().positive().nullable().optional(),
  stock: jsonObject().nullable().optional(),
});
const Costs = z.object({
  labour: Amount.nullable().optional(),
  inputs: z.record(z.uuid(), Amount).optional().describe('by input uuid; only inputs the labour lists'),
  seed: Amount.nullable().optional().describe('sowings only'),
});

/** Type fields (spec 3, Labour): each labour type takes its own (lib/labours/model.ts TYPE_FIELDS). */
const TypeFields = {
  application_type_id: oneOf(APPLICATION_TYPES).nullable().optional().describe('applications'),
  end_cycle: z.boolean().optional().describe('applications and harvests: the activity closes the crop'),
  map_id: z.number().int().positive().nullable().optional().describe("applications: a map of the labour's field"),
  inputs: z.array(LabourInputItem).max(LABOUR_INPUTS_MAX).optional().describe('applications and sowings: the complete final list'),
  layer: text(200).nullable().optional().describe('harvests'),
  expected_unit: text(40).nullable().optional().describe('harvests'),
  harvested_unit: text(40).nullable().optional().describe('harvests'),
  expected_yield: z.number().min(0).max(1e7).nullable().optional().describe('harvests'),
  harvested_yield: z.number().min(0).max(1e7).nullable().optional().describe('harvests'),
  quality: text(40).nullable().optional().describe('harvests: percentage of quality achieved'),
  humidity: z.number().min(0).max(100).nullable().optional().describe('harvests: %'),
  yield_zones: z.array(jsonObject()).max(ARRAY_MAX).optional().describe('harvests'),
  seed_total: Amount.nullable().optional().describe('sowings'),
  seed_rate: Amount.nullable().optional().describe('sowings: density'),
  actual_seed_rate: Amount.nullable().optional().describe('sowings: achieved density'),
  row_width: Amount.nullable().optional().describe('sowings: distance between rows'),
  seeding_type_id: oneOf(SEEDING_TYPES).nullable().optional().describe('sowings'),
  variety_id: z.number().int().positive().nullable().optional().describe('sowings'),
  variety_name: text(200).nullable().optional().describe('sowings'),
  name: text(200).optional().describe('other labours (type 4): what was done'),
};
const DETAIL_NAMES = Object.keys(TypeFields).filter((name) => name !== 'inputs' && name !== 'map_id') as Array<keyof typeof TypeFields>;

const Common = {
  uuid: uuid.optional().describe('client uuid: a repeated create answers the labour it made'),
  labour_type_id: z.number().int().min(1).max(4).describe('1 applications, 2 harvests, 3 sowings, 4 other labours'),
  status: z.number().int().min(1).max(3).describe('1 planned, 2 executed, 3 cancelled'),
  yeargroup: year,
  biennial: booleanLike().optional().describe("sets the campaign's biennial (it spans two years)"),
  date: calendarDate(),
  field_id: z.number().int().positive().optional(),
  field_uuid: uuid.optional(),
  rotation_uuid: uuid.nullable().optional().describe('a rotation of the same field and campaign'),
  surface: z.number().positive().max(1e6).optional().describe("hectares; the field's area when not sent, never above it"),
  observations: text(5000).optional(),
  attachments: z.array(uuid).max(ARRAY_MAX).optional(),
  stock: z.array(jsonObject()).max(ARRAY_MAX).optional().describe('warehouses used'),
  resources: z.array(jsonObject()).max(ARRAY_MAX).optional().describe('machinery used'),
  staff: z.array(uuid).max(ARRAY_MAX).optional(),
  costs: Costs.optional(),
  ...TypeFields,
};

export const CreateLabourBody = z.object({ ...Common, status: Common.status.default(1).describe('1 planned (default), 2 executed, 3 cancelled') });
export const PatchLabourBody = z.object({
  ...Common,
  labour_type_id: Common.labour_type_id.optional(),
  status: Common.status.optional(),
  yeargroup: year.optional(),
  date: Common.date.optional(),
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
  unit_total: z.string().describe('the unit of total (the dose unit without "/ha")'),
  total: z.number().describe('dose x surface for a dose per hectare, else the dose'),
  input_name: z.string(),
  input_uuid: z.string(),
  input_id: z.number().int(),
  input_deleted: z.boolean().describe('the input was deleted from its list since (docs/decisions.md, Inputs)'),
  labour_input_uuid: z.string(),
  pest_uuid: z.string().nullable(),
  warehouse_uuid: z.string().nullable(),
  justify_id: z.number().int().nullable(),
  crop_id: z.number().int().nullable(),
  stock: z.unknown(),
  observations: z.string().nullable(),
});

export const WireLabour = z
  .object({
    uuid: z.string(),
    labour_type_id: z.number().int(),
    status: z.number().int(),
    yeargroup: z.number().int(),
    biennial: z.boolean(),
    cicle_id: z.number().int().describe("the campaign (shared with the field's rotations)"),
    date: z.string(),
    farm_id: z.number().int(),
    field_id: z.number().int(),
    farm_uuid: z.string(),
    field_uuid: z.string(),
    farm_name: z.string(),
    field_name: z.string(),
    rotation: z.object({ crop_name: z.string().nullable(), crop_id: z.number().int(), uuid: z.string() }).nullable(),
    attachments: z.array(z.string()),
    stock: z.array(z.unknown()),
    resources: z.array(z.unknown()),
    staff: z.array(z.string()),
    surface: z.number(),
    surface_unit: z.null(),
    observations: z.string(),
    costs: z.object({ labour: WireAmount.nullable(), inputs: z.record(z.string(), WireAmount), seed: WireAmount.nullable().optional() }),
    inputs: z.array(WireLabourInput).optional().describe('applications and sowings'),
    map_id: z.number().int().nullable().optional().describe('applications'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .catchall(z.unknown())
  .describe('and the type fields of its type (spec 3, Labour)');

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

export function wireLabour({ labour, field, farm, biennial, rotation, inputs }: LabourView): z.infer<typeof WireLabour> {
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
    created_at: labour.createdAt,
    updated_at: labour.updatedAt,
  };
}

// --- routes ----------------------------------------------------------------------------------

const slashDate = calendarDate('YYYY/MM/DD').transform((v) => v.replaceAll('/', '-'));
const ids = commaList(z.string().regex(/^\d+$/, 'expected ids').transform(Number));

export const listLaboursRoute = defineRoute({
  ...laboursRoute,
  operationId: 'listLabours',
  handler: 'functions/labours/labours.list',
  method: 'get',
  paths: both('/activities/labour'),
  summary: 'Labours of a campaign in the fields the caller reads, filtered (AND) and paged, by date',
  request: {
    query: z.object({
      yeargroup: integer().pipe(year),
      farm_id: positiveInteger().optional(),
      fields_id: ids.optional().describe('comma-separated field ids'),
      field_uuid: commaList(z.uuid()).optional(),
      farm_uuid: commaList(z.uuid()).optional(),
      status: integer().pipe(z.number().int().min(1).max(3)).optional(),
      date_from: slashDate.optional().describe('%Y/%m/%d, included'),
      date_to: slashDate.optional().describe('%Y/%m/%d, included'),
      crop_id: positiveInteger().optional(),
      crops_ids: ids.optional().describe('comma-separated crop ids'),
      labour_type_id: integer().pipe(z.number().int().min(1).max(4)).optional(),
      page_size: integer().pipe(z.number().int().min(1).max(LABOUR_PAGE_SIZE.MAX)).default(LABOUR_PAGE_SIZE.DEFAULT).describe(`default ${LABOUR_PAGE_SIZE.DEFAULT}`),
      page: integer().pipe(z.number().int().min(1).max(100_000)).default(1).describe('from 1'),
    }),
  },
  responses: {
    200: {
      description: 'one page of labours',
      schema: z.object({ data: z.array(WireLabour), pagination: z.object({ total_page: z.number().int(), page: z.number().int() }) }),
    },
  },
});

export const getLabourRoute = defineRoute({
  ...laboursRoute,
  operationId: 'getLabour',
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
  handler: 'functions/labours/labours.post',
  touches: { table: 'write', sends: ['events'] },
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
  handler: 'functions/labours/labours.patch',
  touches: { table: 'write', sends: ['events'] },
  method: 'patch',
  paths: both('/activities/labour/{labour_uuid}'),
  summary: 'Change what is sent of a labour; `inputs`, when sent, is the complete final list',
  request: { path: z.object({ labour_uuid: z.uuid() }), body: PatchLabourBody },
  responses: { 200: { description: 'changed', schema: created } },
});

export const deleteLabourRoute = defineRoute({
  ...laboursRoute,
  operationId: 'deleteLabour',
  handler: 'functions/labours/labours.del',
  touches: { table: 'write', sends: ['events'] },
  method: 'delete',
  paths: both('/activities/labour/{labour_uuid}'),
  summary: 'Delete a labour',
  request: { path: z.object({ labour_uuid: z.uuid() }) },
  responses: { 200: { description: 'deleted', schema: created } },
});

export const labourRoutes = [listLaboursRoute, getLabourRoute, createLabourRoute, patchLabourRoute, deleteLabourRoute];
