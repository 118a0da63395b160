// User maps (spec 2, Maps): zonings, yield, altimetry, nutrients, anomalies and prescription maps
// of a field, kept as GeoJSON, downloadable as a shapefile. Rules and bounds: docs/decisions.md, "Maps".
import { as, bool, type EntityOf, entity, mapped, num, numOr, str } from '../db/entity';
import { keys } from '../db/keys';
import { Invalid } from '../errors';
import { GeometryError, type GeometryKit, geoJsonToWkt } from '../geo/geometry';
import { characters } from '../util/text';
import { MAP_INFOS } from './codes';
import { MAP_LIMITS, MAP_TYPES } from './limits';

export interface Zone {
  color: [number, number, number, number];
  nombre: string;
}
export interface MapMetadata {
  capas?: Record<string, Zone>;
}

export interface MapFeature {
  type: 'Feature';
  /** Polygon, as the spec's Map table shows (a MultiPolygon sent is kept as one Polygon feature per part). */
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] };
  properties: { nombre: string | null; _featid: number | string; id: number } & Record<string, unknown>;
}
export interface MapGeoJson {
  type: 'FeatureCollection';
  features: MapFeature[];
}

export const MapRecord = entity('map', {
  id: num('id'),
  name: str('nombre'),
  fieldId: num('field_id'),
  typeId: num('type_id'),
  ownerId: num('owner_id'),
  /** YYYY-MM-DDTHH:MM:SS.mmmZ; answered as fecha_ini 'YYYY-MM-DD HH:MM:SS.ffffff'. */
  createdAt: str('created_at'),
  metadata: as<MapMetadata>('metadata', {}),
  /** Kept as JSON text: any property names, any depth. */
  geojson: mapped<MapGeoJson>(
    'geojson_json',
    (v) => JSON.parse(String(v ?? '{"type":"FeatureCollection","features":[]}')) as MapGeoJson,
    (v) => JSON.stringify(v),
  ),
  /** `create_application` was sent: a planned application labour is owed to this map (docs/decisions.md, Maps). */
  applicationRequested: bool('application_requested'),
  version: numOr('version', 1),
});
export type MapRecord = EntityOf<typeof MapRecord>;

/**
 * The map without its GeoJSON (up to 300 KB), beside it in the field's partition: what the lists
 * answer (spec 2: "map without geojson"), so that a list reads a few hundred bytes a map, not the
 * map. Written in every transaction that writes the map (lib/maps/repository.ts).
 */
export const mapHeadItem = (map: MapRecord) => {
  const { geojson_json: _geojson, ...head } = MapRecord.toItem(map);
  return { ...keys.mapHead(map.fieldId, map.id), ...head, kind: 'map_head' };
};

const invalid = (detail: string) => new Invalid(MAP_INFOS.INVALID_PARAMETERS, { extra: { detail } });

/** The metadata as the map keeps it: `capas` keyed by zone index, each {color: [R,G,B,A], nombre}. */
export function checkMetadata(metadata: unknown): MapMetadata {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw invalid('metadata must be an object');
  const { capas, ...others } = metadata as Record<string, unknown>;
  if (Object.keys(others).length)
    throw invalid(`metadata holds only capas, not ${Object.keys(others).slice(0, 3).join(', ')}`);
  if (capas === undefined) return {};
  if (typeof capas !== 'object' || capas === null || Array.isArray(capas))
    throw invalid('metadata.capas must be an object keyed by zone index');
  const entries = Object.entries(capas as Record<string, unknown>);
  if (entries.length > MAP_LIMITS.ZONES) throw invalid(`metadata.capas has at most ${MAP_LIMITS.ZONES} zones`);
  const checked: Record<string, Zone> = {};
  for (const [index, zone] of entries) {
    if (!/^\d{1,6}$/.test(index))
      throw invalid(`metadata.capas is keyed by zone index (0, 1, ...), not ${JSON.stringify(index.slice(0, 20))}`);
    const { color, nombre } = (zone ?? {}) as { color?: unknown; nombre?: unknown };
    if (!Array.isArray(color) || color.length !== 4 || !color.every((c) => Number.isInteger(c) && c >= 0 && c <= 255)) {
      throw invalid(`metadata.capas.${index}.color must be [R, G, B, A], integers 0-255`);
    }
    if (typeof nombre !== 'string' || nombre.length > MAP_LIMITS.NAME)
      throw invalid(`metadata.capas.${index}.nombre must be a text of at most ${MAP_LIMITS.NAME} characters`);
    checked[index] = { color: color as Zone['color'], nombre };
  }
  return { capas: checked };
}

/**
 * The GeoJSON as the map keeps it: a FeatureCollection of valid Polygons or MultiPolygons in EPSG
 * 4326 that each intersect the field, kept as Polygon features (the spec's Map table: a MultiPolygon
 * becomes one feature per part, with its properties); every feature's properties carry nombre,
 * _featid (the client's when sent, else the feature's position in the map) and id (the zone index).
 */
export function checkGeoJson(
  { parseGeometry, readWkt }: GeometryKit,
  geojson: unknown,
  fieldPolygon: string,
  metadata: MapMetadata,
): MapGeoJson {
  const text = JSON.stringify(geojson ?? null);
  if (Buffer.byteLength(text) > MAP_LIMITS.GEOJSON_BYTES)
    throw invalid(`geojson is at most ${MAP_LIMITS.GEOJSON_BYTES / 1024} KB`);
  const collection = geojson as { type?: unknown; features?: unknown };
  if (collection?.type !== 'FeatureCollection' || !Array.isArray(collection.features))
    throw invalid('geojson must be a FeatureCollection');
  if (collection.features.length === 0 || collection.features.length > MAP_LIMITS.FEATURES)
    throw invalid(`geojson has 1 to ${MAP_LIMITS.FEATURES} features`);
  const field = readWkt(fieldPolygon);
  let vertices = 0;
  const sent = collection.features.map((raw, position) => {
    const feature = raw as {
      type?: unknown;
      geometry?: { type?: unknown; coordinates?: unknown };
      properties?: unknown;
    };
    if (feature?.type !== 'Feature' || !feature.geometry)
      throw invalid(`feature ${position} is not a Feature with a geometry`);
    const { type, coordinates } = feature.geometry;
    if ((type !== 'Polygon' && type !== 'MultiPolygon') || !Array.isArray(coordinates))
      throw invalid(`feature ${position}: the geometry must be a Polygon or MultiPolygon`);
    let wkt: string;
    try {
      wkt = geoJsonToWkt({ type, coordinates } as Parameters<typeof geoJsonToWkt>[0]);
    } catch {
      throw invalid(`feature ${position}: the coordinates are not rings of [longitude, latitude]`);
    }
    let geometry;
    try {
      geometry = parseGeometry(wkt, ['Polygon', 'MultiPolygon'], MAP_LIMITS.VERTICES);
    } catch (error) {
      if (error instanceof GeometryError) throw invalid(`feature ${position}: ${error.message}`);
      throw error;
    }
    vertices += geometry.getCoordinates().length;
    if (vertices > MAP_LIMITS.VERTICES)
      throw invalid(`the features of a map have at most ${MAP_LIMITS.VERTICES} vertices`);
    if (!geometry.intersects(field)) throw invalid(`feature ${position} does not intersect the field`);
    const properties =
      feature.properties && typeof feature.properties === 'object' && !Array.isArray(feature.properties)
        ? (feature.properties as Record<string, unknown>)
        : {};
    const id = Number.isInteger(properties.id) ? Number(properties.id) : position;
    const nombre =
      typeof properties.nombre === 'string' ? properties.nombre : (metadata.capas?.[String(id)]?.nombre ?? null);
    const featid = properties._featid;
    if (featid !== undefined && !Number.isInteger(featid) && (typeof featid !== 'string' || featid.length > 100))
      throw invalid(`feature ${position}: _featid is an integer or a text of at most 100 characters`);
    const polygons = (type === 'Polygon' ? [coordinates] : coordinates) as number[][][][];
    return { polygons, properties: { ...properties, nombre, id }, featid: featid as number | string | undefined };
  });
  if (sent.reduce((n, f) => n + f.polygons.length, 0) > MAP_LIMITS.FEATURES)
    throw invalid(`a map has at most ${MAP_LIMITS.FEATURES} polygons`);
  const features = sent.flatMap(({ polygons, properties, featid }) =>
    polygons.map(
      (coordinates): Omit<MapFeature, 'properties'> & { properties: Omit<MapFeature['properties'], '_featid'> } => ({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates },
        properties: featid === undefined ? properties : { ...properties, _featid: featid },
      }),
    ),
  );
  return {
    type: 'FeatureCollection',
    features: features.map((feature, position) => ({
      ...feature,
      properties: { _featid: position, ...feature.properties } as MapFeature['properties'],
    })),
  };
}

/**
 * A map's zones, one MultiPolygon (its polygons' coordinates) per zone index, in the order they
 * first appear: a zone sent as a MultiPolygon is kept as one Polygon feature per part.
 */
export function zonesOf(geojson: MapGeoJson): number[][][][][] {
  const zones = new Map<number, number[][][][]>();
  for (const feature of geojson.features) {
    const parts = (
      feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates
    ) as number[][][][];
    zones.set(feature.properties.id, [...(zones.get(feature.properties.id) ?? []), ...parts]);
  }
  return [...zones.values()];
}

export function checkName(name: unknown): string {
  if (typeof name !== 'string' || !name.trim() || characters(name.trim()) > MAP_LIMITS.NAME)
    throw invalid(`nombre is a text of 1 to ${MAP_LIMITS.NAME} characters`);
  return name.trim();
}

export function checkType(typeId: unknown): number {
  if (!Number.isInteger(typeId) || !(Number(typeId) in MAP_TYPES))
    throw invalid('id_tipo is 1 (zonings), 2 (yield), 3 (altimetry), 4 (nutrients), 5 (anomalies) or 6 (prescription)');
  return Number(typeId);
}
