// Spots (spec 1): spots, lists, messages, images, tags, variables, sheets, units. Every path is
// served with and without the /api prefix. Errors: `{code, info}`.
import * as z from 'zod/mini';
import { Forbidden } from '../lib/errors';
import { ewkbHex } from '../lib/geo/ewkb';
import { spotsDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { SPOT_CODES } from '../lib/spots/codes';
import type { SpotPage } from '../lib/spots/list';
import { SPOT_LIMITS, type Spot, type SpotMessage, tagRefKey } from '../lib/spots/model';
import type { SpotTag } from '../lib/spots/tags';
import { dateTimeZ, integer, text } from './common';

const spotsRoute = { tags: ['spots'], auth: 'bearer', dialect: spotsDialect } as const;
/** The Management zones functionality gates every change to spots (spec 1: creating needs it). */
const managementZones = {
  claims: ['MANAGEMENT_ZONES'],
  missingClaim: () =>
    new Forbidden('the extension lacks the Management zones functionality', { code: SPOT_CODES.NO_PERMISSION }),
} as const;
const both = (path: string) => [`/api${path}`, path];

const timestamp = dateTimeZ();
const uuid = z.string().check(z.uuid());

// --- wire objects ------------------------------------------------------------------------------

export const Variable = z.strictObject({
  name: text(SPOT_LIMITS.VARIABLE_NAME, 1),
  unit_id: z.number().check(z.int(), z.gte(0)),
  value: z.number(),
});
const TagRef = z.object({ tag: z.string(), uuid: z.string(), translatable: z.boolean() });
const ImageRef = z.object({ coordinate: z.string(), uuid: z.string() });

export const WireSpot = z.object({
  code: z.string(),
  uuid: z.string(),
  area: z.number(),
  farm_id: z.number().check(z.int()),
  field_id: z.number().check(z.int()),
  spot_name: z.nullable(z.string()),
  spot_shape: z.string(),
  creation_ts: z.string(),
  group_uuid: z.nullable(z.string()),
  group_shape: z.nullable(z.string()),
  sample_set_type: z.nullable(z.string()),
  sample_set_uuid: z.nullable(z.string()),
  sample_set_type_id: z.nullable(z.number().check(z.int())),
  sample_set_id: z.nullable(z.number().check(z.int())),
  spot_data: z.nullable(z.object({ variables: z.array(Variable) })),
  total_imgs: z.number().check(z.int()),
  total_msgs: z.number().check(z.int()),
  tags: z.nullable(z.array(TagRef)),
});

export const WireMessage = z.object({
  uuid: z.string(),
  text: z.string(),
  timestamp_usr: z.string(),
  imgs: z.array(ImageRef),
});

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
  uuid: z.string().check(z.describe('UUID v1')),
  text: text(SPOT_LIMITS.TEXT),
  timestamp_usr: z.string().check(z.describe("the user's local time, YYYY-MM-DDTHH:MM:SSZ")),
  imgs: z.optional(
    z
      .array(
        z.object({
          coordinate: z.string().check(z.describe('WKT POINT')),
          uuid: z.string().check(z.describe('UUID v1')),
        }),
      )
      .check(z.maxLength(SPOT_LIMITS.IMAGES_PER_TEXT)),
  ),
});

const spotFields = {
  name: z.optional(z.nullable(text(SPOT_LIMITS.NAME))),
  tags: z
    .optional(
      z
        .array(z.object({ uuid: z.optional(z.string()), tag: z.optional(text(SPOT_LIMITS.TAG_NAME)) }))
        .check(z.maxLength(SPOT_LIMITS.TAGS)),
    )
    .check(
      z.describe(
        'common tags, your own tags (created with the uuid and name sent when new), or tags the spot carries; without uuid, a new tag',
      ),
    ),
  group_uuid: z.optional(z.nullable(uuid)),
  texts: z.optional(z.array(TextItem).check(z.maxLength(SPOT_LIMITS.TEXTS))),
  sample_set: z.optional(
    z.nullable(
      z.object({ sample_set_uuid: uuid, sample_set_type: text(SPOT_LIMITS.SAMPLE_SET_TYPE, 1, { trim: true }) }),
    ),
  ),
  data: z.optional(
    z.nullable(z.strictObject({ variables: z.array(Variable).check(z.maxLength(SPOT_LIMITS.VARIABLES)) })),
  ),
};

export const CreateSpotBody = z.object({
  uuid: z.optional(z.string()).check(z.describe('UUID v1; generated when absent')),
  field_id: z.number().check(z.int(), z.positive()),
  shape: z.string().check(z.minLength(1), z.describe('WKT POINT or POLYGON inside the field')),
  ...spotFields,
});

export const PatchSpotBody = z.object({
  uuid: uuid,
  field_id: z.optional(z.number().check(z.int(), z.positive())),
  shape: z.optional(z.string().check(z.minLength(1))),
  ...spotFields,
});

const pageSize = z.pipe(
  integer(),
  z.number().check(
    z.int(),
    z.refine((v) => v === -1 || v >= 1, 'page_size is -1 (all) or at least 1'),
  ),
);
const page = z.pipe(integer(), z.number().check(z.int(), z.gte(0)));
const uuidList = z.union([
  z.array(uuid).check(z.maxLength(100)),
  z.pipe(
    z.pipe(
      z.string().check(z.maxLength(4000)),
      z.transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ),
    z.array(uuid).check(z.maxLength(100)),
  ),
]);

const filterFields = {
  uuid: z.optional(uuidList).check(z.describe('one uuid or several separated by commas')),
  group_uuid: z.optional(uuid),
  farm_id: z.optional(integer()),
  field_id: z.optional(integer()),
  sample_set_type: z.optional(text(SPOT_LIMITS.SAMPLE_SET_TYPE)),
  sample_set_uuid: z.optional(uuid),
  date_from: z.optional(timestamp),
  date_to: z.optional(timestamp),
  tag_uuid: z.optional(uuid),
  page_size: z.optional(pageSize).check(z.describe('default 50; -1 returns all')),
  page: z.optional(page).check(z.describe('default 0: the row offset (LIMIT page_size OFFSET page)')),
  cursor: z
    .optional(z.string().check(z.maxLength(1000)))
    .check(z.describe('from a previous answer: the next page, at any depth')),
};

export const SpotFiltersQuery = z.object(filterFields);
export const SpotFiltersBody = z.optional(z.object(filterFields));

const pageFields = {
  continues: z.boolean(),
  page: z.number().check(z.int()),
  page_size: z.number().check(z.int()),
  cursor: z.optional(z.string()),
};
const SpotList = z.object({ ...pageFields, data: z.array(WireSpot) });
/** POST /api/spots/all: each spot with its messages and their images. */
const SpotWithMessagesList = z.object({
  ...pageFields,
  data: z.array(z.extend(WireSpot, { msgs: z.array(WireMessage) })),
});

// --- routes ------------------------------------------------------------------------------------

export const createSpotRoute = defineRoute({
  ...spotsRoute,
  operationId: 'createSpot',
  record: 'spot',
  handler: 'functions/spots/spot.post',
  ...managementZones,
  touches: { table: 'write' },
  method: 'post',
  paths: both('/spots/spot'),
  summary: 'Create a spot (Management zones functionality); sending the same uuid again returns it',
  request: { body: CreateSpotBody },
  responses: { 200: { description: 'the spot', schema: z.object({ code: z.string(), spot_uuid: z.string() }) } },
});

export const listSpotsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'listSpots',
  // page_size -1 answers every one (spec): the list grows with the account
  ...growingList,
  record: 'spot',
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
  record: 'spot',
  handler: 'functions/spots/spot.patch',
  ...managementZones,
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/spots/spot'),
  summary: 'Overwrite the parameters sent; tags replace all; texts are added by uuid',
  request: { body: PatchSpotBody },
  responses: {
    200: {
      description: 'the spot uuid (the key carries a trailing colon)',
      schema: z.object({ 'spot_uuid:': z.string() }),
    },
  },
});

export const deleteSpotRoute = defineRoute({
  ...spotsRoute,
  operationId: 'deleteSpot',
  record: 'spot',
  handler: 'functions/spots/spot.del',
  ...managementZones,
  touches: { table: 'write', sends: ['events'] },
  method: 'delete',
  paths: both('/spots/spot'),
  summary: 'Delete a spot; answers the deleted record with its legacy keys',
  request: { query: z.object({ uuid }) },
  responses: {
    200: { description: 'the deleted record', schema: z.object({ spot_uuid: z.record(z.string(), z.unknown()) }) },
  },
});

export const getSpotsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'getSpots',
  // page_size -1 answers every one (spec): the list grows with the account
  ...growingList,
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
  // page_size -1 answers every one (spec): the list grows with the account
  ...growingList,
  handler: 'functions/spots/getspot.all',
  method: 'post',
  paths: both('/spots/all'),
  summary: 'As getspot, each spot with its messages and images (pagination counts spots)',
  request: { body: SpotFiltersBody },
  responses: { 200: { description: 'a page of spots with messages', schema: SpotWithMessagesList } },
});

const MessagesBody = z.object({ uuid, texts: z.array(TextItem).check(z.minLength(1), z.maxLength(100)) });

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
  responses: {
    200: {
      description: 'the texts stored',
      schema: z.object({ spot_uuid: z.string(), texts: z.array(z.string()), added: z.array(z.string()) }),
    },
  },
});

export const listMessagesRoute = defineRoute({
  ...spotsRoute,
  operationId: 'listSpotMessages',
  // page_size -1 answers every one (spec): the list grows with the account
  ...growingList,
  handler: 'functions/spots/messages.list',
  method: 'get',
  paths: both('/spots/msgs'),
  summary: 'Messages of a spot, newest first',
  request: {
    query: z.object({
      uuid,
      page_size: z.optional(pageSize).check(z.describe('default 20; -1 all')),
      page: z.optional(page).check(z.describe('default 0: the row offset')),
    }),
  },
  responses: {
    200: {
      description: 'a page of messages',
      schema: z.object({
        continues: z.boolean(),
        data: z.array(WireMessage),
        page: z.number().check(z.int()),
        page_size: z.number().check(z.int()),
      }),
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
  responses: {
    200: {
      description: 'stored',
      schema: z.object({ uuid: z.string(), stored: z.literal(true), size: z.number().check(z.int()) }),
    },
  },
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
  request: { query: z.object({ uuid, content_type: z._default(z.string(), 'image/jpeg') }) },
  responses: {
    200: {
      description: 'POST the file to url with every field, the file last',
      schema: z.object({
        url: z.string(),
        fields: z.record(z.string(), z.string()),
        expires_in: z.number().check(z.int()),
        max_bytes: z.number().check(z.int()),
      }),
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
  responses: {
    200: { description: 'the image', contentType: 'image/*' },
    302: { description: 'large images: a short-lived URL' },
  },
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
  responses: {
    200: { description: 'the image', contentType: 'image/*' },
    302: { description: 'large images: a short-lived URL' },
  },
});

const TagInput = z.object({ tag: z.string(), uuid: z.optional(z.string()) });
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
  request: { body: z.union([TagInput, z.array(TagInput).check(z.minLength(1), z.maxLength(100))]) },
  responses: {
    200: {
      description: 'the tags, with ignored: true for those not created',
      schema: z.object({ data: z.array(z.extend(TagRef, { ignored: z.boolean() })) }),
    },
  },
});

const booleanFlag = z.pipe(
  z.optional(z.string()),
  z.transform((v) => v === undefined || v.toLowerCase() !== 'false'),
);

export const searchTagsRoute = defineRoute({
  ...spotsRoute,
  operationId: 'searchSpotTags',
  handler: 'functions/spots/tags.get',
  method: 'get',
  paths: both('/spots/tags'),
  summary: "Common and user tags; general=false leaves out common ones, user=false the user's",
  request: { query: z.object({ general: booleanFlag, user: booleanFlag }) },
  responses: { 200: { description: 'tags', schema: WireTags } },
  ...growingList,
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
  record: 'spot',
  handler: 'functions/spots/variables.patch',
  ...managementZones,
  touches: { table: 'write' },
  method: 'patch',
  paths: both('/spots/variables'),
  summary: "Replace a spot's variables",
  request: { body: z.object({ uuid, variables: z.array(Variable).check(z.maxLength(500)) }) },
  responses: {
    200: { description: 'the variables', schema: z.object({ spot_uuid: z.string(), variables: z.array(Variable) }) },
  },
});

export const SHEET_ROUTE_MAX_BYTES = 6 * 1024 * 1024;

export const exportSheetRoute = defineRoute({
  ...spotsRoute,
  operationId: 'exportSpotSheet',
  // every spot of the caller (of a farm or field when named) and its variables: grows with the account
  ...growingList,
  handler: 'functions/spots/sheet.get',
  lambda: { timeout: 25, memorySize: 1024 },
  method: 'get',
  paths: both('/spots/sheet'),
  summary: "The user's spots and their variables as a spreadsheet (xlsx, or csv with format=csv)",
  request: {
    query: z.object({
      farm_id: z.optional(integer()),
      field_id: z.optional(integer()),
      date_from: z.optional(timestamp),
      date_to: z.optional(timestamp),
      tag_uuid: z.optional(uuid),
      format: z._default(z.enum(['xlsx', 'csv']), 'xlsx'),
    }),
  },
  responses: {
    200: {
      description: 'the sheet: an xlsx workbook, or CSV text (format=csv)',
      contentType: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
    },
  },
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
      schema: z.object({
        variables: z.record(
          z.string(),
          z.nullable(
            z.object({
              name: z.string(),
              unit_id: z.number().check(z.int()),
              unit: z.string(),
              values: z.number().check(z.int()),
            }),
          ),
        ),
      }),
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
  responses: {
    200: {
      description: 'units',
      schema: z.object({
        code: z.literal(0),
        data: z.array(z.object({ unit_id: z.number().check(z.int()), name: z.string(), symbol: z.string() })),
      }),
    },
  },
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
