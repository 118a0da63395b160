// User maps (spec 2, Maps): /api/users/me/maps (GET, POST, PUT, PATCH, DELETE) and the shapefile
// download. Wire names are the spec's; lib/maps uses English names. docs/decisions.md, "Maps".
import * as z from 'zod/mini';
import { defineRoute, growingList } from '../lib/http/route';
import { mapsDialect } from '../lib/maps/dialect';
import { fechaIni, MAP_LIMITS } from '../lib/maps/limits';
import type { MapRecord } from '../lib/maps/model';
import { booleanLike, integer, positiveInteger } from './common';

const mapsRoute = { tags: ['maps'], auth: 'bearer', dialect: mapsDialect } as const;
const PATH = '/api/users/me/maps';

const byte = z.number().check(z.int(), z.gte(0), z.lte(255));
const Zone = z.object({
  color: z.tuple([byte, byte, byte, byte]).check(z.describe('[R, G, B, A]')),
  nombre: z.string().check(z.maxLength(MAP_LIMITS.NAME)),
});
const Metadata = z
  .strictObject({
    capas: z.optional(z.record(z.string().check(z.regex(/^\d{1,6}$/, 'capas is keyed by zone index')), Zone)),
  })
  .check(z.describe("capas: the zones, keyed by zone index (the features' properties.id)"));

const Feature = z.object({
  type: z.literal('Feature'),
  geometry: z.object({ type: z.enum(['Polygon', 'MultiPolygon']), coordinates: z.array(z.any()) }),
  properties: z
    .optional(z.nullable(z.record(z.string(), z.unknown())))
    .check(z.describe('nombre, id (the zone index); _featid is given by position')),
});
const GeoJson = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(Feature).check(z.minLength(1), z.maxLength(MAP_LIMITS.FEATURES)),
  })
  .check(z.describe(`EPSG 4326; every feature intersects the field; at most ${MAP_LIMITS.VERTICES} vertices in all`));
/** An object, or the same as JSON text (form-minded clients, and form-encoded bodies, send it so). */
const objectOrJsonText = <T extends z.ZodMiniType>(schema: T, name: string) =>
  z.union([
    schema,
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((text, ctx) => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            ctx.issues.push({ code: 'custom', message: `${name} is not JSON`, input: text });
            return z.NEVER;
          }
        }),
      ),
      schema,
    ),
  ]);
const geojson = objectOrJsonText(GeoJson, 'geojson');

export const MapBody = z.object({
  nombre: z.optional(z.string()).check(z.describe(`1 to ${MAP_LIMITS.NAME} characters, unique among the field's maps`)),
  id_lote: z.optional(positiveInteger()),
  id_tipo: z
    .optional(z.pipe(integer(), z.number().check(z.int(), z.gte(1), z.lte(6))))
    .check(
      z.describe('1 zonings, 2 yield, 3 altimetry, 4 nutrients, 5 anomalies, 6 prescription (a number or its text)'),
    ),
  geojson: z.optional(geojson),
  metadata: z.optional(objectOrJsonText(Metadata, 'metadata')),
  create_application: z
    .optional(booleanLike())
    .check(
      z.describe('asks for a planned application labour of the field referencing the map (docs/decisions.md, Maps)'),
    ),
  id: z.optional(positiveInteger()).check(z.describe('PUT and PATCH: the map')),
});

export const WireMap = z.object({
  id: z.number().check(z.int()),
  nombre: z.string(),
  id_lote: z.number().check(z.int()),
  id_tipo: z.number().check(z.int()),
  id_usuario: z.number().check(z.int()),
  fecha_ini: z.string().check(z.describe("'YYYY-MM-DD HH:MM:SS.ffffff'")),
  metadata: z.object({ capas: z.optional(z.record(z.string(), Zone)) }),
  geojson: z.optional(z.unknown()).check(z.describe('only when one map is read')),
});

export const wireMap = (map: MapRecord, withGeoJson: boolean): z.infer<typeof WireMap> => ({
  id: map.id,
  nombre: map.name,
  id_lote: map.fieldId,
  id_tipo: map.typeId,
  id_usuario: map.ownerId,
  fecha_ini: fechaIni(map.createdAt),
  metadata: map.metadata,
  ...(withGeoJson ? { geojson: map.geojson } : {}),
});

const valid = z.object({
  info: z.literal('Valid data'),
  res: z.literal('OK'),
  code: z.literal(0),
  id: z.number().check(z.int(), z.describe('the map (ours: the contract shows no id)')),
});

export const listMapsRoute = defineRoute({
  ...mapsRoute,
  operationId: 'listMaps',
  record: 'map',
  handler: 'functions/maps/maps.get',
  method: 'get',
  paths: [PATH],
  summary: "The maps of a field (id_lote), one map with its GeoJSON (id), or the caller's maps",
  request: {
    query: z.object({
      id_lote: z.optional(positiveInteger()),
      id: z.optional(positiveInteger()).check(z.describe('wins over id_lote')),
    }),
  },
  responses: {
    200: {
      description: 'a list without geojson, or one map with it',
      schema: z.object({ data: z.union([z.array(WireMap), WireMap]) }),
    },
  },
  ...growingList,
});

export const createMapRoute = defineRoute({
  ...mapsRoute,
  operationId: 'createMap',
  record: 'map',
  handler: 'functions/maps/maps.post',
  touches: { table: 'write' },
  method: 'post',
  paths: [PATH],
  summary: 'Create a map on a field the caller can change',
  request: { body: MapBody },
  responses: { 200: { description: 'created', schema: valid } },
});

export const replaceMapRoute = defineRoute({
  ...mapsRoute,
  operationId: 'replaceMap',
  record: 'map',
  handler: 'functions/maps/maps.put',
  touches: { table: 'write' },
  method: 'put',
  paths: [PATH],
  summary: 'Overwrite a map of the caller (id required; every member as POST)',
  request: { body: MapBody },
  responses: { 200: { description: 'overwritten', schema: valid } },
});

export const patchMapRoute = defineRoute({
  ...mapsRoute,
  operationId: 'patchMap',
  record: 'map',
  handler: 'functions/maps/maps.patch',
  touches: { table: 'write' },
  method: 'patch',
  paths: [PATH],
  summary: 'Change what is sent of a map of the caller (id required)',
  request: { body: MapBody },
  responses: { 200: { description: 'changed', schema: valid } },
});

export const deleteMapRoute = defineRoute({
  ...mapsRoute,
  operationId: 'deleteMap',
  record: 'map',
  handler: 'functions/maps/maps.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: [PATH],
  summary: 'Delete a map of the caller (not shown in the contract: designed with the rules of PUT)',
  request: { query: z.object({ id: positiveInteger() }) },
  responses: {
    200: {
      description: 'deleted',
      schema: z.object({ info: z.literal('Map deleted'), res: z.literal('OK'), code: z.literal(0) }),
    },
  },
});

export const downloadMapRoute = defineRoute({
  ...mapsRoute,
  operationId: 'downloadMap',
  handler: 'functions/maps/download.post',
  method: 'post',
  paths: [`${PATH}/download`],
  summary: 'The map as a zipped shapefile (.shp, .shx, .dbf, .prj, .cpg) named after nombre',
  request: {
    body: z.object({
      id_mapa: positiveInteger(),
      nombre: z.string().check(z.minLength(1), z.maxLength(MAP_LIMITS.NAME)),
    }),
    bodyType: 'multipart',
  },
  responses: { 200: { description: 'the map as a zipped shapefile', contentType: 'application/zip' } },
});

export const mapRoutes = [
  listMapsRoute,
  createMapRoute,
  replaceMapRoute,
  patchMapRoute,
  deleteMapRoute,
  downloadMapRoute,
];
