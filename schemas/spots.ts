// Spots (spec 1): spots, lists, messages, images, tags, variables, sheets, units. Every path is
// served with and without the /api prefix. Errors: `{code, info}`.
import * as z from 'zod';
import { defineRoute } from '../lib/http/route';
import { spotsDialect } from '../lib/http/dialects';
import { SPOT_CODES, SPOT_LIMITS, tagRefKey, type Spot, type SpotMessage } from '../lib/spots/model';
import type { SpotPage } from '../lib/spots/list';
import type { SpotTag } from '../lib/spots/tags';
import { dateTimeZ, integer, text } from './common';
import { Forbidden } from '../lib/errors';
import { ewkbHex } from '../lib/geo/ewkb';

const spotsRoute = { tags: ['spots'], auth: 'bearer', dialect: spotsDialect } as const;
/** The Management zones functionality gates every change to spots (spec 1: creating needs it). */
const managementZones = {
  claims: ['MANAGEMENT_ZONES'],
  missingClaim: () => new Forbidden('the extension lacks the Management zones functionality', { code: SPOT_CODES.NO_PERMISSION }),
} as const;
const both = (path: string) => [`/api${path}`, path];

const timestamp = dateTimeZ();
const uuid = z.string().uuid();

// --- wire objects ------------------------------------------------------------------------------

export const Variable = z.object({ name: text(SPOT_LIMITS.VARIABLE_NAME, 1), unit_id: z.number().int().min(0), value: z.number() }).strict();
const TagRef = z.object({ tag: z.string(), uuid: z.string(), translatable: z.boolean() });
const ImageRef = z.object({ coordinate: z.string(), uuid: z.string() });

export const WireSpot = z.object({
  code: z.string(),
  uuid: z.string(),
  area: z.number(),
  farm_id: z.number().int(),
  field_id: z.number().int(),
  spot_name: z.string().nullable(),
  spot_shape: z.string(),
  creation_ts: z.string(),
  group_uuid: z.string().nullable(),
  group_shape: z.string().nullable(),
  sample_set_type: z.string().nullable(),
  sample_set_uuid: z.string().nullable(),
  sample_set_type_id: z.number().int().nullable(),
  sample_set_id: z.number().int().nullable(),
  spot_data: z.object({ variables: z.array(Variable) }).nullable(),
  total_imgs: z.number().int(),
  total_msgs: z.number().int(),
  tags: z.array(TagRef).nullable(),
});

export const WireMessage = z.object({ uuid: z.string(), text: z.string(), timestamp_usr: z.string(), imgs: z.array(ImageRef) });

export const wireMessage = (m: SpotMessage): z.infer<typeof WireMessage> => ({
  uuid: m.uuid,
  text: m.text,
  timestamp_usr: m.timestampUsr,
  imgs: m.imgs.map((i) => ({ coordinate: i.coordinate, uuid: i.uuid })),
});

export const wireTag = (t: SpotTag) => ({ tag: t.tag, uuid: t.uuid, translatable: t.translatable });

export const wireSpot = (spot: Spot, page: Pick<SpotPage, 'tags' | 'groupShapes'>): z.infer<typeof WireSpot> => {
  const tags = spot.tags.flatMap((ref) => {
    const tag = page.tags.get(tagRefKey(ref));
    return tag && !tag.deleted ? [wireTag(tag)] : [];
  });
  return {
    code: spot.code,
    uuid: spot.uuid,
    area: Number(spot.areaHa.toFixed(4)),
    farm_id: spot.farmId,
    field_id: spot.fieldId,
    spot_name: spot.name,
    spot_shape: spot.shape,
    creation_ts: spot.creationTs,
    group_uuid: spot.groupUuid,
    group_shape: spot.groupUuid ? (page.groupShapes.get(spot.groupUuid) ?? null) : null,
    sample_set_type: spot.sampleSetType,
    sample_set_uuid: spot.sampleSetUuid,
    sample_set_type_id: spot.sampleSetTypeId,
    sample_set_id: spot.sampleSetId,
    spot_data: spot.variables ? { variables: spot.variables } : null,
    total_imgs: spot.totalImgs,
    total_msgs: spot.totalMsgs,
    tags: tags.length ? tags : null,
  };
};

/** The record DELETE answers, with the platform's legacy keys; `shape` is hex-encoded EWKB (SRID 4326). */
export function legacySpotRecord(spot: Spot, deletedAt: string) {
  return {
    f_ini: spot.creationTs,
    id_tipo_zona_gestion: spot.kind === 'point' ? 1 : 2,
    code: spot.code,
    uuid: spot.uuid,
    fecha_alta: spot.creationTs,
    area: Number(spot.areaHa.toFixed(4)),
    id_muestra: spot.sampleSetId,
    fecha_fin: deletedAt,
    group_uuid: spot.groupUuid,
    shape: ewkbHex(spot.shape),
    datos: spot.variables ? { variables: spot.variables } : null,
    id_lote: spot.fieldId,
    nombre: spot.name,
    id: spot.id,
  };
}

// --- requests ----------------------------------------------------------------------------------

const TextItem = z.object({
  uuid: z.string().describe('UUID v1'),
  text: text(SPOT_LIMITS.TEXT),
  timestamp_usr: z.string().describe("the user's local time, YYYY-MM-DDTHH:MM:SSZ"),
  imgs: z.array(z.object({ coordinate: z.string().describe('WKT POINT'), uuid: z.string().describe('UUID v1') })).max(SPOT_LIMITS.IMAGES_PER_TEXT).optional(),
});

const spotFields = {
  name: text(SPOT_LIMITS.NAME).nullable().optional(),
  tags: z
    .array(z.object({ uuid: z.string().optional(), tag: text(SPOT_LIMITS.TAG_NAME).optional() }))
    .max(SPOT_LIMITS.TAGS)
    .optional()
    .describe('common tags, your own tags (created with the uuid and name sent when new), or tags the spot carries; without uuid, a new tag'),
  group_uuid: uuid.nullable().optional(),
  texts: z.array(TextItem).max(SPOT_LIMITS.TEXTS).optional(),
  sample_set: z
    .object({ sample_set_uuid: uuid, sample_set_type: text(SPOT_LIMITS.SAMPLE_SET_TYPE, 1, { trim: true }) })
    .nullable()
    .optional(),
  data: z.object({ variables: z.array(Variable).max(SPOT_LIMITS.VARIABLES) }).strict().nullable().optional(),
};

export const CreateSpotBody = z.object({
  uuid: z.string().optional().describe('UUID v1; generated when absent'),
  field_id: z.number().int().positive(),
  shape: z.string().min(1).describe('WKT POINT or POLYGON inside the field'),
  ...spotFields,
});

export const PatchSpotBody = z.object({
  uuid: uuid,
  field_id: z.number().int().positive().optional(),
  shape: z.string().min(1).optional(),
  ...spotFields,
});

const pageSize = integer().pipe(z.number().int().refine((v) => v === -1 || v >= 1, 'page_size is -1 (all) or at least 1'));
const page = integer().pipe(z.number().int().min(0));
const uuidList = z.union([z.array(uuid).max(100), z.string().max(4000).transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)).pipe(z.array(uuid).max(100))]);

const filterFields = {
  uuid: uuidList.optional().describe('one uuid or several separated by commas'),
  group_uuid: uuid.optional(),
  farm_id: integer().optional(),
  field_id: integer().optional(),
  sample_set_type: text(SPOT_LIMITS.SAMPLE_SET_TYPE).optional(),
  sample_set_uuid: uuid.optional(),
  date_from: timestamp.optional(),
  date_to: timestamp.optional(),
  tag_uuid: uuid.optional(),
  page_size: pageSize.optional().describe('default 50; -1 returns all'),
  page: page.optional().describe('default 0: the row offset (LIMIT page_size OFFSET page)'),
  cursor: z.string().max(1000).optional().describe('from a previous answer: the next page, at any depth'),
};

export const SpotFiltersQuery = z.object(filterFields);
export const SpotFiltersBody = z.object(filterFields).optional();

const SpotList = z.object({
  continues: z.boolean(),
  data: z.array(WireSpot),
  page: z.number().int(),
  page_size: z.number().int(),
  cursor: z.string().optional(),
});

// --- routes ------------------------------------------------------------------------------------

export const createSpotRoute = defineRoute({
  ...spotsRoute,
  operationId: 'createSpot',
  handler: 'functions/spots/spot.post',
  ...managementZones,
  touches: { table: 'write', sends: ['events'] },
  method: 'post',
  paths: both('/spots/spot'),
  summary: 'Create a spot (Management zones functionality); sending the same uuid again returns it',
  request: { body: CreateSpotBody },
  responses: { 200: { description: 'the spot', schema: z.object({ code: z.string(), spot_uuid: z.string() }) } },
});

export const listSpotsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'listSpots',
  handler: 'functions/spots/spot.list',
  method: 'get',
  paths: both('/spots/spot'),
  summary: "The user's spots, newest first (filters combined with AND)",
  request: { query: SpotFiltersQuery },
  responses: { 200: { description: 'a page of spots', schema: SpotList } },
});

export const patchSpotRoute = defineRoute({
  ...spotsRoute,
  operationId: 'patchSpot',
  handler: 'functions/spots/spot.patch',
  ...managementZones,
  touches: { table: 'write', sends: ['events'] },
  method: 'patch',
  paths: both('/spots/spot'),
  summary: 'Overwrite the parameters sent; tags replace all; texts are added by uuid',
  request: { body: PatchSpotBody },
  responses: { 200: { description: 'the spot uuid (the key carries a trailing colon)', schema: z.object({ 'spot_uuid:': z.string() }) } },
});

export const deleteSpotRoute = defineRoute({
  ...spotsRoute,
  operationId: 'deleteSpot',
  handler: 'functions/spots/spot.del',
  ...managementZones,
  touches: { table: 'write', sends: ['events'] },
  method: 'delete',
  paths: both('/spots/spot'),
  summary: 'Delete a spot; answers the deleted record with its legacy keys',
  request: { query: z.object({ uuid }) },
  responses: { 200: { description: 'the deleted record', schema: z.object({ spot_uuid: z.record(z.string(), z.unknown()) }) } },
});

export const getSpotsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'getSpots',
  handler: 'functions/spots/getspot.getspot',
  method: 'post',
  paths: both('/spots/getspot'),
  summary: 'Spot list for the mobile client: the filters in the body',
  request: { body: SpotFiltersBody },
  responses: { 200: { description: 'a page of spots', schema: SpotList } },
});

export const allSpotsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'getSpotsWithMessages',
  handler: 'functions/spots/getspot.all',
  method: 'post',
  paths: both('/spots/all'),
  summary: 'As getspot, each spot with its messages and images (pagination counts spots)',
  request: { body: SpotFiltersBody },
  responses: { 200: { description: 'a page of spots with messages', schema: SpotList } },
});

const MessagesBody = z.object({ uuid, texts: z.array(TextItem).min(1).max(100) });

export const createMessagesRoute = defineRoute({
  ...spotsRoute,
  operationId: 'createSpotMessages',
  handler: 'functions/spots/messages.post',
  ...managementZones,
  touches: { table: 'write' },
  method: 'post',
  paths: both('/spots/msgs'),
  summary: 'Add texts (with declared images) to a spot; texts already stored are kept once',
  request: { body: MessagesBody },
  responses: { 200: { description: 'the texts stored', schema: z.object({ spot_uuid: z.string(), texts: z.array(z.string()), added: z.array(z.string()) }) } },
});

export const listMessagesRoute = defineRoute({
  ...spotsRoute,
  operationId: 'listSpotMessages',
  handler: 'functions/spots/messages.list',
  method: 'get',
  paths: both('/spots/msgs'),
  summary: 'Messages of a spot, newest first',
  request: { query: z.object({ uuid, page_size: pageSize.optional().describe('default 20; -1 all'), page: page.optional().describe('default 0: the row offset') }) },
  responses: {
    200: {
      description: 'a page of messages',
      schema: z.object({ continues: z.boolean(), data: z.array(WireMessage), page: z.number().int(), page_size: z.number().int() }),
    },
  },
});

export const deleteMessageRoute = defineRoute({
  ...spotsRoute,
  operationId: 'deleteSpotMessage',
  handler: 'functions/spots/messages.del',
  ...managementZones,
  touches: { table: 'write', files: { 'spots/': ['delete'] } },
  method: 'delete',
  paths: both('/spots/msgs'),
  summary: 'Delete a message and its images',
  request: { query: z.object({ uuid }) },
  responses: { 200: { description: 'deleted', schema: z.object({ uuid: z.string(), deleted: z.literal(true) }) } },
});

export const IMAGE_ROUTE_MAX_BYTES = 6 * 1024 * 1024;

export const uploadImageRoute = defineRoute({
  ...spotsRoute,
  operationId: 'uploadSpotImage',
  handler: 'functions/spots/images.put',
  ...managementZones,
  touches: { table: 'write', files: { 'spots/': ['put'] } },
  method: 'put',
  paths: both('/spots/msgs/imgs'),
  summary: 'Upload an image declared in a text (multipart form field img; at most 5 MiB)',
  request: { query: z.object({ uuid }), bodyType: 'multipart' },
  maxBodyBytes: IMAGE_ROUTE_MAX_BYTES,
  responses: { 200: { description: 'stored', schema: z.object({ uuid: z.string(), stored: z.literal(true), size: z.number().int() }) } },
});

export const presignImageRoute = defineRoute({
  ...spotsRoute,
  operationId: 'presignSpotImage',
  handler: 'functions/spots/images.presign',
  ...managementZones,
  touches: { files: { 'spots/': ['put'] } },
  method: 'post',
  paths: both('/spots/msgs/imgs/upload'),
  summary: 'A presigned S3 POST to upload a declared image straight to storage (large photos, up to 25 MiB)',
  request: { query: z.object({ uuid, content_type: z.string().default('image/jpeg') }) },
  responses: {
    200: {
      description: 'POST the file to url with every field, the file last',
      schema: z.object({ url: z.string(), fields: z.record(z.string(), z.string()), expires_in: z.number().int(), max_bytes: z.number().int() }),
    },
  },
});

export const downloadImageRoute = defineRoute({
  ...spotsRoute,
  operationId: 'downloadSpotImage',
  handler: 'functions/spots/images.get',
  touches: { table: 'write', files: { 'spots/': ['get'] } },
  method: 'get',
  paths: both('/spots/msgs/imgs'),
  summary: 'Download an image (query uuid)',
  request: { query: z.object({ uuid }) },
  responses: { 200: { description: 'the image', contentType: 'image/*' }, 302: { description: 'large images: a short-lived URL' } },
});

export const downloadImageByPathRoute = defineRoute({
  ...spotsRoute,
  operationId: 'downloadSpotImageByPath',
  handler: 'functions/spots/images.getByPath',
  touches: { table: 'write', files: { 'spots/': ['get'] } },
  method: 'get',
  paths: both('/spots/msgs/imgs/{uuid}'),
  summary: 'Download an image (uuid as path suffix)',
  request: { path: z.object({ uuid }) },
  responses: { 200: { description: 'the image', contentType: 'image/*' }, 302: { description: 'large images: a short-lived URL' } },
});

const TagInput = z.object({ tag: z.string(), uuid: z.string().optional() });
const WireTags = z.object({ data: z.array(TagRef) });

export const createTagsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'createSpotTags',
  handler: 'functions/spots/tags.post',
  ...managementZones,
  touches: { table: 'write' },
  method: 'post',
  paths: both('/spots/tags'),
  summary: 'Create user tags (one or many); a uuid that exists, even deleted, is ignored',
  request: { body: z.union([TagInput, z.array(TagInput).min(1).max(100)]) },
  responses: { 200: { description: 'the tags, with ignored: true for those not created', schema: z.object({ data: z.array(TagRef.extend({ ignored: z.boolean() })) }) } },
});

const booleanFlag = z.string().optional().transform((v) => v === undefined || v.toLowerCase() !== 'false');

export const searchTagsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'searchSpotTags',
  handler: 'functions/spots/tags.get',
  method: 'get',
  paths: both('/spots/tags'),
  summary: 'Common and user tags; general=false leaves out common ones, user=false the user\'s',
  request: { query: z.object({ general: booleanFlag, user: booleanFlag }) },
  responses: { 200: { description: 'tags', schema: WireTags } },
});

export const renameTagRoute = defineRoute({
  ...spotsRoute,
  operationId: 'renameSpotTag',
  handler: 'functions/spots/tags.patch',
  ...managementZones,
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/spots/tags'),
  summary: 'Rename a user tag (common tags cannot change)',
  request: { body: z.object({ uuid, tag: z.string() }) },
  responses: { 200: { description: 'the tag', schema: z.object({ data: TagRef }) } },
});

export const deleteTagRoute = defineRoute({
  ...spotsRoute,
  operationId: 'deleteSpotTag',
  handler: 'functions/spots/tags.del',
  ...managementZones,
  touches: { table: 'write' },
  method: 'delete',
  paths: both('/spots/tags'),
  summary: 'Delete a user tag no spot uses (code 51 while in use)',
  request: { query: z.object({ uuid }) },
  responses: { 200: { description: 'deleted', schema: z.object({ uuid: z.string(), deleted: z.literal(true) }) } },
});

export const variablesRoute = defineRoute({
  ...spotsRoute,
  operationId: 'replaceSpotVariables',
  handler: 'functions/spots/variables.patch',
  ...managementZones,
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/spots/variables'),
  summary: "Replace a spot's variables",
  request: { body: z.object({ uuid, variables: z.array(Variable).max(500) }) },
  responses: { 200: { description: 'the variables', schema: z.object({ spot_uuid: z.string(), variables: z.array(Variable) }) } },
});

export const SHEET_ROUTE_MAX_BYTES = 6 * 1024 * 1024;

export const exportSheetRoute = defineRoute({
  ...spotsRoute,
  operationId: 'exportSpotSheet',
  handler: 'functions/spots/sheet.get',
  lambda: { timeout: 25, memorySize: 1024 },
  method: 'get',
  paths: both('/spots/sheet'),
  summary: "The user's spots and their variables as a spreadsheet (xlsx, or csv with format=csv)",
  request: {
    query: z.object({
      farm_id: integer().optional(),
      field_id: integer().optional(),
      date_from: timestamp.optional(),
      date_to: timestamp.optional(),
      tag_uuid: uuid.optional(),
      format: z.enum(['xlsx', 'csv']).default('xlsx'),
    }),
  },
  responses: { 200: { description: 'the sheet', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } },
});

export const importSheetRoute = defineRoute({
  ...spotsRoute,
  operationId: 'importSpotSheet',
  handler: 'functions/spots/sheet.post',
  ...managementZones,
  touches: { table: 'write' },
  lambda: { timeout: 25, memorySize: 1024 },
  method: 'post',
  paths: both('/spots/sheet'),
  summary: 'Upload variables from a .csv, .xls or .xlsx (form key sheet) with a Service_Spot_ID column',
  request: { bodyType: 'multipart' },
  maxBodyBytes: SHEET_ROUTE_MAX_BYTES,
  responses: {
    200: {
      description: 'variables found: null when one could not be uploaded',
      schema: z.object({ variables: z.record(z.string(), z.object({ name: z.string(), unit_id: z.number().int(), unit: z.string(), values: z.number().int() }).nullable()) }),
    },
  },
});

export const unitsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'listUnits',
  handler: 'functions/spots/units.get',
  method: 'get',
  paths: both('/utils/units'),
  summary: 'Measurement units (valid unit_id values)',
  responses: { 200: { description: 'units', schema: z.object({ code: z.literal(0), data: z.array(z.object({ unit_id: z.number().int(), name: z.string(), symbol: z.string() })) }) } },
});

export const spotRoutes = [
  createSpotRoute,
  listSpotsRoute,
  patchSpotRoute,
  deleteSpotRoute,
  getSpotsRoute,
  allSpotsRoute,
  createMessagesRoute,
  listMessagesRoute,
  deleteMessageRoute,
  uploadImageRoute,
  presignImageRoute,
  downloadImageRoute,
  downloadImageByPathRoute,
  createTagsRoute,
  searchTagsRoute,
  renameTagRoute,
  deleteTagRoute,
  variablesRoute,
  exportSheetRoute,
  importSheetRoute,
  unitsRoute,
];
