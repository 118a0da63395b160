// Inputs (spec 3): GET /api/registro_campo/insumos; POST, PATCH, DELETE /registro_campo/insumo
// (served with and without /api). Changes take arrays; each item is processed on its own.
// docs/decisions.md, "Inputs".
import * as z from 'zod/mini';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import type { InputRecord } from '../lib/inputs/catalogue';
import { type Denied, INPUT_BATCH_MAX, INPUT_NAME_MAX, type InputRef } from '../lib/inputs/service';
import { booleanLike, text } from './common';

const inputsRoute = { tags: ['inputs'], auth: 'bearer', dialect: generalDialect } as const;
const both = (path: string) => [`/api${path}`, path];

const uuid = z.pipe(
  z.uuid(),
  z.transform((v) => v.toLowerCase()),
);
const country = z.pipe(
  z.string().check(z.regex(/^[A-Za-z]{2}$/, 'a 2-letter country code')),
  z.transform((v) => v.toUpperCase()),
);

/** What a personal input may carry besides its name (all optional). */
const Attributes = {
  code: z.optional(
    z.nullable(z.union([z.string().check(z.maxLength(40)), z.pipe(z.number().check(z.int()), z.transform(String))])),
  ),
  country: z.optional(z.nullable(country)),
  company: z.optional(z.nullable(text(200))),
  type: z.optional(z.nullable(text(100))),
  state: z.optional(z.nullable(text(100))),
  density: z.optional(z.nullable(z.number().check(z.positive(), z.lte(100)))).check(z.describe('kg/L')),
};

export const NewInputItem = z.object({
  name: text(INPUT_NAME_MAX, 1, { trim: true }),
  uuid: z.optional(uuid),
  ...Attributes,
});
export const InputChangeItem = z.object({
  uuid: z.optional(uuid),
  id: z.optional(z.number().check(z.int(), z.positive())),
  name: z.optional(text(INPUT_NAME_MAX, 1, { trim: true })),
  ...Attributes,
});
export const InputSelectorItem = z.object({
  uuid: z.optional(uuid),
  id: z.optional(z.number().check(z.int(), z.positive())),
});

const batch = (item: string) =>
  z
    .array(z.unknown())
    .check(
      z.minLength(1),
      z.maxLength(INPUT_BATCH_MAX),
      z.describe(`items as ${item}; an item that is not is listed under denied`),
    );

export const WireInput = z.object({
  id: z.number().check(z.int()),
  uuid: z.string(),
  name: z.string(),
  user_input: z.boolean(),
  code: z.string().check(z.describe("'' when the input has none")),
  country: z.nullable(z.string()),
  company: z.string().check(z.describe("'' when the input has none")),
  type: z.string().check(z.describe("'' when the input has none")),
  state: z.string().check(z.describe("'' when the input has none")),
  density: z.nullable(z.number()),
  composition: z.unknown(),
  components: z.array(
    z.object({
      uuid: z.string(),
      id: z.number().check(z.int()),
      name: z.string(),
      active_principle: z.boolean(),
      eiq_1: z.nullable(z.number()),
      concentration: z.number(),
    }),
  ),
});

export const wireInput = (input: InputRecord): z.infer<typeof WireInput> => ({
  id: input.id,
  uuid: input.uuid,
  name: input.name,
  user_input: input.ownerId !== null,
  // the Input table types these as strings (only country, density and composition may be null)
  code: input.code ?? '',
  country: input.country,
  company: input.company ?? '',
  type: input.type ?? '',
  state: input.state ?? '',
  density: input.density,
  composition: input.composition ?? null,
  components: input.components.map((c) => ({
    uuid: c.uuid,
    id: c.id,
    name: c.name,
    active_principle: c.activePrinciple,
    eiq_1: c.eiq,
    concentration: c.concentration,
  })),
});

const DeniedItem = z.record(z.string(), z.unknown()).check(z.describe('the item as sent, with `reason`'));
/** A denied item as sent, with the reason. */
export const wireDenied = ({ item, reason }: Denied<unknown>) => ({
  ...(item && typeof item === 'object' && !Array.isArray(item) ? item : { item }),
  reason,
});
const Ref = z.object({ id: z.number().check(z.int()), name: z.string(), uuid: z.string() });
export const wireRef = (ref: InputRef) => ({ id: ref.id, name: ref.name, uuid: ref.uuid });

export const listInputsRoute = defineRoute({
  ...inputsRoute,
  operationId: 'listInputs',
  record: 'input',
  handler: 'functions/inputs/inputs.list',
  method: 'get',
  paths: both('/registro_campo/insumos'),
  summary: "The master inputs and the caller's personal inputs",
  description: 'Filters combine with AND. Answers whatever Content-Type the request names (clients send text/plain).',
  request: {
    query: z.object({
      user_input: z
        .optional(booleanLike())
        .check(z.describe("true: only the caller's inputs; false: only the master list")),
      code: z.optional(z.string().check(z.maxLength(40))),
      country: z.optional(country).check(z.describe("that country's inputs and those of no country")),
    }),
  },
  responses: { 200: { description: 'inputs', schema: z.array(WireInput) } },
  ...growingList,
});

export const createInputsRoute = defineRoute({
  ...inputsRoute,
  operationId: 'createInputs',
  record: 'input',
  handler: 'functions/inputs/inputs.post',
  touches: { table: 'write' },
  method: 'post',
  paths: both('/registro_campo/insumo'),
  summary: 'Create personal inputs; a repeated uuid answers the input it made',
  request: { body: batch('{name, uuid?, code?, country?, company?, type?, state?, density?}') },
  responses: {
    200: {
      description: 'created and denied items',
      schema: z.object({
        status: z.literal('successful inputs creation'),
        res: z.literal('OK'),
        denied: z.array(DeniedItem),
        created: z.array(z.object({ nombre: z.string(), id: z.number().check(z.int()), uuid: z.string() })),
      }),
    },
  },
});

export const modifyInputsRoute = defineRoute({
  ...inputsRoute,
  operationId: 'modifyInputs',
  record: 'input',
  handler: 'functions/inputs/inputs.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/registro_campo/insumo'),
  summary: "Change the caller's own inputs (by uuid or id); master and others' inputs are denied",
  request: { body: batch('{uuid?, id?, name?, code?, country?, company?, type?, state?, density?}') },
  responses: {
    200: {
      description: 'changed and denied items',
      schema: z.object({
        status: z.literal('successful inputs modification'),
        res: z.literal('OK'),
        modificated: z.array(Ref),
        denied: z.array(DeniedItem),
      }),
    },
  },
});

export const deleteInputsRoute = defineRoute({
  ...inputsRoute,
  operationId: 'deleteInputs',
  record: 'input',
  handler: 'functions/inputs/inputs.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: both('/registro_campo/insumo'),
  summary: "Delete the caller's own inputs (they stay readable inside the labours that use them)",
  request: { body: batch('{uuid?, id?}') },
  responses: {
    200: {
      description: 'deleted and denied items',
      schema: z.object({
        status: z.literal('successful inputs deletion'),
        res: z.literal('OK'),
        deleted: z.array(Ref),
        denied: z.array(DeniedItem),
      }),
    },
  },
});

export const inputRoutes = [listInputsRoute, createInputsRoute, modifyInputsRoute, deleteInputsRoute];
