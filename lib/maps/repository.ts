// Maps in DynamoDB (docs/data-model.md): a map in its field's partition (so it goes with the
// field), with its name item ("names unique per field"); a ref finds it by id, the owner's list
// makes "the caller's maps". Every change writes them together in one transaction, with the planned
// application labour when one is requested (lib/maps/application.ts, loaded on first use).

import { platformFieldGate } from '../authz/gate';
import { BACKFILLS, backfilled } from '../db/backfills';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import { batchGet, itemKey, NOT_EXISTS, nextId, queryAll, readItem, type TxOp, transact, tx } from '../db/table';
import type { LabourSave } from '../labours/service';
import { onFirstUse } from '../util/first-use';
import { MapRecord, mapHeadItem } from './model';
import { type MapRepository, mapsService } from './service';

const mapItem = (map: MapRecord) => ({ ...keys.map(map.fieldId, map.id), ...MapRecord.toItem(map) });
/** Whether every map has its head (scripts/backfill.ts); until then the lists read the maps. */
const headed = () => backfilled(BACKFILLS.mapHeads);
const nameItem = (map: MapRecord) => ({
  ...keys.fieldMapName(map.fieldId, map.name),
  kind: 'map_name',
  map_id: map.id,
});

/** The labours' side of a map's planned application, loaded at the first request that asks for one. */
const applicationKit = /* @__PURE__ */ onFirstUse(() => import('./application'));

/** The items of a map's planned application, written in the map's transaction. */
const applicationOps = async (application: LabourSave | undefined): Promise<TxOp[]> =>
  application ? (await applicationKit()).labourSaveOps(application) : [];

export const dynamoMapRepository: MapRepository = {
  nextId: () => nextId('map'),
  async fieldOf(mapId) {
    return readItem(keys.mapRef(mapId), (ref) => Number(ref.field_id));
  },
  async map(fieldId, mapId) {
    return readItem(keys.map(fieldId, mapId), MapRecord.fromItem);
  },
  async mapsOfField(fieldId) {
    const listed = (await headed()) ? keys.mapHeadsOfField(fieldId) : keys.mapsOfField(fieldId);
    return (await queryAll(listed)).map(MapRecord.fromItem);
  },
  async mapsOfOwner(ownerId) {
    const refs = await queryAll(keys.userMapsPrefix(ownerId));
    const keyOf = (await headed()) ? keys.mapHead : keys.map;
    const mapKeys = refs.map((ref) => keyOf(Number(ref.field_id), Number(ref.map_id)));
    const found = await batchGet(mapKeys);
    return mapKeys.flatMap((key) => {
      const item = found.get(itemKey(key));
      return item ? [MapRecord.fromItem(item)] : [];
    });
  },
  async create(map, application, nameTaken) {
    await transact([
      ...(await applicationOps(application)),
      tx.put(mapItem(map), NOT_EXISTS),
      tx.put(mapHeadItem(map)),
      tx.put(
        { ...keys.mapRef(map.id), kind: 'map_ref', map_id: map.id, field_id: map.fieldId, owner_id: map.ownerId },
        NOT_EXISTS,
      ),
      tx.put(
        { ...keys.userMap(map.ownerId, map.id), kind: 'user_map', map_id: map.id, field_id: map.fieldId },
        NOT_EXISTS,
      ),
      tx.put(nameItem(map), NOT_EXISTS, nameTaken),
    ]);
  },
  async replace(next, previous, application, nameTaken) {
    const ops: TxOp[] = [
      ...(await applicationOps(application)),
      tx.put(mapItem(next), 'version = :version', () => new LostRace('map changed meanwhile'), {
        ':version': previous.version,
      }),
      tx.put(mapHeadItem(next)),
    ];
    if (next.name !== previous.name)
      ops.push(
        tx.delete(keys.fieldMapName(previous.fieldId, previous.name)),
        tx.put(nameItem(next), NOT_EXISTS, nameTaken),
      );
    await transact(ops);
  },
  async remove(map) {
    await transact([
      tx.delete(keys.map(map.fieldId, map.id)),
      tx.delete(keys.mapHead(map.fieldId, map.id)),
      tx.delete(keys.mapRef(map.id)),
      tx.delete(keys.userMap(map.ownerId, map.id)),
      tx.delete(keys.fieldMapName(map.fieldId, map.name)),
    ]);
  },
};

/** What points to a map from outside its field's partition (lib/maps/field-deleted.ts). */
export const mapPointers = (item: Record<string, unknown>) => {
  const map = MapRecord.fromItem(item);
  return [keys.mapRef(map.id), keys.userMap(map.ownerId, map.id)];
};

/** The maps service of the functions: DynamoDB, the platform's gate and the labours service. */
export const maps = /* @__PURE__ */ mapsService({
  repository: dynamoMapRepository,
  fields: platformFieldGate,
  plannedApplication: async (...args) => (await applicationKit()).labours.plannedApplicationOfMap(...args),
});
