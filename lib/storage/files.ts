// File storage (spec 3): a key holds one file of an extension under a user, a field or a farm.
// The record lives in the resource's partition and points to the S3 object of its current upload,
// storage/<scope>/<id>/<extension>/<key>/<upload id>. A PUT or PATCH switches the record to a new
// upload id first and only then deletes the replaced object, so a key never points to a deleted
// file; a later upload to a replaced URL lands on an object nothing points to, which the worker
// deletes once the URL has expired (STORAGE_OBJECT_RELEASED.V1).
import { randomUUID } from 'node:crypto';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Principal } from '../auth/principal';
import { ifPresent, s3 } from '../aws/s3';
import { config } from '../config';
import { keys as keyOf, type Key } from '../db/keys';
import { batchGet, itemKey, putItem, putVersioned, queryAll, takeItem, updateItem, NOT_EXISTS, type Item } from '../db/table';
import { Conflict, GENERAL_CODES, Invalid } from '../errors';
import { log } from '../log';
import { publishEvent } from '../events/publish';
import { mapLimit } from '../util/map-limit';
import { isoSeconds } from '../util/time';
import { authorisedResource, FILE_MAX_KB, readableResources, resourcePk, type Scope } from './access';
import type { StorageCaller } from './access';
import { STORAGE_CODES } from './codes';
import { characters } from '../util/text';

export const UPLOAD_URL_SECONDS = 10;
export const DOWNLOAD_URL_SECONDS = 10;
/** The declared size may be rounded: the upload may differ from it by half a KB either way. */
export const SIZE_TOLERANCE_KB = 0.5;
export const OBJECT_RELEASED_JOB = 'STORAGE_OBJECT_RELEASED.V1';

const MD5_BASE64 = /^[A-Za-z0-9+/]{22}==$/;

export interface FileDeclaration {
  ref: unknown;
  key: string;
  fileName: string;
  md5: string;
  sizeKb: number;
}

export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
}

export interface StoredFile {
  file_name: string;
  file_size_kb: number;
  created_at: string;
  uploaded: boolean;
  url?: string | null;
}

/** The size in KB as sent (number or text): code 7 over 10 MB, -4 when it is no size. */
export function parseSizeKb(value: unknown): number {
  const size = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) {
    throw new Invalid('file_size_kb must be a non-negative number of KB', { code: GENERAL_CODES.WRONG_FORMAT });
  }
  if (size > FILE_MAX_KB) throw new Invalid(`the file exceeds the maximum size of ${FILE_MAX_KB} KB (10 MB)`, { code: STORAGE_CODES.FILE_TOO_LARGE });
  return size;
}

function checkDeclaration(input: FileDeclaration): void {
  if (!MD5_BASE64.test(input.md5)) {
    throw new Invalid('md5 must be the base64 MD5 hash of the file (24 characters, e.g. openssl md5 -binary FILE | base64)', {
      code: GENERAL_CODES.WRONG_FORMAT,
    });
  }
  const name = input.fileName.trim();
  if (!name || characters(name) > 255 || /[\u0000-\u001f]/.test(name)) {
    throw new Invalid('original_file_name must be 1 to 255 characters without control characters', { code: GENERAL_CODES.WRONG_FORMAT });
  }
}

export const objectKeyOf = (scope: Scope, id: number, extension: string, key: string, uploadId: string) =>
  `storage/${scope}/${id}/${encodeURIComponent(extension)}/${key}/${uploadId}`;

interface Target {
  scope: Scope;
  id: number;
  extension: string;
  key: string;
}

const fileKey = (t: Target): Key => keyOf.storageFile(resourcePk(t.scope, t.id), t.extension, t.key);

function fileItem(t: Target, input: FileDeclaration, principal: Principal): Item {
  const uploadId = randomUUID();
  return {
    kind: 'storage_file',
    scope: t.scope,
    resource_id: t.id,
    extension_id: t.extension,
    key: t.key,
    file_name: input.fileName.trim(),
    file_size_kb: input.sizeKb,
    md5: input.md5,
    upload_id: uploadId,
    object_key: objectKeyOf(t.scope, t.id, t.extension, t.key, uploadId),
    uploaded: false,
    created_at: isoSeconds(),
    created_by: principal.user.id,
  };
}

async function presign(item: Item, sizeKb: number, md5: string): Promise<PresignedUpload> {
  const low = Math.max(0, Math.floor((sizeKb - SIZE_TOLERANCE_KB) * 1024));
  const high = Math.min(FILE_MAX_KB * 1024, Math.ceil((sizeKb + SIZE_TOLERANCE_KB) * 1024));
  const post = await createPresignedPost(s3(), {
    Bucket: config().bucket,
    Key: String(item.object_key),
    Conditions: [
      ['content-length-range', low, high],
      ['eq', '$Content-MD5', md5],
    ],
    Expires: UPLOAD_URL_SECONDS,
  });
  return { url: post.url, fields: post.fields };
}

/**
 * Deletes objects now and, once their upload URLs have expired (SURCO_STORAGE_RELEASE_DELAY_S,
 * default 30 s), again through the worker.
 */
async function release(objectKeys: string[]): Promise<void> {
  if (!objectKeys.length) return;
  await publishEvent(OBJECT_RELEASED_JOB, { object_keys: objectKeys }, { delaySeconds: config().storageReleaseDelaySeconds });
  await deleteObjects(objectKeys).catch((error) => log.error('storage objects not deleted; the worker retries', { objectKeys, error }));
}

export async function deleteObjects(objectKeys: string[]): Promise<void> {
  for (let i = 0; i < objectKeys.length; i += 1000) {
    await s3().send(
      new DeleteObjectsCommand({
        Bucket: config().bucket,
        Delete: { Objects: objectKeys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
      }),
    );
  }
}

/** PUT: a new key (code 5 when it exists, unless overwrite), or a new file for it. */
export async function putFile(caller: StorageCaller, scope: Scope, input: FileDeclaration & { overwrite: boolean }): Promise<PresignedUpload> {
  const { principal, extension } = caller;
  checkDeclaration(input);
  const target = { scope, extension, key: input.key, id: await authorisedResource(principal, scope, input.ref, 'write') };
  if (!input.overwrite) {
    const item = { ...fileKey(target), ...fileItem(target, input, principal), version: 1 };
    await putItem(item, {
      expression: NOT_EXISTS,
      failure: () => new Conflict(`the key ${input.key} already exists (send overwrite=true to replace its file)`, { code: STORAGE_CODES.KEY_STATE }),
    });
    return presign(item, input.sizeKb, input.md5);
  }
  return replace(principal, target, input, true);
}

/** PATCH: a new file for an existing key (code 5 when absent, unless create). */
export async function patchFile(caller: StorageCaller, scope: Scope, input: FileDeclaration & { create: boolean }): Promise<PresignedUpload> {
  const { principal, extension } = caller;
  checkDeclaration(input);
  const target = { scope, extension, key: input.key, id: await authorisedResource(principal, scope, input.ref, 'write') };
  return replace(principal, target, input, input.create);
}

async function replace(principal: Principal, target: Target, input: FileDeclaration, create: boolean): Promise<PresignedUpload> {
  let replaced: string | undefined;
  const item = await putVersioned(fileKey(target), (current) => {
    if (!current && !create) {
      throw new Conflict(`the key ${input.key} does not exist (send create=true to create it)`, { code: STORAGE_CODES.KEY_STATE });
    }
    replaced = current?.object_key as string | undefined;
    return fileItem(target, input, principal);
  });
  if (replaced) await release([replaced]);
  return presign(item, input.sizeKb, input.md5);
}

/** Whether the current upload of a record has arrived; records it (and its real size) once it has. */
async function uploaded(item: Item & Key): Promise<Item & Key> {
  if (item.uploaded) return item;
  const head = await ifPresent(s3().send(new HeadObjectCommand({ Bucket: config().bucket, Key: String(item.object_key) })));
  if (!head) return item;
  const sizeKb = Math.round(((head.ContentLength ?? 0) / 1024) * 1000) / 1000;
  const updated = await updateItem(
    { pk: item.pk, sk: item.sk },
    {
      expression: 'SET uploaded = :yes, file_size_kb = :size, uploaded_at = :at',
      condition: 'upload_id = :upload',
      values: { ':yes': true, ':size': sizeKb, ':at': isoSeconds(), ':upload': item.upload_id },
    },
  );
  return (updated as (Item & Key) | undefined) ?? { ...item, uploaded: true, file_size_kb: sizeKb };
}

async function downloadUrl(item: Item): Promise<string> {
  const name = String(item.file_name);
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: config().bucket,
      Key: String(item.object_key),
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );
}

async function wireFile(item: Item & Key, withUrl: boolean): Promise<StoredFile> {
  const current = await uploaded(item);
  return {
    file_name: String(current.file_name),
    file_size_kb: Number(current.file_size_kb),
    created_at: String(current.created_at),
    uploaded: Boolean(current.uploaded),
    ...(withUrl ? { url: current.uploaded ? await downloadUrl(current) : null } : {}),
  };
}

/**
 * GET: objects[<id>][<key>] (users scope without ids: objects[<key>]). An empty `keys` lists every
 * key; ids as in key-value GET (code 5 unknown, 3 not readable).
 */
export async function listFiles(
  caller: StorageCaller,
  scope: Scope,
  input: { keys: readonly string[]; ids?: readonly unknown[]; getUrl: boolean },
): Promise<Record<string, unknown>> {
  const { principal, extension } = caller;
  const flat = scope === 'users' && input.ids === undefined;
  const explicit = Boolean(input.ids?.length);
  const resources = await readableResources(principal, scope, input.ids);
  const wanted = [...new Set(input.keys)];
  const records: Array<{ id: number; item: Item & Key }> = [];
  const ids = [...new Set(resources.map((r) => r.id))];
  if (wanted.length === 0) {
    await mapLimit(ids, 8, async (id) => {
      const prefix = keyOf.storageFile(resourcePk(scope, id), extension, '');
      for (const item of await queryAll<Item & Key>({ pk: prefix.pk, skPrefix: prefix.sk })) records.push({ id, item });
    });
  } else {
    const wantedKeys = ids.flatMap((id) => wanted.map((key) => ({ id, key: keyOf.storageFile(resourcePk(scope, id), extension, key) })));
    const found = await batchGet<Item & Key>(wantedKeys.map((entry) => entry.key));
    for (const entry of wantedKeys) {
      const item = found.get(itemKey(entry.key));
      if (item) records.push({ id: entry.id, item });
    }
  }
  const files = await mapLimit(records, 8, async ({ id, item }) => ({ id, key: String(item.key), file: await wireFile(item, input.getUrl) }));
  const byId = new Map<number, Record<string, StoredFile>>();
  for (const { id, key, file } of files) byId.set(id, { ...byId.get(id), [key]: file });
  if (flat) return byId.get(principal.user.id) ?? {};
  const objects: Record<string, Record<string, StoredFile>> = {};
  for (const { label, id } of resources) {
    const entry = byId.get(id);
    if (entry || explicit) objects[label] = entry ?? {};
  }
  return objects;
}

/** DELETE: removes the keys (absent ones are ignored) and their files; answers the keys removed. */
export async function deleteFiles(caller: StorageCaller, scope: Scope, input: { ref: unknown; keys: readonly string[] }): Promise<string[]> {
  const { principal, extension } = caller;
  const id = await authorisedResource(principal, scope, input.ref, 'delete');
  const removed = await mapLimit([...new Set(input.keys)], 8, async (key) => takeItem(keyOf.storageFile(resourcePk(scope, id), extension, key)));
  const items = removed.filter((item): item is Item => Boolean(item));
  await release(items.map((item) => String(item.object_key)));
  return items.map((item) => String(item.key));
}

/** The objects of a deleted resource's file records (the field cleanup deletes them). */
export const objectKeysOf = (items: readonly Item[]): string[] =>
  items.filter((item) => item.kind === 'storage_file' && item.object_key).map((item) => String(item.object_key));
