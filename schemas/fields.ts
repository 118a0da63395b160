// Fields and farms (spec 2, "Fields"): POST /api/agregarlote, GET /api/getfields,
// GET /api/borrarlotes. Wire names are the spec's; lib/fields uses English names.
import * as z from 'zod/mini';
import type { Access } from '../lib/authz/access';
import { Forbidden } from '../lib/errors';
import { FIELD_CODES } from '../lib/fields/codes';
import type { FarmPages, ListedFarm, ListedField, PagedListing } from '../lib/fields/list';
import { boundsToWkt, GEOMETRY_ROUTE_MAX_BYTES, unionBounds } from '../lib/geo/bounds';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';
import type { User } from '../lib/platform/model';

const fieldsRoute = { tags: ['fields'], auth: 'bearer', dialect: generalDialect } as const;

// --- POST /api/agregarlote ------------------------------------------------------------------

/** Every member is optional here: a missing one is the spec's code 9, checked in the handler. */
export const CreateFieldForm = z.object({
  nombre: z.optional(z.string()),
  shape: z.optional(z.string()),
  idcampo: z.union([
    z.optional(z.pipe(z.string().check(z.trim(), z.regex(/^\d+$/, 'idcampo must be an integer')), z.transform(Number))),
    z.pipe(
      z.literal(''),
      z.transform(() => undefined),
    ),
  ]),
  nombrecampo: z.optional(z.string()),
});

export const CreateFieldResponse = z.object({
  res: z.literal('ok'),
  code: z.literal(0),
  info: z.string(),
  id_lote: z.string(),
  id_campo: z.number().check(z.int()),
});

export const createFieldRoute = defineRoute({
  ...fieldsRoute,
  operationId: 'createField',
  handler: 'functions/fields/agregarlote.post',
  claims: ['FIELDS_CREATE'],
  missingClaim: () =>
    new Forbidden('the extension version lacks the Create Fields feature', { code: FIELD_CODES.NO_PERMISSION }),
  touches: { table: 'write', sends: ['imageryUrgent', 'imageryBulk', 'events'] },
  method: 'post',
  paths: ['/api/agregarlote'],
  summary: 'Create a field in an existing farm (idcampo) or in a farm found or created by name (nombrecampo)',
  description: 'Requires the Create Fields feature (claim FIELDS_CREATE). Error codes: see the field-creation table.',
  request: { body: CreateFieldForm, bodyType: 'form' },
  maxBodyBytes: GEOMETRY_ROUTE_MAX_BYTES,
  responses: { 200: { description: 'the field was created', schema: CreateFieldResponse } },
});

// --- GET /api/getfields ---------------------------------------------------------------------

const WireField = z.object({
  id: z.number().check(z.int()),
  uuid: z.string(),
  name: z.string(),
  role: z.number().check(z.int()),
  permissions: z.array(z.number().check(z.int())),
  farm: z.string(),
  farm_id: z.number().check(z.int()),
  country: z.nullable(z.string()),
  shapes: z.object({
    current: z.object({
      polygon: z.string(),
      centroid: z.string(),
      area: z.number(),
      start_date: z.string(),
      end_date: z.literal('current'),
      bbox: z.string(),
    }),
  }),
});

const WireFarm = z.object({
  id: z.number().check(z.int()),
  uuid: z.string(),
  name: z.string(),
  tags: z.nullable(z.array(z.number().check(z.int()))),
  tags_names: z.array(z.string()),
  permissions: z.array(z.number().check(z.int())),
  role: z.number().check(z.int()),
  bbox: z.nullable(z.string()),
  fields: z.record(z.string(), WireField),
});

const WireUserFarms = z.object({
  uid: z.string(),
  user_name: z.string(),
  farms: z.record(z.string(), WireFarm),
});

export const GetFieldsResponse = z.object({
  code: z.literal(0),
  user: WireUserFarms,
  supervised: z.record(z.string(), WireUserFarms),
});

export const getFieldsRoute = defineRoute({
  ...fieldsRoute,
  operationId: 'getFields',
  handler: 'functions/fields/getfields.get',
  method: 'get',
  paths: ['/api/getfields'],
  summary: 'The farms and fields the user reaches, grouped by farm, and those of the users it supervises',
  description:
    'The whole structure, however large the account (no paging in the contract): streamed as it is read, gzip-compressed when the client accepts it (Accept-Encoding: gzip).',
  responses: { 200: { description: 'the fields', schema: GetFieldsResponse } },
  // streamed (API Gateway transfer mode STREAM): an account's fields in any number, never all in memory
  stream: true,
});

const round = (value: number, digits: number) => Number(value.toFixed(digits));

const access = (a: Access) => ({ role: a.role, permissions: a.permissions });

/** A farm's members but its fields and bbox (which come from its fields). */
const wireFarmHead = (entry: Pick<ListedFarm, 'farm' | 'access' | 'tags'>) => ({
  id: entry.farm.id,
  uuid: entry.farm.uuid,
  name: entry.farm.name,
  tags: entry.tags.length ? entry.tags.map((t) => t.id) : null,
  tags_names: entry.tags.map((t) => t.tag),
  ...access(entry.access),
});

const wireField = (farm: ListedFarm['farm'], { field, access: fieldAccess, shape }: ListedField) => ({
  id: field.id,
  uuid: field.uuid,
  name: field.name,
  ...access(fieldAccess),
  farm: farm.name,
  farm_id: farm.id,
  country: field.country,
  shapes: {
    current: {
      polygon: shape.polygon,
      centroid: shape.centroid,
      area: round(shape.areaHa, 4),
      start_date: shape.startDate,
      end_date: 'current' as const,
      bbox: shape.bbox,
    },
  },
});

/**
 * GET /api/getfields written as it is read (a streamed answer: an account's fields never all in
 * memory, and no size limit but the stream's): the document GetFieldsResponse describes, each
 * farm's `bbox` after its fields (they give it).
 */
export async function writeGetFields(listing: PagedListing, write: (text: string) => Promise<void>): Promise<void> {
  const json = JSON.stringify;
  const writeUser = async (user: User, farms: FarmPages[]) => {
    await write(`{"uid":${json(user.uid)},"user_name":${json(user.userName)},"farms":{`);
    for (const [i, entry] of farms.entries()) {
      const head = json(wireFarmHead(entry));
      await write(`${i ? ',' : ''}${json(String(entry.farm.id))}:${head.slice(0, -1)},"fields":{`);
      const bounds: Array<[number, number, number, number]> = [];
      let first = true;
      for await (const page of entry.pages()) {
        let text = '';
        for (const listed of page) {
          text += `${first ? '' : ','}${json(String(listed.field.id))}:${json(wireField(entry.farm, listed))}`;
          first = false;
          bounds.push(listed.shape.bounds);
        }
        await write(text);
      }
      const union = unionBounds(bounds);
      await write(`},"bbox":${json(union ? boundsToWkt(union) : null)}}`);
    }
    await write('}}');
  };
  await write('{"code":0,"user":');
  await writeUser(listing.user, listing.farms);
  await write(',"supervised":{');
  for (const [i, s] of listing.supervised.entries()) {
    await write(`${i ? ',' : ''}${json(String(s.user.id))}:`);
    await writeUser(s.user, s.farms);
  }
  await write('}}');
}

// --- GET /api/borrarlotes -------------------------------------------------------------------

export const DeleteFieldQuery = z.object({
  lote: z.optional(
    z.pipe(z.string().check(z.trim(), z.regex(/^\d+$/, 'lote must be a field id')), z.transform(Number)),
  ),
});

export const DeleteFieldResponse = z.object({
  res: z.literal('ok'),
  code: z.literal(0),
  info: z.string(),
  id_lote: z.string(),
});

export const deleteFieldRoute = defineRoute({
  ...fieldsRoute,
  operationId: 'deleteField',
  record: 'field',
  handler: 'functions/fields/borrarlotes.get',
  touches: { table: 'write', sends: ['events'] },
  method: 'get',
  paths: ['/api/borrarlotes'],
  summary: 'Delete a field and what hangs from it',
  request: { query: DeleteFieldQuery },
  responses: { 200: { description: 'the field was deleted', schema: DeleteFieldResponse } },
});

// --- POST /api/fields/convert (KML/KMZ/shapefile to WKT; path and answer not shown in the spec) ---

export const ConvertBoundaryQuery = z.object({
  name_field: z
    .optional(z.string().check(z.maxLength(100)))
    .check(
      z.describe(
        "the .dbf attribute that names a shapefile's shapes; by default the first of name, nombre, nome, lote, field, campo",
      ),
    ),
});

const BoundaryPolygonWire = z.object({
  name: z.nullable(z.string()),
  part: z
    .nullable(z.number().check(z.int()))
    .check(z.describe('the part of a multi-polygon (1, 2, ...); null for a polygon on its own')),
  wkt: z.string().check(z.describe('POLYGON in EPSG 4326, ready for agregarlote')),
  area: z.nullable(z.number()).check(z.describe('hectares on the WGS84 ellipsoid')),
  valid: z.boolean(),
  code: z
    .number()
    .check(
      z.int(),
      z.describe('what agregarlote would answer: 0 accepted, 2 not a polygon, 10 invalid polygon, 11 too large'),
    ),
  info: z.optional(z.string()),
});

export const ConvertBoundaryResponse = z.object({
  res: z.literal('ok'),
  code: z.literal(0),
  info: z.string(),
  data: z.object({
    format: z.enum(['kml', 'kmz', 'shapefile']),
    polygons: z.array(BoundaryPolygonWire),
    skipped: z
      .array(z.object({ name: z.nullable(z.string()), type: z.string(), reason: z.string() }))
      .check(z.describe('points, lines and empty features')),
  }),
});

export const convertBoundaryRoute = defineRoute({
  ...fieldsRoute,
  operationId: 'convertFieldBoundary',
  handler: 'functions/fields/convert.post',
  method: 'post',
  paths: ['/api/fields/convert'],
  summary: 'Read the polygons of a KML, KMZ or zipped shapefile as WKT for field creation (multipart field file)',
  description:
    'Each polygon comes back as WKT in EPSG 4326 (reprojected from the .prj), with its name, area and the code agregarlote would answer. ' +
    'Multi-polygons are split into their parts. Files of at most 4 MiB; zips of at most 100 entries and 64 MiB uncompressed; 200,000 vertices; KML without a DTD.',
  request: { query: ConvertBoundaryQuery, bodyType: 'multipart' },
  maxBodyBytes: GEOMETRY_ROUTE_MAX_BYTES + 64 * 1024,
  responses: { 200: { description: 'the polygons found', schema: ConvertBoundaryResponse } },
});

export const fieldsRoutes = [createFieldRoute, getFieldsRoute, deleteFieldRoute, convertBoundaryRoute];
