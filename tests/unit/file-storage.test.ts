// lib/storage/files.ts against memory: the file-storage rules without DynamoDB or S3 (its records,
// object store and resource gate are parameters; tests/file-storage.test.ts runs them through the
// API with real presigned uploads to the local S3).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors';
import { STORAGE_CODES } from '../../lib/storage/codes';
import {
  type FileRecord,
  type FileRepository,
  type FileSlot,
  fileStorageService,
  type ObjectStore,
} from '../../lib/storage/files';
import { caller, resources } from './helpers/storage-gate';

const slotName = (s: FileSlot) => `${s.scope}/${s.id}/${s.extension}/${s.key}`;
const MD5 = 'XUFAKrxLKna5cZ2REBfFkg==';

/** `byFarm`: whether the fields' records are listed by their farms' index (its backfill done). */
function memory({ byFarm = true } = {}) {
  const records = new Map<string, FileRecord>();
  const objects = new Map<string, number>();
  const removed: string[] = [];
  const later: string[] = [];
  const files: FileRepository = {
    async create(r) {
      if (records.has(slotName(r))) return false;
      records.set(slotName(r), r);
      return true;
    },
    async replace(slot, change) {
      const current = records.get(slotName(slot));
      records.set(slotName(slot), change(current));
      return current;
    },
    read: async (slots) => slots.flatMap((s) => (records.has(slotName(s)) ? [records.get(slotName(s))!] : [])),
    list: async (scope, id, extension) =>
      [...records.values()].filter((r) => r.scope === scope && r.id === id && r.extension === extension),
    listOfFarm: async (farmId, extension, keys) =>
      [...records.values()]
        .filter((r) => r.farmId === farmId && r.extension === extension && (!keys.length || keys.includes(r.key)))
        .sort((a, b) => a.key.localeCompare(b.key) || a.id - b.id),
    byFarm: async () => byFarm,
    async markUploaded(r, sizeKb) {
      const current = records.get(slotName(r));
      if (current?.uploadId !== r.uploadId) return { ...r, uploaded: true, sizeKb };
      const next = { ...current, uploaded: true, sizeKb };
      records.set(slotName(r), next);
      return next;
    },
    async take(slot) {
      const current = records.get(slotName(slot));
      records.delete(slotName(slot));
      return current;
    },
  };
  const store: ObjectStore = {
    presignUpload: async (objectKey, minBytes, maxBytes, md5) => ({
      url: `memory://${objectKey}`,
      fields: { key: objectKey, min: String(minBytes), max: String(maxBytes), md5 },
    }),
    size: async (objectKey) => objects.get(objectKey),
    downloadUrl: async (objectKey, fileName) => `memory://${objectKey}?name=${fileName}`,
    remove: async (keys) => void removed.push(...keys),
    removeLater: async (keys) => void later.push(...keys),
  };
  return {
    records,
    objects,
    removed,
    later,
    service: fileStorageService({ files, objects: store, resources, now: () => new Date('2026-11-23T10:00:00Z') }),
  };
}

const declared = (key: string, sizeKb = 2) => ({ ref: 1, key, fileName: ' report.pdf ', md5: MD5, sizeKb });
const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => 'ok',
    (error) => (error instanceof DomainError ? error.code : error),
  );

describe('file storage rules (repositories in memory)', () => {
  it('PUT gives a presigned upload bound to the declared size and MD5; an existing key needs overwrite (5)', async () => {
    const { service, records } = memory();
    const upload = await service.putFile(caller(), 'fields', { ...declared('a'), overwrite: false });
    expect(upload.fields).toMatchObject({ min: String(1536), max: String(2560), md5: MD5 });
    expect(records.get('fields/1/ext-a/a')).toMatchObject({
      fileName: 'report.pdf',
      uploaded: false,
      createdAt: '2026-11-23T10:00:00Z',
      createdBy: 7,
    });
    expect(await codeOf(service.putFile(caller(), 'fields', { ...declared('a'), overwrite: false }))).toBe(
      STORAGE_CODES.KEY_STATE,
    );
    expect(await codeOf(service.patchFile(caller(), 'fields', { ...declared('new'), create: false }))).toBe(
      STORAGE_CODES.KEY_STATE,
    );
    expect(
      await codeOf(service.putFile(caller(), 'fields', { ...declared('b'), md5: 'not-md5', overwrite: false })),
    ).toBe(-4);
    expect(await codeOf(service.putFile(caller(), 'fields', { ...declared('b'), ref: 2, overwrite: false }))).toBe(
      STORAGE_CODES.NO_PERMISSION,
    );
  });

  it('a new file for a key gets a new object; the replaced one is released now and again after its URL expired', async () => {
    const { service, records, removed, later } = memory();
    await service.putFile(caller(), 'fields', { ...declared('a'), overwrite: false });
    const first = records.get('fields/1/ext-a/a')!.objectKey;
    await service.putFile(caller(), 'fields', { ...declared('a'), overwrite: true });
    const second = records.get('fields/1/ext-a/a')!.objectKey;
    expect(second).not.toBe(first);
    expect([removed, later]).toEqual([[first], [first]]);
  });

  it('lists files with their real size once uploaded, a download URL only for uploaded ones, and another extension sees none', async () => {
    const { service, records, objects } = memory();
    await service.putFile(caller(), 'fields', { ...declared('a'), overwrite: false });
    await service.putFile(caller(), 'fields', { ...declared('b'), overwrite: false });
    objects.set(records.get('fields/1/ext-a/a')!.objectKey, 2100);
    const listed = (await service.listFiles(caller(), 'fields', { keys: [], ids: [1], getUrl: true })) as Record<
      string,
      Record<string, { uploaded: boolean; file_size_kb: number; url: string | null }>
    >;
    expect(listed['1']!.a).toMatchObject({ uploaded: true, file_size_kb: 2.051 });
    expect(listed['1']!.a!.url).toContain('name=report.pdf');
    expect(listed['1']!.b).toMatchObject({ uploaded: false, url: null });
    expect(await service.listFiles(caller('ext-b'), 'fields', { keys: ['a'], ids: [1], getUrl: false })).toEqual({
      '1': {},
    });
  });

  it('DELETE answers the keys it removed and releases their objects', async () => {
    const { service, records, removed } = memory();
    await service.putFile(caller(), 'fields', { ...declared('a'), overwrite: false });
    const object = records.get('fields/1/ext-a/a')!.objectKey;
    expect(await service.deleteFiles(caller(), 'fields', { ref: 1, keys: ['a', 'missing', 'a'] })).toEqual(['a']);
    expect(removed).toEqual([object]);
    expect(await codeOf(service.deleteFiles(caller(), 'fields', { ref: 2, keys: ['a'] }))).toBe(
      STORAGE_CODES.NO_PERMISSION,
    );
  });
});
