// Spots (spec 1): create, change, delete, variables. A spot is a point or polygon inside its field
// (the field's current shape); creates with a client uuid are idempotent; tag counts, the unique
// short code and the spot move together in one transaction.
import { v1 as uuidV1 } from 'uuid';
import { keys } from '../db/keys';
import { EXISTS, getItem, nextId, NOT_EXISTS, putItem, transact, tx, type TxOp } from '../db/table';
import { Conflict, DomainError, Forbidden, Invalid, NotFound } from '../errors';
import { can } from '../authz/access';
import { fieldAccess } from '../authz/resolve';
import type { Principal } from '../auth/principal';
import { GeometryError, areaHectares, parseGeometry, readWkt, toWkt } from '../geo/wkt';
import type { Farm, Field } from '../platform/model';
import { getFarm, getField } from '../fields/repository';
import { shapeFor } from '../fields/current-shape';
import { publishEvent } from '../events/publish';
import { SAMPLE_SET_TYPES, unitById } from './catalogue';
import { checkUuidV1, newSpotCode, SPOT_CODES, spotFromItem, spotToItem, type Spot, type SpotVariable } from './model';
import { resolveSpotTags, tagCountChanges, type TagInput } from './tags';
import { addMessages, type TextInput } from './messages';
import { SPOT_DELETED_JOB } from './jobs';
import { isoSeconds } from '../util/time';

export const spotNotFound = (uuid: string) => new NotFound(`spot ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });
const noPermission = () => new Forbidden('the user has no permission over the spot', { code: SPOT_CODES.NO_PERMISSION });
const staleSpot = () => new Conflict('the spot changed meanwhile', { code: 'RETRY' });

export interface SpotScope {
  spot: Spot;
  field: Field;
  farm: Farm;
  canWrite: boolean;
}

/** A field the caller may add spots to: 404 when it cannot be read, 403 (code 12) when read-only. */
async function writableField(principal: Principal, fieldId: number): Promise<{ field: Field; farm: Farm }> {
  const field = await getField(fieldId);
  const access = field ? await fieldAccess(principal.user.id, field) : undefined;
  const farm = field ? await getFarm(field.farmId) : undefined;
  if (!field || !farm || !access || !can(access, 'read')) throw new NotFound(`field ${fieldId} not found`, { code: SPOT_CODES.NOT_FOUND });
  if (!can(access, 'write')) throw noPermission();
  return { field, farm };
}

export async function locateSpot(principal: Principal, uuid: string, action: 'read' | 'write' = 'read'): Promise<SpotScope> {
  const ref = await getItem(keys.spotRef(uuid));
  const field = ref ? await getField(Number(ref.field_id)) : undefined;
  const access = field ? await fieldAccess(principal.user.id, field) : undefined;
  if (!ref || !field || !access || !can(access, 'read')) throw spotNotFound(uuid);
  const [item, farm] = await Promise.all([getItem(keys.spot(field.id, uuid)), getFarm(field.farmId)]);
  if (!item || !farm) throw spotNotFound(uuid);
  const canWrite = can(access, 'write');
  if (action === 'write' && !canWrite) throw noPermission();
  return { spot: spotFromItem(item), field, farm, canWrite };
}

/** The spot's geometry, a point or polygon inside the field (codes 56 and 57). */
async function spotGeometry(field: Field, wkt: string): Promise<{ shape: string; kind: 'point' | 'polygon'; areaHa: number }> {
  let geometry;
  try {
    geometry = parseGeometry(wkt, ['Point', 'Polygon']);
  } catch (error) {
    if (error instanceof GeometryError) throw new Invalid(error.message, { code: SPOT_CODES.INVALID_GEOMETRY });
    throw error;
  }
  const { shape } = await shapeFor(field);
  if (!readWkt(shape.polygon).covers(geometry)) {
    throw new Invalid('the spot must lie inside its field', { code: SPOT_CODES.OUTSIDE_FIELD });
  }
  const kind = geometry.getGeometryType() === 'Point' ? 'point' : 'polygon';
  return { shape: toWkt(geometry), kind, areaHa: kind === 'point' ? 0 : areaHectares(geometry) };
}

export function checkVariables(variables: SpotVariable[]): SpotVariable[] {
  for (const v of variables) {
    if (!unitById(v.unit_id)) throw new Invalid(`unit_id ${v.unit_id} is not a unit (see GET /api/utils/units)`, { code: SPOT_CODES.WRONG_FORMAT });
  }
  return variables.map((v) => ({ name: v.name, unit_id: v.unit_id, value: v.value }));
}

export interface SampleSetInput {
  sample_set_uuid: string;
  sample_set_type: string;
}

/** The integer ids of a sample set: its type's, and its own (allocated the first time it is seen). */
async function sampleSetIds(input: SampleSetInput): Promise<{ typeId: number; id: number }> {
  const typeId = SAMPLE_SET_TYPES[input.sample_set_type];
  if (typeId === undefined) {
    throw new Invalid(`sample_set_type must be one of ${Object.keys(SAMPLE_SET_TYPES).join(', ')}`, { code: SPOT_CODES.WRONG_FORMAT });
  }
  const key = keys.sampleSet(input.sample_set_uuid);
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await getItem(key);
    if (existing) {
      if (existing.type !== input.sample_set_type) {
        throw new Invalid(`sample set ${input.sample_set_uuid} is of type ${String(existing.type)}`, { code: SPOT_CODES.WRONG_FORMAT });
      }
      return { typeId, id: Number(existing.id) };
    }
    const id = await nextId('sample_set');
    try {
      await putItem({ ...key, kind: 'sample_set', id, type: input.sample_set_type }, { expression: NOT_EXISTS, failure: () => new Conflict('raced') });
      return { typeId, id };
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
  }
  throw new DomainError('internal', `could not register sample set ${input.sample_set_uuid}`);
}

const spotItem = (spot: Spot) => ({
  ...keys.spot(spot.fieldId, spot.uuid),
  ...keys.spotByTimeIndex(spot.fieldId, spot.creationTs, spot.uuid),
  ...(spot.groupUuid ? keys.spotGroupIndex(spot.groupUuid, spot.uuid) : {}),
  ...spotToItem(spot),
});

export interface SpotInput {
  uuid?: string;
  fieldId: number;
  name?: string | null;
  shape: string;
  tags?: TagInput[];
  groupUuid?: string | null;
  texts?: TextInput[];
  sampleSet?: SampleSetInput | null;
  variables?: SpotVariable[] | null;
}

const nowSeconds = () => isoSeconds();

export async function createSpot(principal: Principal, input: SpotInput): Promise<Spot> {
  const uuid = input.uuid ? checkUuidV1(input.uuid, 'uuid') : uuidV1();
  for (let attempt = 0; ; attempt++) {
    const ref = await getItem(keys.spotRef(uuid));
    if (ref) {
      // Sent again (offline clients retry): the spot made the first time, messages added if new.
      if (Number(ref.field_id) !== input.fieldId) throw new Conflict(`spot ${uuid} exists in another field`, { code: SPOT_CODES.WRONG_FORMAT });
      const scope = await locateSpot(principal, uuid, 'write');
      if (input.texts?.length) await addMessages(principal, scope, input.texts);
      return (await locateSpot(principal, uuid)).spot;
    }
    const { field, farm } = await writableField(principal, input.fieldId);
    const geometry = await spotGeometry(field, input.shape);
    const variables = input.variables ? checkVariables(input.variables) : null;
    const sampleSet = input.sampleSet ? await sampleSetIds(input.sampleSet) : undefined;
    const tags = await resolveSpotTags(principal, input.tags ?? []);
    const spot: Spot = {
      id: await nextId('spot'),
      uuid,
      code: newSpotCode(),
      fieldId: field.id,
      farmId: farm.id,
      name: input.name ?? null,
      ...geometry,
      creationTs: nowSeconds(),
      groupUuid: input.groupUuid ? input.groupUuid.toLowerCase() : null,
      sampleSetType: input.sampleSet?.sample_set_type ?? null,
      sampleSetUuid: input.sampleSet ? input.sampleSet.sample_set_uuid.toLowerCase() : null,
      sampleSetTypeId: sampleSet?.typeId ?? null,
      sampleSetId: sampleSet?.id ?? null,
      variables,
      tagUuids: tags.uuids,
      totalImgs: 0,
      totalMsgs: 0,
      createdBy: principal.user.id,
      version: 1,
    };
    const ops: TxOp[] = [
      tx.put(spotItem(spot), NOT_EXISTS),
      tx.put({ ...keys.spotRef(uuid), kind: 'spot_ref', field_id: field.id }, NOT_EXISTS, () => new Conflict('created meanwhile', { code: 'RETRY' })),
      tx.put({ ...keys.spotCode(spot.code), kind: 'spot_code', spot_uuid: uuid }, NOT_EXISTS, () => new Conflict('code taken', { code: 'RETRY' })),
      tx.check(keys.field(field.id), EXISTS, () => new NotFound(`field ${field.id} not found`, { code: SPOT_CODES.NOT_FOUND })),
      ...tags.ops,
      ...tagCountChanges([], tags.uuids, tags.created),
    ];
    try {
      await transact(ops);
    } catch (error) {
      if (error instanceof Conflict && error.code === 'RETRY' && attempt < 5) continue;
      throw error;
    }
    if (input.texts?.length) await addMessages(principal, { spot, field, farm, canWrite: true }, input.texts);
    return (await locateSpot(principal, uuid)).spot;
  }
}

export interface SpotChanges {
  fieldId?: number;
  name?: string | null;
  shape?: string;
  tags?: TagInput[];
  groupUuid?: string | null;
  texts?: TextInput[];
  sampleSet?: SampleSetInput | null;
  variables?: SpotVariable[] | null;
}

/** Overwrites what is sent; `tags` replaces every tag; `texts` adds (or keeps) messages by uuid. */
export async function patchSpot(principal: Principal, uuid: string, changes: SpotChanges): Promise<Spot> {
  for (let attempt = 0; ; attempt++) {
    const scope = await locateSpot(principal, uuid, 'write');
    const { spot } = scope;
    let target = { field: scope.field, farm: scope.farm };
    if (changes.fieldId !== undefined && changes.fieldId !== spot.fieldId) target = await writableField(principal, changes.fieldId);
    const next: Spot = { ...spot, fieldId: target.field.id, farmId: target.farm.id, version: spot.version + 1 };
    if (changes.name !== undefined) next.name = changes.name;
    if (changes.shape !== undefined || target.field.id !== spot.fieldId) Object.assign(next, await spotGeometry(target.field, changes.shape ?? spot.shape));
    if (changes.groupUuid !== undefined) next.groupUuid = changes.groupUuid ? changes.groupUuid.toLowerCase() : null;
    if (changes.variables !== undefined) next.variables = changes.variables ? checkVariables(changes.variables) : null;
    if (changes.sampleSet !== undefined) {
      const ids = changes.sampleSet ? await sampleSetIds(changes.sampleSet) : undefined;
      next.sampleSetType = changes.sampleSet?.sample_set_type ?? null;
      next.sampleSetUuid = changes.sampleSet ? changes.sampleSet.sample_set_uuid.toLowerCase() : null;
      next.sampleSetTypeId = ids?.typeId ?? null;
      next.sampleSetId = ids?.id ?? null;
    }
    const ops: TxOp[] = [];
    if (changes.tags !== undefined) {
      const tags = await resolveSpotTags(principal, changes.tags);
      next.tagUuids = tags.uuids;
      ops.push(...tags.ops, ...tagCountChanges(spot.tagUuids, tags.uuids, tags.created));
    }
    if (next.fieldId === spot.fieldId) {
      ops.push(tx.put(spotItem(next), 'version = :version', staleSpot, { ':version': spot.version }));
    } else {
      ops.push(
        tx.delete(keys.spot(spot.fieldId, uuid), 'version = :version', staleSpot, { ':version': spot.version }),
        tx.put(spotItem(next), NOT_EXISTS),
        tx.put({ ...keys.spotRef(uuid), kind: 'spot_ref', field_id: next.fieldId }),
      );
    }
    try {
      await transact(ops);
    } catch (error) {
      if (error instanceof Conflict && error.code === 'RETRY' && attempt < 5) continue;
      throw error;
    }
    if (changes.texts?.length) await addMessages(principal, { ...target, spot: next, canWrite: true }, changes.texts);
    return (await locateSpot(principal, uuid)).spot;
  }
}

export async function replaceVariables(principal: Principal, uuid: string, variables: SpotVariable[]): Promise<Spot> {
  return patchSpot(principal, uuid, { variables });
}

/** Merges variables by name into a spot's (sheet uploads); the others stay. */
export async function mergeVariables(principal: Principal, uuid: string, incoming: SpotVariable[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const { spot } = await locateSpot(principal, uuid, 'write');
    const merged = new Map((spot.variables ?? []).map((v) => [v.name, v]));
    for (const v of incoming) merged.set(v.name, v);
    const next: Spot = { ...spot, variables: [...merged.values()], version: spot.version + 1 };
    try {
      await transact([tx.put(spotItem(next), 'version = :version', staleSpot, { ':version': spot.version })]);
      return;
    } catch (error) {
      if (error instanceof Conflict && error.code === 'RETRY' && attempt < 5) continue;
      throw error;
    }
  }
}

/** Deletes the spot (its code and tag counts with it); its messages and images are removed by the worker. */
export async function deleteSpot(principal: Principal, uuid: string): Promise<{ spot: Spot; deletedAt: string }> {
  for (let attempt = 0; ; attempt++) {
    const { spot } = await locateSpot(principal, uuid, 'write');
    try {
      await transact([
        tx.delete(keys.spot(spot.fieldId, uuid), 'version = :version', staleSpot, { ':version': spot.version }),
        tx.delete(keys.spotRef(uuid)),
        tx.delete(keys.spotCode(spot.code)),
        ...tagCountChanges(spot.tagUuids, []),
      ]);
    } catch (error) {
      if (error instanceof Conflict && error.code === 'RETRY' && attempt < 5) continue;
      throw error;
    }
    await publishEvent(SPOT_DELETED_JOB, { spot_uuid: uuid });
    return { spot, deletedAt: nowSeconds() };
  }
}
