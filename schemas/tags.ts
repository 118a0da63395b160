// Farm tags (/api/tags_campos/...) and field tags (/api/fields/v2/tag), spec 2.
import * as z from 'zod/mini';
import { farmTagsDialect, fieldTagsDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import type { Tag } from '../lib/tags/service';
import { positiveInteger } from './common';

const farmTagsRoute = { tags: ['farm tags'], auth: 'bearer', dialect: farmTagsDialect } as const;
const fieldTagsRoute = { tags: ['field tags'], auth: 'bearer', dialect: fieldTagsDialect } as const;

const color = z.string().check(z.describe('6 hexadecimal characters, no #; random when absent'));
const TagMap = z.record(z.string(), z.object({ tag: z.string(), color: z.string() }));

/** `{<id_tag>: {tag, color}}` */
export const tagMap = (tags: Tag[]) =>
  Object.fromEntries(tags.map((t) => [String(t.id), { tag: t.tag, color: t.color }]));

// Parameters come in the query string (as the spec shows) or in a JSON/form body.
export const CreateTagParams = z.object({
  desc: z.optional(z.string()),
  color: z.optional(color),
  id_campo: z.optional(positiveInteger()),
});
export const UpdateTagParams = z.object({
  id_tag: z.optional(positiveInteger()),
  desc: z.optional(z.string()),
  color: z.optional(color),
});
export const GetTagsParams = z.object({
  id_tag: z.optional(positiveInteger()),
  id_campo: z.optional(positiveInteger()),
});
export const TagIdParams = z.object({ id_tag: z.optional(positiveInteger()) });
export const LinkParams = z.object({ id_tag: z.optional(positiveInteger()), id_campo: z.optional(positiveInteger()) });

export const createFarmTagRoute = defineRoute({
  ...farmTagsRoute,
  operationId: 'createFarmTag',
  record: 'farm_tag',
  handler: 'functions/tags/farm-tags.post',
  touches: { table: 'write' },
  method: 'post',
  paths: ['/api/tags_campos/tag'],
  summary: 'Create a tag (optionally attached to a farm)',
  request: { query: CreateTagParams, params: 'query-or-body' },
  responses: {
    200: {
      description: 'created',
      schema: z.object({
        color: z.string(),
        res: z.literal('creado'),
        tag: z.string(),
        id_tag: z.number().check(z.int()),
        id_campo: z.nullable(z.number().check(z.int())),
      }),
    },
  },
});

export const updateFarmTagRoute = defineRoute({
  ...farmTagsRoute,
  operationId: 'updateFarmTag',
  record: 'farm_tag',
  handler: 'functions/tags/farm-tags.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: ['/api/tags_campos/tag'],
  summary: 'Change the text and/or colour of a tag (colour random when not sent)',
  request: { query: UpdateTagParams, params: 'query-or-body' },
  responses: {
    200: {
      description: 'modified',
      schema: z.object({
        color: z.string(),
        id_usuario: z.number().check(z.int()),
        tag: z.string(),
        id_tag: z.number().check(z.int()),
        res: z.literal('modificado'),
      }),
    },
  },
});

export const getFarmTagsRoute = defineRoute({
  ...farmTagsRoute,
  operationId: 'getFarmTags',
  record: 'farm_tag',
  handler: 'functions/tags/farm-tags.get',
  method: 'get',
  paths: ['/api/tags_campos/tag'],
  summary: "One tag (id_tag), the tags of a farm (id_campo), or all the user's tags",
  request: { query: GetTagsParams, params: 'query-or-body' },
  responses: {
    200: {
      description: 'the tags',
      schema: z.object({ filter: z.enum(['tag info', 'farm tags', 'user tags']), result: TagMap }),
    },
  },
  ...growingList,
});

export const deleteFarmTagRoute = defineRoute({
  ...farmTagsRoute,
  operationId: 'deleteFarmTag',
  record: 'farm_tag',
  handler: 'functions/tags/farm-tags.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: ['/api/tags_campos/tag'],
  summary: 'Delete a tag (and its links to farms and fields)',
  request: { query: TagIdParams, params: 'query-or-body' },
  responses: {
    200: {
      description: 'deleted',
      schema: z.object({ res: z.literal('eliminado'), id_tag: z.number().check(z.int()) }),
    },
  },
});

export const linkFarmTagRoute = defineRoute({
  ...farmTagsRoute,
  operationId: 'linkFarmTag',
  handler: 'functions/tags/farm-tag-links.post',
  touches: { table: 'write' },
  method: 'post',
  paths: ['/api/tags_campos/asociar'],
  summary: 'Attach a tag to a farm; answers every tag now on the farm',
  request: { query: LinkParams, params: 'query-or-body' },
  responses: { 200: { description: 'tags of the farm', schema: TagMap } },
});

export const unlinkFarmTagRoute = defineRoute({
  ...farmTagsRoute,
  operationId: 'unlinkFarmTag',
  handler: 'functions/tags/farm-tag-links.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: ['/api/tags_campos/asociar'],
  summary: 'Detach a tag from a farm; answers the tags remaining on the farm',
  request: { query: LinkParams, params: 'query-or-body' },
  responses: { 200: { description: 'tags of the farm', schema: TagMap } },
});

// --- field tags -------------------------------------------------------------------------------

const fieldRef = {
  field_uuid: z.optional(z.string().check(z.uuid())),
  field_id: z.optional(positiveInteger()),
  tag_id: positiveInteger(),
};
const exactlyOneField = (value: { field_uuid?: string; field_id?: number }) =>
  (value.field_uuid === undefined) !== (value.field_id === undefined);
const oneFieldMessage = { message: 'exactly one of field_uuid and field_id is required' };

export const FieldTagBody = z.object(fieldRef).check(z.refine(exactlyOneField, oneFieldMessage));
export const FieldTagQuery = z.object(fieldRef).check(z.refine(exactlyOneField, oneFieldMessage));

const FieldTagsResponse = z.object({
  CODE: z.literal('OK'),
  data: z.array(z.object({ id_tag: z.number().check(z.int()), tag: z.string(), color: z.string() })),
});

export const fieldTagsResponse = (tags: Tag[]) => ({
  CODE: 'OK' as const,
  data: tags.map((t) => ({ id_tag: t.id, tag: t.tag, color: t.color })),
});

export const linkFieldTagRoute = defineRoute({
  ...fieldTagsRoute,
  operationId: 'linkFieldTag',
  handler: 'functions/tags/field-tags.post',
  touches: { table: 'write' },
  method: 'post',
  paths: ['/api/fields/v2/tag'],
  summary: 'Attach an existing tag to a field (field_uuid preferred, or field_id)',
  request: { body: FieldTagBody },
  responses: { 200: { description: 'tags of the field', schema: FieldTagsResponse } },
});

export const unlinkFieldTagRoute = defineRoute({
  ...fieldTagsRoute,
  operationId: 'unlinkFieldTag',
  handler: 'functions/tags/field-tags.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: ['/api/fields/v2/tag'],
  summary: 'Detach a tag from a field',
  request: { query: FieldTagQuery },
  responses: { 200: { description: 'tags of the field', schema: FieldTagsResponse } },
});

export const tagRoutes = [
  createFarmTagRoute,
  updateFarmTagRoute,
  getFarmTagsRoute,
  deleteFarmTagRoute,
  linkFarmTagRoute,
  unlinkFarmTagRoute,
  linkFieldTagRoute,
  unlinkFieldTagRoute,
];
