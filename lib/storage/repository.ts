// Storage in DynamoDB and S3 (docs/data-model.md): key-value objects and file records in the
// partition of the user, field or farm they belong to, per extension; files in S3 under
// storage/<scope>/<id>/<extension>/<key>/<upload id>. And the two services of the functions.
import { deleteObjects, ifPresent, s3Kit } from '../aws/s3';
import { config } from '../config';
import { BACKFILLS, backfilled } from '../db/backfills';
import { type Key, keys as keyOf } from '../db/keys';
import {
  batchDelete,
  batchGet,
  type Item,
  itemKey,
  NOT_EXISTS,
  putItem,
  putVersioned,
  queryAll,
  takeItem,
  updateItem,
} from '../db/table';
import { Conflict } from '../errors';
import { publishEvent } from '../events/publish';
import { mapLimit } from '../util/map-limit';
import { encodeRfc5987 } from '../util/text';
import { authorisedResource, fieldsByFarm, readableResources, resourcePk, type Scope } from './access';
import {
  type FileRecord,
  type FileRepository,
  type FileSlot,
  fileStorageService,
  OBJECT_RELEASED_JOB,
  type ObjectStore,
} from './files';
import { keyValueService, type ResourceGate, type StoredValue, type ValueRepository, type ValueSlot } from './kv';

// --- key-value ----------------------------------------------------------------------------------

const slotKey = (slot: ValueSlot) => keyOf.storageValue(resourcePk(slot.scope, slot.id), slot.extension, slot.key);

/**
 * What lists a field's entry in its farm's index (gsi1 `FARMSTORAGE#`): its farm, known to the write
 * that authorised the field. Nothing for users' and farms' entries.
 */
const farmIndex = (kind: 'KV' | 'FILE', slot: ValueSlot | FileSlot): Item =>
  slot.scope === 'fields' && slot.farmId !== undefined
    ? { farm_id: slot.farmId, ...keyOf.storageByFarmIndex(slot.farmId, kind, slot.extension, slot.key, slot.id) }
    : {};

/** A farm's entries of an extension in its index, of these keys (every key when none), by key then field. */
async function farmEntries(farmId: number, kind: 'KV' | 'FILE', extension: string, keys: readonly string[]) {
  if (keys.length === 0) return queryAll(keyOf.storageOfFarm(farmId, kind, extension));
  const perKey = await mapLimit([...keys], 8, (key) => queryAll(keyOf.storageOfFarm(farmId, kind, extension, key)));
  return perKey.flat();
}

/** Whether the fields' entries written before their farm's index are in it (scripts/backfill.ts). */
const storageByFarm = () => backfilled(BACKFILLS.storageByFarm);

const valueItem = (slot: ValueSlot, value: StoredValue): Item => ({
  kind: 'storage_value',
  scope: slot.scope,
  resource_id: slot.id,
  extension_id: slot.extension,
  key: slot.key,
  ...farmIndex('KV', slot),
  data_json: value.json,
  created_at: value.createdAt,
  updated_at: value.updatedAt,
  updated_by: value.updatedBy,
});

const valueFromItem = (item: Item): StoredValue => ({
  json: String(item.data_json),
  createdAt: String(item.created_at),
  updatedAt: String(item.updated_at),
  updatedBy: Number(item.updated_by),
});

export const dynamoValueRepository: ValueRepository = {
  async create(slot, value) {
    try {
      await putItem(
        { ...slotKey(slot), ...valueItem(slot, value), version: 1 },
        { expression: NOT_EXISTS, failure: () => new Conflict('exists') },
      );
      return true;
    } catch (error) {
      if (error instanceof Conflict) return false;
      throw error;
    }
  },
  async update(slot, change) {
    await putVersioned(slotKey(slot), (current) =>
      valueItem(slot, change(current ? valueFromItem(current) : undefined)),
    );
  },
  async read(slots) {
    const items = await batchGet(slots.map(slotKey));
    const found = new Map<ValueSlot, StoredValue>();
    for (const slot of slots) {
      const item = items.get(itemKey(slotKey(slot)));
      if (item) found.set(slot, valueFromItem(item));
    }
    return found;
  },
  async list(scope, id, extension) {
    const prefix = keyOf.storageValue(resourcePk(scope, id), extension, '');
    return new Map(
      (await queryAll({ pk: prefix.pk, skPrefix: prefix.sk })).map((item) => [String(item.key), valueFromItem(item)]),
    );
  },
  async listOfFarm(farmId, extension, keys) {
    return (await farmEntries(farmId, 'KV', extension, keys)).map((item) => ({
      fieldId: Number(item.resource_id),
      key: String(item.key),
      value: valueFromItem(item),
    }));
  },
  byFarm: storageByFarm,
  async remove(slots) {
    await batchDelete(slots.map(slotKey));
  },
};

export const storageResourceGate: ResourceGate = {
  authorise: authorisedResource,
  readable: readableResources,
  fieldsByFarm,
};

/** The key-value storage service of the functions: DynamoDB and the storage resource gate. */
export const keyValues = /* @__PURE__ */ keyValueService({
  values: dynamoValueRepository,
  resources: storageResourceGate,
});

// --- files ----------------------------------------------------------------------------------------

const fileKey = (slot: FileSlot): Key => keyOf.storageFile(resourcePk(slot.scope, slot.id), slot.extension, slot.key);

const fileItem = (r: FileRecord): Item => ({
  kind: 'storage_file',
  scope: r.scope,
  resource_id: r.id,
  extension_id: r.extension,
  key: r.key,
  ...farmIndex('FILE', r),
  file_name: r.fileName,
  file_size_kb: r.sizeKb,
  md5: r.md5,
  upload_id: r.uploadId,
  object_key: r.objectKey,
  uploaded: r.uploaded,
  created_at: r.createdAt,
  created_by: r.createdBy,
});

const fileFromItem = (item: Item): FileRecord => ({
  scope: item.scope as Scope,
  id: Number(item.resource_id),
  extension: String(item.extension_id),
  key: String(item.key),
  ...(item.farm_id === undefined ? {} : { farmId: Number(item.farm_id) }),
  fileName: String(item.file_name),
  sizeKb: Number(item.file_size_kb),
  md5: String(item.md5),
  uploadId: String(item.upload_id),
  objectKey: String(item.object_key),
  uploaded: Boolean(item.uploaded),
  createdAt: String(item.created_at),
  createdBy: Number(item.created_by),
});

export const dynamoFileRepository: FileRepository = {
  async create(r) {
    try {
      await putItem(
        { ...fileKey(r), ...fileItem(r), version: 1 },
        { expression: NOT_EXISTS, failure: () => new Conflict('exists') },
      );
      return true;
    } catch (error) {
      if (error instanceof Conflict) return false;
      throw error;
    }
  },
  async replace(slot, change) {
    let replaced: FileRecord | undefined;
    await putVersioned(fileKey(slot), (current) => {
      replaced = current ? fileFromItem(current) : undefined;
      return fileItem(change(replaced));
    });
    return replaced;
  },
  async read(slots) {
    const found = await batchGet(slots.map(fileKey));
    return slots.flatMap((slot) => {
      const item = found.get(itemKey(fileKey(slot)));
      return item ? [fileFromItem(item)] : [];
    });
  },
  async list(scope, id, extension) {
    const prefix = keyOf.storageFile(resourcePk(scope, id), extension, '');
    return (await queryAll({ pk: prefix.pk, skPrefix: prefix.sk })).map(fileFromItem);
  },
  async listOfFarm(farmId, extension, keys) {
    return (await farmEntries(farmId, 'FILE', extension, keys)).map(fileFromItem);
  },
  byFarm: storageByFarm,
  async markUploaded(r, sizeKb, at) {
    const updated = await updateItem(fileKey(r), {
      expression: 'SET uploaded = :yes, file_size_kb = :size, uploaded_at = :at',
      condition: 'upload_id = :upload',
      values: { ':yes': true, ':size': sizeKb, ':at': at, ':upload': r.uploadId },
    });
    return updated ? fileFromItem(updated) : { ...r, uploaded: true, sizeKb };
  },
  async take(slot) {
    const item = await takeItem(fileKey(slot));
    return item ? fileFromItem(item) : undefined;
  },
};

export const s3ObjectStore: ObjectStore = {
  async presignUpload(objectKey, minBytes, maxBytes, md5, seconds) {
    const { s3, createPresignedPost } = await s3Kit();
    const post = await createPresignedPost(s3(), {
      Bucket: config().bucket,
      Key: objectKey,
      Conditions: [
        ['content-length-range', minBytes, maxBytes],
        ['eq', '$Content-MD5', md5],
      ],
      Expires: seconds,
    });
    return { url: post.url, fields: post.fields };
  },
  async size(objectKey) {
    const { s3, HeadObjectCommand } = await s3Kit();
    const head = await ifPresent(s3().send(new HeadObjectCommand({ Bucket: config().bucket, Key: objectKey })));
    return head ? (head.ContentLength ?? 0) : undefined;
  },
  async downloadUrl(objectKey, fileName, seconds) {
    const { s3, getSignedUrl, GetObjectCommand } = await s3Kit();
    return getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: config().bucket,
        Key: objectKey,
        // a name stored before texts were checked may hold a lone surrogate: encoded, never a URIError
        ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeRfc5987(fileName)}`,
      }),
      {
        expiresIn: seconds,
      },
    );
  },
  remove: deleteObjects,
  // SURCO_STORAGE_RELEASE_DELAY_S (default 30 s) after now, through the worker
  removeLater: async (objectKeys) =>
    void (await publishEvent(
      OBJECT_RELEASED_JOB,
      { object_keys: objectKeys },
      { delaySeconds: config().storageReleaseDelaySeconds },
    )),
};

/** The objects of a deleted resource's file records (the field cleanup deletes them). */
export const objectKeysOf = (items: readonly Item[]): string[] =>
  items
    .filter((item) => (item.kind === 'storage_file' || item.kind === 'imagery_date') && item.object_key)
    .map((item) => String(item.object_key));

/** The file-storage service of the functions: DynamoDB, S3 and the storage resource gate. */
export const fileStorage = /* @__PURE__ */ fileStorageService({
  files: dynamoFileRepository,
  objects: s3ObjectStore,
  resources: storageResourceGate,
});
