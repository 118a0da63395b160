// Spots in DynamoDB (docs/data-model.md): a spot in its field's partition (gsi1: the field's spots
// by creation time; gsi2: a group's spots), a ref per field holding its uuid, where it is by id,
// its code; its texts under its id with a ref per spot holding a text uuid; images declared per
// uuid and spot; user tags per uuid and owner (gsi1: a user's tags); sample sets and their types.
// A request's writes are one transaction.

import { platformFieldGate } from '../authz/gate';
import { BACKFILLS, backfilled } from '../db/backfills';
import type { Key } from '../db/keys';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import {
  batchDelete,
  batchGet,
  EXISTS,
  getItem,
  type Item,
  itemKey,
  NOT_EXISTS,
  nextId,
  putItem,
  queryAll,
  queryItems,
  readItem,
  type TxOp,
  transact,
  tx,
  updateItem,
} from '../db/table';
import { Conflict, DomainError } from '../errors';
import { publishEvent } from '../events/publish';
import { s3ImageStore } from './files';
import type { DeclaredImage } from './images';
import { Spot, SpotMessage, tagRefKey } from './model';
import {
  type NewTag,
  type SpotRepository,
  type SpotWrite,
  type SpotWriteRefusals,
  spotImagesService,
  spotListsService,
  spotMessagesService,
  spotSheetsService,
  spotsService,
  spotVariablesService,
} from './service';
import { type SpotTag, tagCountChanges, tagRules } from './tags';

/** One transaction holds a request's writes (DynamoDB allows 100 items). */
const TRANSACTION_MAX = 100;

const spotItem = (spot: Spot) => ({
  ...keys.spot(spot.fieldId, spot.uuid),
  ...keys.spotByTimeIndex(spot.fieldId, spot.createdAt, spot.uuid),
  ...keys.spotByFarmIndex(spot.farmId, spot.createdAt, spot.uuid, spot.fieldId),
  ...(spot.groupUuid ? keys.spotGroupIndex(spot.groupUuid, spot.id) : {}),
  ...Spot.toItem(spot),
});
const spotPlace = (spot: Spot) =>
  tx.put({ ...keys.spotById(spot.id), kind: 'spot_place', field_id: spot.fieldId, uuid: spot.uuid });
const spotRef = (spot: Spot, condition?: string) =>
  tx.put(
    {
      ...keys.spotRef(spot.uuid, spot.fieldId),
      kind: 'spot_ref',
      uuid: spot.uuid,
      field_id: spot.fieldId,
      spot_id: spot.id,
    },
    condition,
    () => new LostRace('the spot was created meanwhile'),
  );
const stale = () => new LostRace('the spot changed meanwhile');
const taken = (what: string) => () => new LostRace(`${what} was stored meanwhile`);

const tagFromItem = (item: Item): SpotTag => ({
  uuid: String(item.uuid),
  tag: String(item.tag),
  translatable: false,
  ownerId: Number(item.owner_id),
  deleted: Boolean(item.deleted),
  spotCount: Number(item.spot_count ?? 0),
});

const tagItem = (tag: NewTag) => ({
  ...keys.spotTag(tag.ownerId, tag.uuid),
  ...keys.spotTagsIndex(tag.ownerId, tag.tag, tag.uuid),
  kind: 'spot_tag',
  uuid: tag.uuid,
  tag: tag.tag,
  owner_id: tag.ownerId,
  deleted: false,
  spot_count: tag.spotCount,
  created_at: new Date().toISOString(),
});

const imageFromItem = (item: Item): DeclaredImage => ({
  uuid: String(item.uuid),
  spotId: Number(item.spot_id),
  uploaded: Boolean(item.uploaded),
  contentType: item.content_type as string | undefined,
  size: item.size === undefined ? undefined : Number(item.size),
});

/** The spot items of a write: created, replaced (moved when its field changed), counted, deleted. */
function spotOps(change: SpotWrite, refuse: SpotWriteRefusals): TxOp[] {
  const ops: TxOp[] = [];
  if (change.created) {
    const spot = change.created;
    ops.push(
      tx.put(spotItem(spot), NOT_EXISTS, () => new LostRace('the spot was created meanwhile')),
      spotRef(spot, NOT_EXISTS),
      spotPlace(spot),
      tx.put(
        { ...keys.spotCode(spot.code), kind: 'spot_code', spot_id: spot.id },
        NOT_EXISTS,
        () => new LostRace('code taken'),
      ),
      tx.check(keys.field(spot.fieldId), EXISTS, () => refuse.fieldNotFound(spot.fieldId)),
    );
  }
  if (change.replaced) {
    const { next, previous } = change.replaced;
    const version = { ':version': previous.version };
    if (next.fieldId === previous.fieldId) ops.push(tx.put(spotItem(next), 'version = :version', stale, version));
    else {
      ops.push(
        tx.delete(keys.spot(previous.fieldId, previous.uuid), 'version = :version', stale, version),
        tx.put(spotItem(next), NOT_EXISTS, () => refuse.uuidTaken(next.fieldId)),
        tx.delete(keys.spotRef(previous.uuid, previous.fieldId)),
        spotRef(next, NOT_EXISTS),
        spotPlace(next),
      );
    }
  }
  if (change.counters) {
    const { spot, messages, images } = change.counters;
    ops.push(
      tx.update(
        keys.spot(spot.fieldId, spot.uuid),
        {
          expression: 'ADD total_msgs :m, total_imgs :i, version :one',
          condition: 'version = :version',
          values: { ':m': messages, ':i': images, ':one': 1, ':version': spot.version },
        },
        stale,
      ),
    );
  }
  if (change.deleted) {
    const { spot, anyVersion } = change.deleted;
    const key = keys.spot(spot.fieldId, spot.uuid);
    ops.push(
      anyVersion
        ? tx.delete(key, EXISTS, refuse.gone)
        : tx.delete(key, 'version = :version', stale, { ':version': spot.version }),
      tx.delete(keys.spotRef(spot.uuid, spot.fieldId)),
      tx.delete(keys.spotCode(spot.code)),
    );
  }
  return ops;
}

/** The items of the texts, images and tags of a write. */
function contentOps(change: SpotWrite, refuse: SpotWriteRefusals): TxOp[] {
  const ops: TxOp[] = [];
  for (const tag of change.tagsCreated ?? [])
    ops.push(tx.put(tagItem(tag), NOT_EXISTS, () => new LostRace('a tag was created meanwhile')));
  for (const { tag, delta } of change.tagCounts ?? [])
    ops.push(
      tx.update(keys.spotTag(tag.ownerId, tag.uuid), {
        expression: 'ADD spot_count :delta',
        values: { ':delta': delta },
      }),
    );
  for (const { message, isNew, movedFrom } of change.texts ?? []) {
    if (movedFrom) ops.push(tx.delete(keys.spotMessage(message.spotId, movedFrom, message.uuid)));
    const item = {
      ...keys.spotMessage(message.spotId, message.timestampUsr, message.uuid),
      ...SpotMessage.toItem(message),
    };
    const ref = {
      ...keys.messageRef(message.uuid, message.spotId),
      kind: 'message_ref',
      spot_id: message.spotId,
      message_sk: item.sk,
    };
    // a new text's ref must not exist yet (the guard against a concurrent add)
    ops.push(tx.put(item), isNew ? tx.put(ref, NOT_EXISTS, taken(`text ${message.uuid}`)) : tx.put(ref));
  }
  for (const message of change.textsRemoved ?? []) {
    ops.push(
      tx.delete(keys.spotMessage(message.spotId, message.timestampUsr, message.uuid), EXISTS, refuse.gone),
      tx.delete(keys.messageRef(message.uuid, message.spotId)),
    );
  }
  for (const { spotId, image } of change.imagesDeclared ?? []) {
    ops.push(
      tx.put(
        {
          ...keys.spotImage(image.uuid, spotId),
          kind: 'spot_image',
          uuid: image.uuid,
          spot_id: spotId,
          coordinate: image.coordinate,
          uploaded: false,
        },
        NOT_EXISTS,
        taken(`image ${image.uuid}`),
      ),
    );
  }
  for (const { spotId, uuid } of change.imagesRemoved ?? []) ops.push(tx.delete(keys.spotImage(uuid, spotId)));
  return ops;
}

/** Every item of a write: the spot's own first, so that a concurrent change of the spot is reported as the lost race it is. */
function writeOps(change: SpotWrite, refuse: SpotWriteRefusals): TxOp[] {
  const ops = [...spotOps(change, refuse), ...contentOps(change, refuse)];
  if (ops.length > TRANSACTION_MAX) throw refuse.tooLarge();
  return ops;
}

export const dynamoSpotRepository: SpotRepository = {
  nextId: (sequence) => nextId(sequence),
  async spotFields(uuid) {
    return (await queryAll(keys.spotRefs(uuid))).map((r) => Number(r.field_id));
  },
  async spot(fieldId, uuid) {
    return readItem(keys.spot(fieldId, uuid), Spot.fromItem);
  },
  async spotById(spotId) {
    const where = await getItem(keys.spotById(spotId));
    const item = where ? await getItem(keys.spot(Number(where.field_id), String(where.uuid))) : undefined;
    return item ? Spot.fromItem(item) : undefined;
  },
  async spotsNamed(uuids, fieldIds) {
    const refs = (await Promise.all(uuids.map((u) => queryAll(keys.spotRefs(u))))).flat();
    const found = await batchGet(
      refs
        .filter((ref) => fieldIds.has(Number(ref.field_id)))
        .map((ref) => keys.spot(Number(ref.field_id), String(ref.uuid))),
    );
    return [...found.values()].map(Spot.fromItem);
  },
  async *fieldSpots(fieldId, from, to, pageSize) {
    for await (const item of queryItems({
      ...keys.spotsByTime(fieldId, from, to),
      descending: true,
      pageSize,
      growing: true,
    }))
      yield Spot.fromItem(item);
  },
  async *farmSpots(farmId, from, to, pageSize) {
    for await (const item of queryItems({
      ...keys.spotsOfFarmByTime(farmId, from, to),
      descending: true,
      pageSize,
      growing: true,
    }))
      yield Spot.fromItem(item);
  },
  byFarm: () => backfilled(BACKFILLS.spotsByFarm),
  async groupMembers(groupUuid) {
    return (await queryAll({ pk: keys.spotGroupIndexPk(groupUuid), index: 'gsi2' })).map(Spot.fromItem);
  },
  async messages(spotId, limit) {
    return (await queryAll({ ...keys.spotMessagesPrefix(spotId), descending: true, limit })).map(SpotMessage.fromItem);
  },
  async messageSpots(uuid) {
    return (await queryAll(keys.messageRefs(uuid))).map((ref) => Number(ref.spot_id));
  },
  async message(spotId, uuid) {
    const ref = await getItem(keys.messageRef(uuid, spotId));
    const item = ref
      ? await getItem({ pk: keys.spotMessagesPrefix(spotId).pk, sk: String(ref.message_sk) })
      : undefined;
    return item ? SpotMessage.fromItem(item) : undefined;
  },
  async images(uuid) {
    return (await queryAll(keys.spotImageRefs(uuid))).map(imageFromItem);
  },
  async markUploaded(image, contentType, size) {
    await updateItem(keys.spotImage(image.uuid, image.spotId), {
      expression: 'SET uploaded = :yes, content_type = :type, #size = :size, uploaded_at = :at',
      condition: 'attribute_exists(pk)',
      names: { '#size': 'size' },
      values: { ':yes': true, ':type': contentType, ':size': size, ':at': new Date().toISOString() },
    });
  },
  async sampleSetType(type) {
    return readItem(keys.sampleSetType(type), (stored) => Number(stored.id));
  },
  async registerSampleSetType(type, id) {
    await putItem(
      { ...keys.sampleSetType(type), kind: 'sample_set_type', id, type },
      { expression: NOT_EXISTS, failure: () => new LostRace('type registered meanwhile') },
    );
  },
  async sampleSet(ownerId, uuid) {
    return readItem(keys.sampleSet(ownerId, uuid), (stored) => ({ id: Number(stored.id), type: String(stored.type) }));
  },
  async registerSampleSet(ownerId, uuid, set) {
    await putItem(
      { ...keys.sampleSet(ownerId, uuid), kind: 'sample_set', ...set },
      { expression: NOT_EXISTS, failure: () => new LostRace('sample set registered meanwhile') },
    );
  },
  async tags(refs) {
    const found = await batchGet(refs.map((r) => keys.spotTag(r.ownerId, r.uuid)));
    const tags = new Map<string, SpotTag>();
    for (const ref of refs) {
      const item = found.get(itemKey(keys.spotTag(ref.ownerId, ref.uuid)));
      if (item) tags.set(tagRefKey(ref), tagFromItem(item));
    }
    return tags;
  },
  async tagsOfUser(userId) {
    return (await queryAll({ pk: keys.spotTagsIndexPk(userId), index: 'gsi1' }))
      .map(tagFromItem)
      .filter((t) => !t.deleted);
  },
  async createTag(tag) {
    try {
      await transact([tx.put(tagItem(tag), NOT_EXISTS, () => new Conflict('exists'))]);
      return true;
    } catch (error) {
      if (error instanceof Conflict) return false;
      throw error;
    }
  },
  async renameTag(ownerId, uuid, name, notFound) {
    await updateItem(
      keys.spotTag(ownerId, uuid),
      {
        expression: 'SET tag = :tag, gsi1sk = :sort',
        condition: 'deleted = :no',
        values: { ':tag': name, ':sort': keys.spotTagsIndex(ownerId, name, uuid).gsi1sk, ':no': false },
      },
      notFound,
    );
  },
  async deleteTag(ownerId, uuid, inUse) {
    await updateItem(
      keys.spotTag(ownerId, uuid),
      {
        expression: 'SET deleted = :yes, deleted_at = :at',
        condition: 'deleted = :no AND spot_count <= :zero',
        values: { ':yes': true, ':no': false, ':zero': 0, ':at': new Date().toISOString() },
      },
      inUse,
    );
  },
  write: (change, refuse) => transact(writeOps(change, refuse)),
};

// The spots service of the functions: DynamoDB, the platform's field access, S3 for images, the
// events queue; and its parts, for the functions that need only them. Each is built only when a
// function uses it (pure calls: a function's bundle keeps what it calls, and no more).

export const spots = /* @__PURE__ */ spotsService({
  repository: dynamoSpotRepository,
  fields: platformFieldGate,
  images: s3ImageStore,
  publish: publishEvent,
});
export const spotMessages = /* @__PURE__ */ spotMessagesService({
  repository: dynamoSpotRepository,
  fields: platformFieldGate,
  images: s3ImageStore,
});
export const spotImages = /* @__PURE__ */ spotImagesService({
  repository: dynamoSpotRepository,
  fields: platformFieldGate,
  images: s3ImageStore,
});
export const spotLists = /* @__PURE__ */ spotListsService({
  repository: dynamoSpotRepository,
  fields: platformFieldGate,
});
export const spotTags = /* @__PURE__ */ tagRules({ repository: dynamoSpotRepository });
export const spotVariables = /* @__PURE__ */ spotVariablesService({
  repository: dynamoSpotRepository,
  fields: platformFieldGate,
});
export const spotSheets = /* @__PURE__ */ spotSheetsService({
  repository: dynamoSpotRepository,
  fields: platformFieldGate,
});

// --- cleanup (worker) ------------------------------------------------------------------------------

/** Deletes the messages, their refs, the image records and image files of a spot, and where it was (SPOT_DELETED.V1; idempotent). */
export async function purgeSpotContents(spotId: number): Promise<void> {
  const items = await queryAll<Item & Key>(keys.spotMessagesPrefix(spotId));
  const images: string[] = [];
  const toDelete: Key[] = [];
  for (const item of items) {
    const message = SpotMessage.fromItem(item);
    toDelete.push({ pk: item.pk, sk: item.sk }, keys.messageRef(message.uuid, spotId));
    for (const img of message.imgs) {
      images.push(img.uuid);
      toDelete.push(keys.spotImage(img.uuid, spotId));
    }
  }
  await s3ImageStore.remove(spotId, images);
  await batchDelete([...toDelete, keys.spotById(spotId)]);
}

/** Deletes a spot of a deleted field with its code, ref and tag counts, then its contents. */
export async function purgeSpot(spotItem: Item): Promise<void> {
  const spot = Spot.fromItem(spotItem);
  const gone = () => new DomainError('not_found', 'gone');
  try {
    // Only if the spot is still there: a spot already deleted gave its tag counts back then.
    await transact(
      writeOps(
        { deleted: { spot, anyVersion: true }, tagCounts: tagCountChanges(spot.tags, []) },
        { tooLarge: gone, fieldNotFound: gone, uuidTaken: gone, gone },
      ),
    );
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
  }
  await purgeSpotContents(spot.id);
}
