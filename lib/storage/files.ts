// File storage (spec 3): a key holds one file of an extension under a user, a field or a farm.
// The record lives in the resource's partition and points to the S3 object of its current upload,
// storage/<scope>/<id>/<extension>/<key>/<upload id>. A PUT or PATCH switches the record to a new
// upload id first and only then deletes the replaced object, so a key never points to a deleted
// file; a later upload to a replaced URL lands on an object nothing points to, which the worker
// deletes once the URL has expired (STORAGE_OBJECT_RELEASED.V1).
//
// The service is built from its repositories (services take them as parameters, as
// lib/storage/kv.ts): its rules run against DynamoDB and S3 in the functions
// (lib/storage/repository.ts) and against memory in tests/unit/file-storage.test.ts.
import type { Principal } from '../auth/principal';
import { Conflict, GENERAL_CODES, Invalid } from '../errors';
import { log } from '../log';
import { mapLimit } from '../util/map-limit';
import { characters } from '../util/text';
import { isoSeconds } from '../util/time';
import { newUuid } from '../util/uuid';
import type { StorageCaller } from './access';
import { FILE_MAX_KB, type Scope } from './access';
import { STORAGE_CODES } from './codes';
import { entriesOfEveryField } from './every-field';
import type { ResourceGate } from './kv';

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
  if (size > FILE_MAX_KB)
    throw new Invalid(`the file exceeds the maximum size of ${FILE_MAX_KB} KB (10 MB)`, {
      code: STORAGE_CODES.FILE_TOO_LARGE,
    });
  return size;
}

function checkDeclaration(input: FileDeclaration): void {
  if (!MD5_BASE64.test(input.md5)) {
    throw new Invalid(
      'md5 must be the base64 MD5 hash of the file (24 characters, e.g. openssl md5 -binary FILE | base64)',
      {
        code: GENERAL_CODES.WRONG_FORMAT,
      },
    );
  }
  const name = input.fileName.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (!name || characters(name) > 255 || /[\u0000-\u001f]/.test(name)) {
    throw new Invalid('original_file_name must be 1 to 255 characters without control characters', {
      code: GENERAL_CODES.WRONG_FORMAT,
    });
  }
}

export const objectKeyOf = (scope: Scope, id: number, extension: string, key: string, uploadId: string) =>
  `storage/${scope}/${id}/${encodeURIComponent(extension)}/${key}/${uploadId}`;

/** One key's file: where it is (a resource of a scope, an extension, a key) and its current upload. */
export interface FileSlot {
  scope: Scope;
  id: number;
  extension: string;
  key: string;
  /** A field's farm, when known (a write's): its farm's index then lists the record (`listOfFarm`). */
  farmId?: number;
}

export interface FileRecord extends FileSlot {
  fileName: string;
  sizeKb: number;
  md5: string;
  /** Each upload has its own object: a new file for the key never overwrites the object of the one it replaces. */
  uploadId: string;
  objectKey: string;
  uploaded: boolean;
  createdAt: string;
  createdBy: number;
}

/** Where file records are kept. */
export interface FileRepository {
  /** Stores a record unless the key has one; false when it had. */
  create(record: FileRecord): Promise<boolean>;
  /** Replaces a key's record by `change(current)` atomically (re-applied if another write came first); answers the replaced one. */
  replace(slot: FileSlot, change: (current: FileRecord | undefined) => FileRecord): Promise<FileRecord | undefined>;
  read(slots: FileSlot[]): Promise<FileRecord[]>;
  /** Every record of an extension in one resource. */
  list(scope: Scope, id: number, extension: string): Promise<FileRecord[]>;
  /**
   * An extension's records in the fields of a farm (of these keys; every key when none), from the
   * farm's index: of fields the caller may not read (the service keeps those it reads).
   */
  listOfFarm(farmId: number, extension: string, keys: readonly string[]): Promise<FileRecord[]>;
  /** Whether every field's record is in its farm's index (`listOfFarm`; docs/data-model.md, "Backfills"). */
  byFarm(): Promise<boolean>;
  /** Records that the record's upload arrived with this size, unless the key moved on to another upload meanwhile. */
  markUploaded(record: FileRecord, sizeKb: number, at: string): Promise<FileRecord>;
  /** Removes a key's record; answers it when there was one. */
  take(slot: FileSlot): Promise<FileRecord | undefined>;
}

/** Where the files themselves are kept (S3). */
export interface ObjectStore {
  /** A form a client posts the file with, straight to storage, within these sizes and with this MD5. */
  presignUpload(
    objectKey: string,
    minBytes: number,
    maxBytes: number,
    md5: string,
    seconds: number,
  ): Promise<PresignedUpload>;
  /** Bytes of an object, when it is there. */
  size(objectKey: string): Promise<number | undefined>;
  /** A short-lived URL that downloads the object under its file name. */
  downloadUrl(objectKey: string, fileName: string, seconds: number): Promise<string>;
  remove(objectKeys: string[]): Promise<void>;
  /** Removes the objects again once their upload URLs have expired (an upload in flight may land after now). */
  removeLater(objectKeys: string[]): Promise<void>;
}

export function fileStorageService({
  files,
  objects,
  resources,
  now = () => new Date(),
}: {
  files: FileRepository;
  objects: ObjectStore;
  resources: ResourceGate;
  now?: () => Date;
}) {
  const record = (slot: FileSlot, input: FileDeclaration, principal: Principal): FileRecord => {
    const uploadId = newUuid();
    return {
      ...slot,
      fileName: input.fileName.trim(),
      sizeKb: input.sizeKb,
      md5: input.md5,
      uploadId,
      objectKey: objectKeyOf(slot.scope, slot.id, slot.extension, slot.key, uploadId),
      uploaded: false,
      createdAt: isoSeconds(now()),
      createdBy: principal.user.id,
    };
  };

  const presign = (stored: FileRecord): Promise<PresignedUpload> => {
    const low = Math.max(0, Math.floor((stored.sizeKb - SIZE_TOLERANCE_KB) * 1024));
    const high = Math.min(FILE_MAX_KB * 1024, Math.ceil((stored.sizeKb + SIZE_TOLERANCE_KB) * 1024));
    return objects.presignUpload(stored.objectKey, low, high, stored.md5, UPLOAD_URL_SECONDS);
  };

  /** Deletes objects now and, once their upload URLs have expired, again through the worker. */
  async function release(objectKeys: string[]): Promise<void> {
    if (!objectKeys.length) return;
    await objects.removeLater(objectKeys);
    await objects
      .remove(objectKeys)
      .catch((error) => log.error('storage objects not deleted; the worker retries', { objectKeys, error }));
  }

  async function replace(
    principal: Principal,
    slot: FileSlot,
    input: FileDeclaration,
    create: boolean,
  ): Promise<PresignedUpload> {
    let stored: FileRecord | undefined;
    const replaced = await files.replace(slot, (current) => {
      if (!current && !create)
        throw new Conflict(`the key ${input.key} does not exist (send create=true to create it)`, {
          code: STORAGE_CODES.KEY_STATE,
        });
      stored = record(slot, input, principal);
      return stored;
    });
    if (replaced) await release([replaced.objectKey]);
    return presign(stored!);
  }

  /** Whether the current upload of a record has arrived; records it (and its real size) once it has. */
  async function uploaded(stored: FileRecord): Promise<FileRecord> {
    if (stored.uploaded) return stored;
    const bytes = await objects.size(stored.objectKey);
    if (bytes === undefined) return stored;
    return files.markUploaded(stored, Math.round((bytes / 1024) * 1000) / 1000, isoSeconds(now()));
  }

  async function wireFile(stored: FileRecord, withUrl: boolean): Promise<StoredFile> {
    const current = await uploaded(stored);
    return {
      file_name: current.fileName,
      file_size_kb: current.sizeKb,
      created_at: current.createdAt,
      uploaded: current.uploaded,
      ...(withUrl
        ? {
            url: current.uploaded
              ? await objects.downloadUrl(current.objectKey, current.fileName, DOWNLOAD_URL_SECONDS)
              : null,
          }
        : {}),
    };
  }

  return {
    /** PUT: a new key (code 5 when it exists, unless overwrite), or a new file for it. */
    async putFile(
      caller: StorageCaller,
      scope: Scope,
      input: FileDeclaration & { overwrite: boolean },
    ): Promise<PresignedUpload> {
      const { principal, extension } = caller;
      checkDeclaration(input);
      const slot = {
        scope,
        extension,
        key: input.key,
        ...(await resources.authorise(principal, scope, input.ref, 'write')),
      };
      if (input.overwrite) return replace(principal, slot, input, true);
      const stored = record(slot, input, principal);
      if (!(await files.create(stored)))
        throw new Conflict(`the key ${input.key} already exists (send overwrite=true to replace its file)`, {
          code: STORAGE_CODES.KEY_STATE,
        });
      return presign(stored);
    },

    /** PATCH: a new file for an existing key (code 5 when absent, unless create). */
    async patchFile(
      caller: StorageCaller,
      scope: Scope,
      input: FileDeclaration & { create: boolean },
    ): Promise<PresignedUpload> {
      const { principal, extension } = caller;
      checkDeclaration(input);
      const slot = {
        scope,
        extension,
        key: input.key,
        ...(await resources.authorise(principal, scope, input.ref, 'write')),
      };
      return replace(principal, slot, input, input.create);
    },

    /**
     * GET: objects[<id>][<key>] (users scope without ids: objects[<key>]). An empty `keys` lists every
     * key; ids as in key-value GET (code 5 unknown, 3 not readable).
     */
    async listFiles(
      caller: StorageCaller,
      scope: Scope,
      input: { keys: readonly string[]; ids?: readonly unknown[]; getUrl: boolean },
    ): Promise<Record<string, StoredFile | Record<string, StoredFile>>> {
      const { principal, extension } = caller;
      const flat = scope === 'users' && input.ids === undefined;
      const explicit = Boolean(input.ids?.length);
      const wanted = [...new Set(input.keys)];
      /** The records of these resources: every key of the extension, or the keys wanted. */
      const ofResources = async (ids: readonly number[]) =>
        wanted.length === 0
          ? (await mapLimit([...ids], 8, (id) => files.list(scope, id, extension))).flat()
          : await files.read(ids.flatMap((id) => wanted.map((key) => ({ scope, id, extension, key }))));
      // every field the caller reads: a query of the index of each farm it reads whole, not one per field
      const everyField = scope === 'fields' && !explicit && (await files.byFarm());
      const listed = everyField ? undefined : await resources.readable(principal, scope, input.ids);
      const records = listed
        ? await ofResources([...new Set(listed.map((r) => r.id))])
        : await entriesOfEveryField(await resources.fieldsByFarm(principal), {
            ofFarm: (farmId) => files.listOfFarm(farmId, extension, wanted),
            ofFields: ofResources,
          });
      const wired = await mapLimit(records, 8, async (stored) => ({
        id: stored.id,
        key: stored.key,
        file: await wireFile(stored, input.getUrl),
      }));
      const byId = new Map<number, Record<string, StoredFile>>();
      for (const { id, key, file } of wired) byId.set(id, { ...byId.get(id), [key]: file });
      if (flat) return byId.get(principal.user.id) ?? {};
      const found: Record<string, Record<string, StoredFile>> = {};
      for (const { label, id } of listed ?? [...byId.keys()].map((id) => ({ label: String(id), id }))) {
        const entry = byId.get(id);
        if (entry || explicit) found[label] = entry ?? {};
      }
      return found;
    },

    /** DELETE: removes the keys (absent ones are ignored) and their files; answers the keys removed. */
    async deleteFiles(
      caller: StorageCaller,
      scope: Scope,
      input: { ref: unknown; keys: readonly string[] },
    ): Promise<string[]> {
      const { principal, extension } = caller;
      const { id } = await resources.authorise(principal, scope, input.ref, 'delete');
      const removed = (
        await mapLimit([...new Set(input.keys)], 8, (key) => files.take({ scope, id, extension, key }))
      ).filter((r): r is FileRecord => Boolean(r));
      await release(removed.map((r) => r.objectKey));
      return removed.map((r) => r.key);
    },
  };
}
