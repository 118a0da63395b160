// Livestock (spec 1): paddocks, herds, categories, transactions, exit types, and a herd's
// history. Served under /livestock and /api/livestock. Requires the livestock module.
import * as z from 'zod/mini';
import { Forbidden } from '../lib/errors';
import { livestockDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { LIVESTOCK_CODES } from '../lib/livestock/codes';
import type { HerdView } from '../lib/livestock/herds';
import type { Paddock } from '../lib/livestock/model';
import { fromKg } from '../lib/livestock/model';
import type { TransactionResult } from '../lib/livestock/transactions';
import { isoDateTime, positiveInteger, text } from './common';

/** Every livestock endpoint requires the livestock module in the extension claimset (spec 1). */
const livestockRoute = {
  tags: ['livestock'],
  auth: 'bearer',
  dialect: livestockDialect,
  claims: ['LIVESTOCK'],
  missingClaim: () =>
    new Forbidden('the livestock module is not active in the extension claimset', {
      code: LIVESTOCK_CODES.MODULE_DISABLED,
    }),
} as const;
const both = (path: string) => [`/livestock${path}`, `/api/livestock${path}`];

const uuid = z.string().check(z.uuid());
const dateTime = isoDateTime().check(z.describe('ISO 8601 date-time'));
const weightUnit = z
  .string()
  .check(z.maxLength(20), z.describe('kg, lb or t, in any case (also kgs, kilos, lbs, libras, tn, toneladas, ...)'));
const count = z.number().check(z.int(), z.nonnegative());

export const WirePaddock = z.object({
  paddock_id: z.number().check(z.int()),
  paddock_uuid: z.string(),
  name: z.string(),
  creation_ts: z.string(),
  shape: z.string(),
  area: z.number().check(z.describe('hectares')),
  field_id: z.number().check(z.int()),
});

export const wirePaddock = (p: Paddock): z.infer<typeof WirePaddock> => ({
  paddock_id: p.id,
  paddock_uuid: p.uuid,
  name: p.name,
  creation_ts: p.creationDate,
  shape: p.shape,
  area: Number(p.areaHa.toFixed(4)),
  field_id: p.fieldId,
});

export const WireHerd = z.object({
  herd_id: z.number().check(z.int()),
  herd_uuid: z.string(),
  herd_name: z.string(),
  type_id: z.number().check(z.int()),
  animal_count: z.number(),
  weight: z.number().check(z.describe('total weight of the herd, in weight_unit')),
  weight_unit: z.string(),
  paddock_id: z.nullable(z.number().check(z.int())),
  paddock_uuid: z.nullable(z.string()),
  field_id: z.number().check(z.int()),
  field_uuid: z.string(),
  farm_id: z.number().check(z.int()),
  farm_uuid: z.string(),
  date_of_last_transaction: z.nullable(z.string()),
});

export const wireHerd = (h: HerdView): z.infer<typeof WireHerd> => ({
  herd_id: h.id,
  herd_uuid: h.uuid,
  herd_name: h.name,
  type_id: h.typeId,
  animal_count: h.animalCount,
  weight: fromKg(h.weightKg, h.weightUnit),
  weight_unit: h.weightUnit,
  paddock_id: h.paddockId,
  paddock_uuid: h.paddockUuid,
  field_id: h.field.id,
  field_uuid: h.field.uuid,
  farm_id: h.farm.id,
  farm_uuid: h.farm.uuid,
  date_of_last_transaction: h.lastTransactionDate,
});

const WireTransaction = z.object({
  transaction_uuid: z.string(),
  kind: z.enum(['paddock', 'exit', 'entry']),
  transaction_date: z.string(),
  animal_count: z.number(),
  weight: z.number(),
  weight_unit: z.string(),
  origin_herd_uuid: z.nullable(z.string()),
  destination_herd_uuid: z.nullable(z.string()),
  origin_paddock_uuid: z.nullable(z.string()),
  destination_paddock_uuid: z.nullable(z.string()),
  destination_type: z.nullable(z.number().check(z.int())),
  destination_type_name: z.nullable(z.string()),
  note: z.nullable(z.string()),
  created_at: z.string(),
});

const TransactionResponse = z.object({ data: z.object({ transaction: WireTransaction, herds: z.array(WireHerd) }) });
export const wireTransaction = (result: TransactionResult) => ({
  data: { transaction: result.transaction, herds: result.herds.map(wireHerd) },
});

// --- paddocks ---------------------------------------------------------------------------------

const PaddockPath = z.object({ paddock_uuid: uuid });
export const PaddockQuery = z.object({ field_id: z.optional(positiveInteger()) });

export const CreatePaddockBody = z.object({
  field_id: z.number().check(z.int(), z.positive()),
  shape: z.string().check(z.minLength(1), z.describe('WKT POLYGON inside the field')),
  date: dateTime,
  name: z.string(),
  paddock_uuid: z.optional(uuid).check(z.describe('client uuid: sending the same paddock again returns it')),
});

export const UpdatePaddockBody = z.object({ name: z.optional(z.string()), shape: z.optional(z.string()) });

export const listPaddocksRoute = defineRoute({
  ...livestockRoute,
  operationId: 'listPaddocks',
  record: 'paddock',
  handler: 'functions/livestock/paddocks.list',
  method: 'get',
  paths: both('/paddock'),
  summary: 'Paddocks of every readable field, or of one field (field_id)',
  request: { query: PaddockQuery },
  responses: { 200: { description: 'paddocks', schema: z.object({ data: z.array(WirePaddock) }) } },
  ...growingList,
});

export const getPaddockRoute = defineRoute({
  ...livestockRoute,
  operationId: 'getPaddock',
  record: 'paddock',
  handler: 'functions/livestock/paddocks.get',
  method: 'get',
  paths: both('/paddock/{paddock_uuid}'),
  summary: 'One paddock',
  request: { path: PaddockPath, query: PaddockQuery },
  responses: { 200: { description: 'the paddock, in a list', schema: z.object({ data: z.array(WirePaddock) }) } },
});

export const createPaddockRoute = defineRoute({
  ...livestockRoute,
  operationId: 'createPaddock',
  record: 'paddock',
  handler: 'functions/livestock/paddocks.post',
  touches: { table: 'write' },
  method: 'post',
  paths: both('/paddock'),
  summary: 'Create a paddock inside a field',
  request: { body: CreatePaddockBody },
  responses: { 200: { description: 'the paddock', schema: z.object({ data: WirePaddock }) } },
});

export const updatePaddockRoute = defineRoute({
  ...livestockRoute,
  operationId: 'updatePaddock',
  record: 'paddock',
  handler: 'functions/livestock/paddocks.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/paddock/{paddock_uuid}'),
  summary: 'Rename a paddock and/or change its shape',
  request: { path: PaddockPath, body: UpdatePaddockBody },
  responses: { 200: { description: 'the paddock', schema: z.object({ data: WirePaddock }) } },
});

export const deletePaddockRoute = defineRoute({
  ...livestockRoute,
  operationId: 'deletePaddock',
  record: 'paddock',
  handler: 'functions/livestock/paddocks.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: both('/paddock/{paddock_uuid}'),
  summary: 'Delete a paddock (refused while herds are in it)',
  request: { path: PaddockPath },
  responses: {
    200: {
      description: 'deleted',
      schema: z.object({ data: z.object({ paddock_uuid: z.string(), deleted: z.literal(true) }) }),
    },
  },
});

// --- herds ------------------------------------------------------------------------------------

const HerdPath = z.object({ herd_uuid: uuid });

export const CreateHerdBody = z.object({
  type_id: z.number().check(z.int()),
  animal_count: count,
  paddock_uuid: z.nullable(uuid),
  weight: z.number().check(z.nonnegative(), z.describe('total weight of the herd')),
  weight_unit: weightUnit,
  herd_name: z.string(),
  field_id: z.number().check(z.int(), z.positive()),
  herd_uuid: z.optional(uuid).check(z.describe('generated and returned when not sent')),
});

export const UpdateHerdBody = z.object({
  type_id: z.number().check(z.int()),
  herd_name: z.string(),
  new_animals: z.object({
    new_animals_count: count,
    new_animals_weight: z.number().check(z.nonnegative()),
    new_animals_weight_unit: weightUnit,
  }),
});

export const listHerdsRoute = defineRoute({
  ...livestockRoute,
  operationId: 'listHerds',
  record: 'herd',
  handler: 'functions/livestock/herds.list',
  method: 'get',
  paths: both('/herd'),
  summary: 'Herds of every readable field',
  responses: { 200: { description: 'herds', schema: z.object({ data: z.array(WireHerd) }) } },
  ...growingList,
});

export const createHerdRoute = defineRoute({
  ...livestockRoute,
  operationId: 'createHerd',
  record: 'herd',
  handler: 'functions/livestock/herds.post',
  touches: { table: 'write' },
  method: 'post',
  paths: both('/herd'),
  summary: 'Create a herd in a field (and optionally a paddock of it)',
  request: { body: CreateHerdBody },
  responses: { 200: { description: 'the herd, with its herd_uuid', schema: z.object({ data: WireHerd }) } },
});

export const updateHerdRoute = defineRoute({
  ...livestockRoute,
  operationId: 'updateHerd',
  record: 'herd',
  handler: 'functions/livestock/herds.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/herd/{herd_uuid}'),
  summary: 'Rename, recategorise and add new animals (head count and weight) to a herd',
  request: { path: HerdPath, body: UpdateHerdBody },
  responses: { 200: { description: 'the herd', schema: z.object({ data: WireHerd }) } },
});

export const deleteHerdRoute = defineRoute({
  ...livestockRoute,
  operationId: 'deleteHerd',
  record: 'herd',
  handler: 'functions/livestock/herds.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: both('/herd/{herd_uuid}'),
  summary: 'Delete a herd and its history',
  request: { path: HerdPath },
  responses: {
    200: {
      description: 'deleted',
      schema: z.object({ data: z.object({ herd_uuid: z.string(), deleted: z.literal(true) }) }),
    },
  },
});

export const herdCategoriesRoute = defineRoute({
  ...livestockRoute,
  operationId: 'listHerdCategories',
  handler: 'functions/livestock/herds.categories',
  method: 'get',
  paths: both('/herd/categories'),
  summary: 'Herd categories (read-only)',
  responses: {
    200: {
      description: 'categories',
      schema: z.object({ data: z.array(z.object({ id: z.number().check(z.int()), name: z.string() })) }),
    },
  },
});

export const herdHistoryRoute = defineRoute({
  ...livestockRoute,
  operationId: 'getHerdHistory',
  handler: 'functions/livestock/herds.history',
  method: 'get',
  paths: both('/herd/{herd_uuid}/transactions'),
  summary: "A herd's transactions (moves, exits, new animals), newest first",
  request: { path: HerdPath },
  responses: { 200: { description: 'history', schema: z.object({ data: z.array(WireTransaction) }) } },
  ...growingList,
});

// --- transactions -------------------------------------------------------------------------------

export const PaddockMoveBody = z.object({
  origin_herd_uuid: uuid,
  origin_paddock_uuid: z
    .nullable(uuid)
    .check(z.describe("the herd's paddock; null for a herd without one (it gets one this way)")),
  destination_paddock_uuid: uuid,
  transaction_date: dateTime,
  herd_name: z.optional(z.string()).check(z.describe('name of the herd at the destination')),
  herd_category: z.optional(z.number().check(z.int())).check(z.describe('category of the herd at the destination')),
  max_count: z
    .optional(z.number().check(z.int(), z.nonnegative()))
    .check(z.describe("the origin herd's head count as the client saw it; refused when it changed")),
  animal_count: z
    .optional(z.number().check(z.int(), z.gte(1)))
    .check(z.describe('animals to move; all when absent; a part moves as a new herd')),
  weight: z
    .optional(z.number().check(z.nonnegative()))
    .check(z.describe('weight of the animals moved; a proportional share when absent')),
  weight_unit: z.optional(weightUnit),
  note: z.optional(text(1000)),
  destination_field: z
    .optional(z.pipe(z.union([z.string(), z.number().check(z.int())]), z.transform(String)))
    .check(z.describe('id of the destination field')),
  transaction_uuid: z
    .optional(uuid)
    .check(z.describe('client uuid: sending the same move again returns the first result')),
});

export const ExitBody = z.object({
  destination_type: z.number().check(z.int(), z.describe('exit type id (2: herd to herd)')),
  animal_count: z.number().check(z.int(), z.gte(1)),
  weight: z.number().check(z.int(), z.nonnegative()),
  weight_unit: weightUnit,
  origin_herd_uuid: uuid,
  destination_herd_uuid: uuid,
  transaction_uuid: uuid,
  transaction_date: dateTime,
});

export const paddockMoveRoute = defineRoute({
  ...livestockRoute,
  operationId: 'movePaddock',
  handler: 'functions/livestock/transactions.paddock',
  touches: { table: 'write', sends: ['events'] },
  method: 'post',
  paths: both('/transaction/paddock'),
  summary: 'Move a herd, or part of it, to another paddock (possibly in another field)',
  request: { body: PaddockMoveBody },
  responses: { 200: { description: 'the transaction and the herds it changed', schema: TransactionResponse } },
});

export const exitRoute = defineRoute({
  ...livestockRoute,
  operationId: 'recordExit',
  handler: 'functions/livestock/transactions.exit',
  touches: { table: 'write', sends: ['events'] },
  method: 'post',
  paths: both('/transaction/exit'),
  summary:
    'Record animals leaving a herd (type 2 moves them into another herd); a repeated transaction_uuid records once',
  request: { body: ExitBody },
  responses: { 200: { description: 'the transaction and the herds it changed', schema: TransactionResponse } },
});

export const exitTypesRoute = defineRoute({
  ...livestockRoute,
  operationId: 'listExitTypes',
  handler: 'functions/livestock/transactions.exitTypes',
  method: 'get',
  paths: both('/transaction/exit/types'),
  summary: 'Exit types (read-only)',
  responses: {
    200: {
      description: 'exit types',
      schema: z.object({ data: z.array(z.object({ id: z.number().check(z.int()), type: z.string() })) }),
    },
  },
});

export const livestockRoutes = [
  listPaddocksRoute,
  getPaddockRoute,
  createPaddockRoute,
  updatePaddockRoute,
  deletePaddockRoute,
  listHerdsRoute,
  createHerdRoute,
  updateHerdRoute,
  deleteHerdRoute,
  herdCategoriesRoute,
  herdHistoryRoute,
  paddockMoveRoute,
  exitRoute,
  exitTypesRoute,
];
