// Work orders (spec 3): /api/work_orders (list, create), /api/work_orders/<uuid> (replace,
// delete), /api/work_orders/recomendations/types and /api/work_orders/<uuid>/download. Success
// bodies carry no top-level code (spec README); errors use the general dialect. They read labours,
// so they need the View season feature, like the labours (docs/decisions.md, "Work orders").
import * as z from 'zod/mini';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { seasonViewRequired } from '../lib/labours/codes';
import { isDate } from '../lib/util/time';
import { RECOMMENDATION_TYPES, recommendationType, WORK_ORDER_LIMITS } from '../lib/work-orders/model';
import type { WorkOrderInput, WorkOrderView } from '../lib/work-orders/service';
import { integer, text } from './common';

const workOrdersRoute = {
  tags: ['work orders'],
  auth: 'bearer',
  dialect: generalDialect,
  claims: ['SEASON_VIEW'],
  missingClaim: seasonViewRequired,
} as const;
const PATH = '/api/work_orders';

const Recommendation = z.object({
  type_id: z
    .union([
      z.pipe(z.string().check(z.regex(/^\d+$/, 'a recommendation type id')), z.transform(Number)),
      z.number().check(z.int()),
    ])
    .check(z.describe('GET /api/work_orders/recomendations/types')),
  value: text(WORK_ORDER_LIMITS.VALUE, 1, { trim: true }),
});

/**
 * A work order's day: YYYY-MM-DD (the spec's input form), or the date-time the list answers
 * (`YYYY-MM-DDT00:00:00+00:00`, also with `Z`), so that a client can send back what it read.
 */
const workOrderDate = z.pipe(
  z.string().check(
    z.refine(
      (v) => /^\d{4}-\d{2}-\d{2}(T00:00:00(\.0+)?(Z|\+00:00))?$/.test(v) && isDate(v.slice(0, 10), 'YYYY-MM-DD'),
      'expected a real date YYYY-MM-DD (or YYYY-MM-DDT00:00:00+00:00, as the list gives it)',
    ),
    z.describe('YYYY-MM-DD, or the date-time the list gives (YYYY-MM-DDT00:00:00+00:00)'),
  ),
  z.transform((v) => v.slice(0, 10)),
);

const bodyMembers = {
  labours: z
    .array(z.uuid())
    .check(
      z.minLength(1),
      z.maxLength(WORK_ORDER_LIMITS.LABOURS),
      z.describe('labour uuids the caller reads, of the campaign `yeargroup`'),
    ),
  date: workOrderDate,
  yeargroup: z.pipe(integer(), z.number().check(z.int(), z.gte(1900), z.lte(2200))),
  recomendations: z
    .optional(z.nullable(z.array(Recommendation).check(z.maxLength(WORK_ORDER_LIMITS.RECOMMENDATIONS))))
    .check(z.describe('each accepted only when a selected labour has one of its labourTypeIds')),
  notes: z.optional(z.nullable(text(WORK_ORDER_LIMITS.NOTES))),
  name: z.optional(z.nullable(text(WORK_ORDER_LIMITS.NAME))),
};
export const CreateWorkOrderBody = z.object({ uuid: z.uuid(), ...bodyMembers });
export const ReplaceWorkOrderBody = z.object({
  uuid: z.optional(z.uuid()).check(z.describe("the path's uuid, when sent")),
  ...bodyMembers,
});

export const workOrderInput = (body: z.output<typeof ReplaceWorkOrderBody>): WorkOrderInput => ({
  name: body.name ?? null,
  notes: body.notes ?? null,
  date: body.date,
  yeargroup: body.yeargroup,
  labourUuids: body.labours,
  recommendations: body.recomendations?.map((r) => ({ typeId: r.type_id, value: r.value })) ?? null,
});

const WireType = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  labourTypeIds: z.array(z.number().check(z.int())),
});
export const WireWorkOrder = z.object({
  uuid: z.string(),
  name: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  date: z.string().check(z.describe('ISO date-time with offset, e.g. 2022-02-03T00:00:00+00:00')),
  yeargroup: z.number().check(z.int()),
  labours: z.array(
    z.object({
      uuid: z.string(),
      yeargroup: z.number().check(z.int()),
      idLabourType: z.number().check(z.int()),
      fieldName: z.string(),
      farmName: z.string(),
    }),
  ),
  recomendations: z
    .nullable(
      z.array(z.object({ type: z.object({ id: z.number().check(z.int()), name: z.string() }), value: z.string() })),
    )
    .check(z.describe('null when none were sent (an optional parameter not sent is stored as null)')),
});

export const wireWorkOrder = ({ order, labours }: WorkOrderView): z.infer<typeof WireWorkOrder> => ({
  uuid: order.uuid,
  name: order.name,
  notes: order.notes,
  date: `${order.date}T00:00:00+00:00`,
  yeargroup: order.yeargroup,
  labours: labours.map(({ labour, field, farm }) => ({
    uuid: labour.uuid,
    yeargroup: labour.yeargroup,
    idLabourType: labour.typeId,
    fieldName: field.name,
    farmName: farm.name,
  })),
  recomendations:
    order.recommendations?.map((r) => ({
      type: { id: r.typeId, name: recommendationType(r.typeId)?.name ?? String(r.typeId) },
      value: r.value,
    })) ?? null,
});

export const wireTypes = () =>
  RECOMMENDATION_TYPES.map((t) => ({ id: t.id, name: t.name, labourTypeIds: [...t.labourTypeIds] }));

const saved = z.object({ data: z.object({ uuid: z.string() }) });
const byUuid = z.object({ work_order_uuid: z.uuid() });

export const listWorkOrdersRoute = defineRoute({
  ...workOrdersRoute,
  operationId: 'listWorkOrders',
  record: 'work_order',
  handler: 'functions/work-orders/work-orders.list',
  method: 'get',
  paths: [PATH],
  summary: "The caller's work orders of a campaign, and those others wrote for labours on the caller's fields",
  request: { query: z.object({ yeargroup: z.pipe(integer(), z.number().check(z.int(), z.gte(1900), z.lte(2200))) }) },
  responses: { 200: { description: 'work orders, by date', schema: z.object({ data: z.array(WireWorkOrder) }) } },
  ...growingList,
});

export const recommendationTypesRoute = defineRoute({
  ...workOrdersRoute,
  claims: [],
  operationId: 'listRecommendationTypes',
  handler: 'functions/work-orders/work-orders.types',
  method: 'get',
  paths: [`${PATH}/recomendations/types`],
  summary: 'Recommendation types, with the labour types each applies to (a bare array)',
  responses: { 200: { description: 'the types', schema: z.array(WireType) } },
});

export const createWorkOrderRoute = defineRoute({
  ...workOrdersRoute,
  operationId: 'createWorkOrder',
  record: 'work_order',
  handler: 'functions/work-orders/work-orders.post',
  touches: { table: 'write' },
  method: 'post',
  paths: [PATH],
  summary:
    'Create a work order (its uuid sent again with the same body answers the one it made; with another body, 409 code 4)',
  request: { body: CreateWorkOrderBody },
  responses: { 200: { description: 'created', schema: saved } },
});

export const replaceWorkOrderRoute = defineRoute({
  ...workOrdersRoute,
  operationId: 'replaceWorkOrder',
  record: 'work_order',
  handler: 'functions/work-orders/work-orders.put',
  touches: { table: 'write' },
  method: 'put',
  paths: [`${PATH}/{work_order_uuid}`],
  summary: 'Replace a work order of the caller; optional members not sent are stored as null',
  description: "A work order the caller reads as its labours' field owner but did not write: 403 code 5.",
  request: { path: byUuid, body: ReplaceWorkOrderBody },
  responses: { 200: { description: 'replaced', schema: saved } },
});

export const deleteWorkOrderRoute = defineRoute({
  ...workOrdersRoute,
  operationId: 'deleteWorkOrder',
  record: 'work_order',
  handler: 'functions/work-orders/work-orders.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: [`${PATH}/{work_order_uuid}`],
  summary: 'Delete a work order of the caller',
  description: "A work order the caller reads as its labours' field owner but did not write: 403 code 5.",
  request: { path: byUuid },
  responses: { 200: { description: 'deleted', schema: saved } },
});

export const downloadWorkOrderRoute = defineRoute({
  ...workOrdersRoute,
  operationId: 'downloadWorkOrder',
  handler: 'functions/work-orders/download.get',
  method: 'get',
  paths: [`${PATH}/{work_order_uuid}/download`],
  summary: 'The work order as a PDF or an Excel workbook, to take to the field',
  request: { path: byUuid, query: z.object({ type: z.enum(['pdf', 'excel']) }) },
  lambda: { memorySize: 1024, timeout: 20 },
  responses: {
    200: {
      description: 'application/pdf, or an xlsx workbook; Content-Disposition names the file',
      contentType: ['application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    },
  },
});

export const workOrderRoutes = [
  listWorkOrdersRoute,
  recommendationTypesRoute,
  createWorkOrderRoute,
  replaceWorkOrderRoute,
  deleteWorkOrderRoute,
  downloadWorkOrderRoute,
];
