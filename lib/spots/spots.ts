// Spots (spec 1): create, change, delete, variables. A spot is a point or polygon inside its field
// (the field's current shape). Every request is checked whole before anything is written, and
// written in one transaction: the spot, its refs, its code, its tags and their counts, its texts
// and their images. A request that answers an error has changed nothing. Creates with a client
// uuid are idempotent within the field.
import { v1 as uuidV1 } from 'uuid';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { EXISTS, getItem, nextId, NOT_EXISTS, queryAll, transact, tx, type TxOp } from '../db/table';
import { Conflict, Invalid, NotFound } from '../errors';
import type { Principal } from '../auth/principal';
import { fieldFor, readableAmong } from '../authz/guard';
import { GeometryError, areaHectares, parseGeometry, readWkt, toWkt } from '../geo/wkt';
import type { Field } from '../platform/model';
import { shapeFor } from '../fields/current-shape';
import { publishEvent } from '../events/publish';
import { isoMillis, isoSeconds } from '../util/time';
import { SAMPLE_SET_TYPES, unitById } from './catalogue';
import { checkUuidV1, newSpotCode, SPOT_CODES, SPOT_LIMITS, Spot, wrongFormat, type SpotVariable } from './model';
import { resolveSpotTags, tagCountChanges, type TagInput } from './tags';
import { checkTexts, messagesOf, textChanges, type TextInput } from './messages';
import { deleteImageObjects } from './images';
import { locateSpot, noPermission, type SpotScope } from './locate';
import { SPOT_DELETED_JOB } from './jobs';
import { characters } from '../util/text';

export { locateSpot, type SpotScope };

/** A field the caller may add spots to: 404 when it cannot be read, 403 (code 12) when read-only. */
const writableField = (principal: Principal, fieldId: number) =>
  fieldFor(principal, fieldId, 'write', { notFound: () => new NotFound(`field ${fieldId} not found`, { code: SPOT_CODES.NOT_FOUND }), forbidden: noPermission });

/** The spot's geometry, a point or polygon inside the field (codes 56 and 57). */
async function spotGeometry(field: Field, wkt: string): Promise<{ shape: string; kind: 'point' | 'polygon'; areaHa: number }> {
  let geometry;
  try {
    geometry = parseGeometry(wkt, ['Point', 'Polygon'], SPOT_LIMITS.VERTICES);
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
  if (variables.length > SPOT_LIMITS.VARIABLES) throw wrongFormat(`a spot holds at most ${SPOT_LIMITS.VARIABLES} variables`);
  for (const v of variables) {
    if (!unitById(v.unit_id)) throw wrongFormat(`unit_id ${v.unit_id} is not a unit (see GET /api/utils/units)`);
  }
  return variables.map((v) => ({ name: v.name, unit_id: v.unit_id, value: v.value }));
}

function checkName(name: string | null | undefined): string | null | undefined {
  if (typeof name === 'string' && characters(name) > SPOT_LIMITS.NAME) throw wrongFormat(`name has at most ${SPOT_LIMITS.NAME} characters`);
  return name;
}

export interface SampleSetInput {
  sample_set_uuid: string;
  sample_set_type: string;
}

/** The id given to a sample_set_type text: the known types keep theirs; any other text gets the next one, once. */
async function sampleSetTypeId(type: string): Promise<number> {
  const known = SAMPLE_SET_TYPES[type];
  if (known !== undefined) return known;
  return retryLostRace(async () => {
    const stored = await getItem(keys.sampleSetType(type));
    if (stored) return Number(stored.id);
    const id = 100 + (await nextId('sample_set_type'));
    await transact([tx.put({ ...keys.sampleSetType(type), kind: 'sample_set_type', id, type }, NOT_EXISTS, () => new LostRace('type registered meanwhile'))]);
    return id;
  });
}

/**
 * The integer ids of a sample set of `ownerId` (the owner of the field): its type's, and its own
 * (allocated the first time the owner uses it; a sample set keeps its type).
 */
async function sampleSetIds(ownerId: number, input: SampleSetInput): Promise<{ typeId: number; id: number }> {
  const type = typeof input.sample_set_type === 'string' ? input.sample_set_type.trim() : '';
  if (!type || type.length > SPOT_LIMITS.SAMPLE_SET_TYPE) throw wrongFormat(`sample_set_type must be a text of 1 to ${SPOT_LIMITS.SAMPLE_SET_TYPE} characters`);
  const typeId = await sampleSetTypeId(type);
  const key = keys.sampleSet(ownerId, input.sample_set_uuid);
  const id = await retryLostRace(async () => {
    const existing = await getItem(key);
    if (existing) {
      if (existing.type !== type) throw wrongFormat(`sample set ${input.sample_set_uuid} is of type ${String(existing.type)}`);
      return Number(existing.id);
    }
    const allocated = await nextId('sample_set');
    await transact([tx.put({ ...key, kind: 'sample_set', id: allocated, type }, NOT_EXISTS, () => new LostRace('sample set registered meanwhile'))]);
    return allocated;
  });
  return { typeId, id };
}

const spotItem = (spot: Spot) => ({
  ...keys.spot(spot.fieldId, spot.uuid),
  ...keys.spotByTimeIndex(spot.fieldId, spot.createdAt, spot.uuid),
  ...(spot.groupUuid ? keys.spotGroupIndex(spot.groupUuid, spot.id) : {}),
  ...Spot.toItem(spot),
});

const spotPlace = (spot: Spot) => tx.put({ ...keys.spotById(spot.id), kind: 'spot_place', field_id: spot.fieldId, uuid: spot.uuid });
const spotRef = (spot: Spot, condition?: string) =>
  tx.put({ ...keys.spotRef(spot.uuid, spot.fieldId), kind: 'spot_ref', uuid: spot.uuid, field_id: spot.fieldId, spot_id: spot.id }, condition, () => new LostRace('the spot was created meanwhile'));

/** One transaction holds a request's writes (DynamoDB allows 100 items). */
function checkSize(ops: TxOp[]): TxOp[] {
  if (ops.length > 100) throw wrongFormat('the request changes too many texts, images and tags at once; send fewer in one request');
  return ops;
}

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

export async function createSpot(principal: Principal, input: SpotInput): Promise<Spot> {
  const uuid = input.uuid ? checkUuidV1(input.uuid, 'uuid') : uuidV1();
  const name = checkName(input.name);
  const texts = checkTexts(input.texts ?? []);
  const variables = input.variables ? checkVariables(input.variables) : null;
  return retryLostRace(async () => {
    const { field, farm } = await writableField(principal, input.fieldId);
    // A uuid names one spot per field: sent again to this field, it is the spot made the first
    // time (its texts added when new); a spot of this uuid the caller can see elsewhere conflicts.
    const refs = await queryAll(keys.spotRefs(uuid));
    if (refs.some((r) => Number(r.field_id) === field.id)) {
      const scope = await locateSpot(principal, uuid, 'write');
      const changes = textChanges(principal, scope.spot, await messagesOf(scope.spot.id), texts, false);
      if (changes.ops.length) await transact(checkSize([...changes.ops, spotCountersOf(scope.spot, changes.messages, changes.images)]));
      return (await locateSpot(principal, uuid)).spot;
    }
    if (await readableAmong(principal, refs.map((r) => Number(r.field_id)))) {
      throw new Conflict(`spot ${uuid} exists in another field`, { code: SPOT_CODES.WRONG_FORMAT });
    }

    const geometry = await spotGeometry(field, input.shape);
    const sampleSet = input.sampleSet ? await sampleSetIds(field.ownerId, input.sampleSet) : undefined;
    const tags = await resolveSpotTags(principal, input.tags ?? []);
    const now = Date.now();
    const spot: Spot = {
      id: await nextId('spot'),
      uuid,
      code: newSpotCode(),
      fieldId: field.id,
      farmId: farm.id,
      ownerId: field.ownerId,
      name: name ?? null,
      ...geometry,
      creationTs: isoSeconds(now),
      createdAt: isoMillis(now),
      groupUuid: input.groupUuid ? input.groupUuid.toLowerCase() : null,
      sampleSetType: input.sampleSet ? input.sampleSet.sample_set_type.trim() : null,
      sampleSetUuid: input.sampleSet ? input.sampleSet.sample_set_uuid.toLowerCase() : null,
      sampleSetTypeId: sampleSet?.typeId ?? null,
      sampleSetId: sampleSet?.id ?? null,
      variables,
      tags: tags.refs,
      totalImgs: 0,
      totalMsgs: 0,
      createdBy: principal.user.id,
      version: 1,
    };
    const changes = textChanges(principal, spot, [], texts, false);
    spot.totalMsgs = changes.messages;
    spot.totalImgs = changes.images;
    await transact(
      checkSize([
        tx.put(spotItem(spot), NOT_EXISTS, () => new LostRace('the spot was created meanwhile')),
        spotRef(spot, NOT_EXISTS),
        spotPlace(spot),
        tx.put({ ...keys.spotCode(spot.code), kind: 'spot_code', spot_id: spot.id }, NOT_EXISTS, () => new LostRace('code taken')),
        tx.check(keys.field(field.id), EXISTS, () => new NotFound(`field ${field.id} not found`, { code: SPOT_CODES.NOT_FOUND })),
        ...tags.ops,
        ...tagCountChanges([], tags.refs, tags.created),
        ...changes.ops,
      ]),
    );
    return spot;
  });
}

/** Counts of texts and images changed on a spot written by another item of the transaction. */
const spotCountersOf = (spot: Spot, messages: number, images: number): TxOp =>
  tx.update(
    keys.spot(spot.fieldId, spot.uuid),
    { expression: 'ADD total_msgs :m, total_imgs :i, version :one', condition: 'version = :version', values: { ':m': messages, ':i': images, ':one': 1, ':version': spot.version } },
    () => new LostRace('the spot changed meanwhile'),
  );

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

/**
 * PATCH: what is sent overwrites what is stored (spec 1). `tags` replaces every tag; `texts` is
 * the spot's complete list of texts: texts not in it are removed with their images, a text sent
 * again with other content is updated, new ones are added (docs/decisions.md, Spots).
 */
export async function patchSpot(principal: Principal, uuid: string, changes: SpotChanges): Promise<Spot> {
  const name = checkName(changes.name);
  const texts = changes.texts === undefined ? undefined : checkTexts(changes.texts);
  const variables = changes.variables === undefined || changes.variables === null ? changes.variables : checkVariables(changes.variables);
  const released: Array<[number, string[]]> = [];
  const spot = await retryLostRace(async () => {
    const scope = await locateSpot(principal, uuid, 'write');
    const { spot } = scope;
    let target = { field: scope.field, farm: scope.farm };
    if (changes.fieldId !== undefined && changes.fieldId !== spot.fieldId) target = await writableField(principal, changes.fieldId);
    const next: Spot = { ...spot, fieldId: target.field.id, farmId: target.farm.id, ownerId: target.field.ownerId, version: spot.version + 1 };
    if (name !== undefined) next.name = name;
    if (changes.shape !== undefined || target.field.id !== spot.fieldId) Object.assign(next, await spotGeometry(target.field, changes.shape ?? spot.shape));
    if (changes.groupUuid !== undefined) next.groupUuid = changes.groupUuid ? changes.groupUuid.toLowerCase() : null;
    if (variables !== undefined) next.variables = variables;
    if (changes.sampleSet !== undefined) {
      const ids = changes.sampleSet ? await sampleSetIds(target.field.ownerId, changes.sampleSet) : undefined;
      next.sampleSetType = changes.sampleSet ? changes.sampleSet.sample_set_type.trim() : null;
      next.sampleSetUuid = changes.sampleSet ? changes.sampleSet.sample_set_uuid.toLowerCase() : null;
      next.sampleSetTypeId = ids?.typeId ?? null;
      next.sampleSetId = ids?.id ?? null;
    }
    const ops: TxOp[] = [];
    if (changes.tags !== undefined) {
      const tags = await resolveSpotTags(principal, changes.tags, spot.tags);
      next.tags = tags.refs;
      ops.push(...tags.ops, ...tagCountChanges(spot.tags, tags.refs, tags.created));
    }
    let releasedImages: string[] = [];
    if (texts !== undefined) {
      const textOps = textChanges(principal, spot, await messagesOf(spot.id), texts, true);
      ops.push(...textOps.ops);
      next.totalMsgs += textOps.messages;
      next.totalImgs += textOps.images;
      releasedImages = textOps.releasedImages;
    }
    const stale = () => new LostRace('the spot changed meanwhile');
    if (next.fieldId === spot.fieldId) {
      ops.push(tx.put(spotItem(next), 'version = :version', stale, { ':version': spot.version }));
    } else {
      // Moved: the uuid must be free in the target field; the spot keeps its id, texts and images.
      ops.push(
        tx.delete(keys.spot(spot.fieldId, uuid), 'version = :version', stale, { ':version': spot.version }),
        tx.put(spotItem(next), NOT_EXISTS, () => new Conflict(`a spot ${uuid} already exists in field ${next.fieldId}`, { code: SPOT_CODES.WRONG_FORMAT })),
        tx.delete(keys.spotRef(uuid, spot.fieldId)),
        spotRef(next, NOT_EXISTS),
        spotPlace(next),
      );
    }
    await transact(checkSize(ops));
    if (releasedImages.length) released.push([spot.id, releasedImages]);
    return next;
  });
  for (const [spotId, images] of released) await deleteImageObjects(spotId, images);
  return spot;
}

export async function replaceVariables(principal: Principal, uuid: string, variables: SpotVariable[]): Promise<Spot> {
  return patchSpot(principal, uuid, { variables });
}

/** Merges variables by name into a spot's (sheet uploads); the others stay. */
export async function mergeVariables(principal: Principal, uuid: string, incoming: SpotVariable[]): Promise<void> {
  await retryLostRace(async () => {
    const { spot } = await locateSpot(principal, uuid, 'write');
    const merged = new Map((spot.variables ?? []).map((v) => [v.name, v]));
    for (const v of incoming) merged.set(v.name, v);
    const next: Spot = { ...spot, variables: checkVariables([...merged.values()]), version: spot.version + 1 };
    await transact([tx.put(spotItem(next), 'version = :version', () => new LostRace('the spot changed meanwhile'), { ':version': spot.version })]);
  });
}

/** The writes that delete a spot (`removal`: its item's deletion, with its condition; its ref, code, tag counts). */
export function spotDeletion(spot: Spot, removal: TxOp): TxOp[] {
  return [
    removal,
    tx.delete(keys.spotRef(spot.uuid, spot.fieldId)),
    tx.delete(keys.spotCode(spot.code)),
    ...tagCountChanges(spot.tags, []),
  ];
}

/** Deletes the spot; its messages and images are removed by the worker (SPOT_DELETED.V1). */
export async function deleteSpot(principal: Principal, uuid: string): Promise<{ spot: Spot; deletedAt: string }> {
  const spot = await retryLostRace(async () => {
    const { spot } = await locateSpot(principal, uuid, 'write');
    await transact(spotDeletion(spot, tx.delete(keys.spot(spot.fieldId, uuid), 'version = :version', () => new LostRace('the spot changed meanwhile'), { ':version': spot.version })));
    return spot;
  });
  await publishEvent(SPOT_DELETED_JOB, { spot_id: spot.id });
  return { spot, deletedAt: isoSeconds() };
}

