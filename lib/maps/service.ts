// User maps (spec 2, Maps; docs/decisions.md "Maps"). A map lives in its field's partition (so it
// goes with the field); a ref finds it by id, the owner's list and name items make "the caller's
// maps" and "names unique per user". Every change writes them together in one transaction.
import type { Principal } from '../auth/principal';
import { fieldFor } from '../authz/guard';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { batchGet, getItem, itemKey, nextId, NOT_EXISTS, queryAll, transact, tx, type TxOp } from '../db/table';
import { Conflict, Forbidden, Invalid, NotFound } from '../errors';
import { currentCampaign, shapeFor } from '../fields/current-shape';
import { plannedApplicationOps } from '../labours/repository';
import { can } from '../authz/access';
import { MAP_INFOS } from './codes';
import { checkGeoJson, checkMetadata, checkName, checkType, MapRecord, type MapGeoJson, type MapMetadata } from './model';

const notFound = () => new NotFound(MAP_INFOS.NOT_FOUND);
const invalidField = () => new Invalid(MAP_INFOS.INVALID_FIELD);
const noPermission = () => new Forbidden(MAP_INFOS.NO_PERMISSION);
const denied = () => new Forbidden(MAP_INFOS.DENIED);
const nameTaken = () => new Conflict(MAP_INFOS.NAME_TAKEN);

export interface MapInput {
  name?: unknown;
  fieldId?: unknown;
  typeId?: unknown;
  geojson?: unknown;
  metadata?: unknown;
  createApplication?: boolean;
}

/** The field a map may be drawn on by the caller: 'Invalid field' when it cannot read it, no permission when it cannot change it. */
async function writableField(principal: Principal, fieldId: unknown) {
  if (!Number.isInteger(fieldId) || Number(fieldId) < 1) throw invalidField();
  return fieldFor(principal, Number(fieldId), 'write', { notFound: invalidField, forbidden: noPermission });
}

/** The field's polygon in the current campaign (its season shape, if it has one). */
async function fieldPolygon(field: Parameters<typeof shapeFor>[0]): Promise<string> {
  return (await shapeFor(field)).shape.polygon;
}

/** The map of an id, when the caller can read its field; 'Map not found' otherwise. */
async function locate(principal: Principal, mapId: number) {
  const ref = await getItem(keys.mapRef(mapId));
  if (!ref) throw notFound();
  const { field, access } = await fieldFor(principal, Number(ref.field_id), 'read', { notFound, forbidden: notFound });
  const item = await getItem(keys.map(field.id, mapId));
  if (!item) throw notFound();
  return { map: MapRecord.fromItem(item), field, canWrite: can(access, 'write') };
}

const mapItem = (map: MapRecord) => ({ ...keys.map(map.fieldId, map.id), ...MapRecord.toItem(map) });

export async function getMap(principal: Principal, mapId: number): Promise<MapRecord> {
  return (await locate(principal, mapId)).map;
}

/** The maps of a field the caller can read (every user's), or the caller's own maps. */
export async function listMaps(principal: Principal, filter: { fieldId?: number }): Promise<MapRecord[]> {
  if (filter.fieldId !== undefined) {
    await fieldFor(principal, filter.fieldId, 'read', { notFound: invalidField, forbidden: invalidField });
    return (await queryAll(keys.mapsOfField(filter.fieldId))).map(MapRecord.fromItem);
  }
  const refs = await queryAll(keys.userMapsPrefix(principal.user.id));
  const mapKeys = refs.map((ref) => keys.map(Number(ref.field_id), Number(ref.map_id)));
  const found = await batchGet(mapKeys);
  return mapKeys.flatMap((key) => {
    const item = found.get(itemKey(key));
    return item ? [MapRecord.fromItem(item)] : [];
  });
}

export async function createMap(principal: Principal, input: MapInput): Promise<MapRecord> {
  const name = checkName(input.name);
  const typeId = checkType(input.typeId);
  const metadata = checkMetadata(input.metadata);
  if (input.fieldId === undefined) throw new Invalid(MAP_INFOS.INVALID_PARAMETERS, { extra: { detail: 'id_lote is required' } });
  const { field } = await writableField(principal, input.fieldId);
  const geojson = checkGeoJson(input.geojson, await fieldPolygon(field), metadata);
  const map: MapRecord = {
    id: await nextId('map'),
    name,
    fieldId: field.id,
    typeId,
    ownerId: principal.user.id,
    createdAt: new Date().toISOString(),
    metadata,
    geojson,
    applicationRequested: input.createApplication === true,
    version: 1,
  };
  // create_application: a planned application of the field's current campaign that references the
  // map, written in the same transaction (docs/decisions.md, Maps)
  const application = input.createApplication
    ? await plannedApplicationOps(principal.user.id, field, map.id, currentCampaign(), map.createdAt.slice(0, 10))
    : undefined;
  await transact([
    ...(application ?? []),
    tx.put(mapItem(map), NOT_EXISTS),
    tx.put({ ...keys.mapRef(map.id), kind: 'map_ref', map_id: map.id, field_id: map.fieldId, owner_id: map.ownerId }, NOT_EXISTS),
    tx.put({ ...keys.userMap(map.ownerId, map.id), kind: 'user_map', map_id: map.id, field_id: map.fieldId }, NOT_EXISTS),
    tx.put({ ...keys.userMapName(map.ownerId, name), kind: 'map_name', map_id: map.id }, NOT_EXISTS, nameTaken),
  ]);
  return map;
}

/**
 * PUT (`replace`: every member as POST sends it) and PATCH (only what is sent changes). Only the
 * map's creator may change it ('Denied access'), while it can still change the field.
 */
export async function changeMap(principal: Principal, mapId: number, input: MapInput, mode: 'replace' | 'patch'): Promise<MapRecord> {
  return retryLostRace(async () => {
    const { map, field, canWrite } = await locate(principal, mapId);
    if (map.ownerId !== principal.user.id) throw denied();
    if (!canWrite) throw noPermission();
    const sent = (value: unknown) => mode === 'replace' || value !== undefined;
    if (sent(input.fieldId) && input.fieldId !== map.fieldId) {
      throw new Invalid(MAP_INFOS.INVALID_PARAMETERS, { extra: { detail: 'a map stays on its field: id_lote is the map\'s own' } });
    }
    const next: MapRecord = { ...map, version: map.version + 1 };
    if (sent(input.name)) next.name = checkName(input.name);
    if (sent(input.typeId)) next.typeId = checkType(input.typeId);
    if (sent(input.metadata)) next.metadata = checkMetadata(input.metadata);
    if (sent(input.geojson) || sent(input.metadata)) {
      next.geojson = checkGeoJson(sent(input.geojson) ? input.geojson : map.geojson, await fieldPolygon(field), next.metadata);
    }
    // create_application on a change: the map's planned application, unless it has one already
    const application =
      input.createApplication === true && !map.applicationRequested
        ? await plannedApplicationOps(principal.user.id, field, map.id, currentCampaign(), new Date().toISOString().slice(0, 10))
        : undefined;
    if (input.createApplication === true) next.applicationRequested = true;
    const ops: TxOp[] = [
      ...(application ?? []),
      tx.put(mapItem(next), 'version = :version', () => new LostRace('map changed meanwhile'), { ':version': map.version }),
    ];
    if (next.name !== map.name) {
      ops.push(
        tx.delete(keys.userMapName(map.ownerId, map.name)),
        tx.put({ ...keys.userMapName(map.ownerId, next.name), kind: 'map_name', map_id: map.id }, NOT_EXISTS, nameTaken),
      );
    }
    await transact(ops);
    return next;
  });
}

/** DELETE (not shown in the contract): the creator removes the map, with its ref, list and name items. */
export async function deleteMap(principal: Principal, mapId: number): Promise<void> {
  const { map } = await locate(principal, mapId);
  if (map.ownerId !== principal.user.id) throw denied();
  await transact([
    tx.delete(keys.map(map.fieldId, map.id)),
    tx.delete(keys.mapRef(map.id)),
    tx.delete(keys.userMap(map.ownerId, map.id)),
    tx.delete(keys.userMapName(map.ownerId, map.name)),
  ]);
}

/** What points to a map from outside its field's partition (lib/fields/cleanup.ts deletes them with it). */
export const mapPointers = (item: Record<string, unknown>) => {
  const map = MapRecord.fromItem(item);
  return [keys.mapRef(map.id), keys.userMap(map.ownerId, map.id), keys.userMapName(map.ownerId, map.name)];
};

export type { MapGeoJson, MapMetadata };
