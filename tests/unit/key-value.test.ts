// lib/storage/kv.ts against memory: the key-value rules without DynamoDB (its repositories are
// parameters; tests/storage.test.ts runs the same rules through the API).
import { describe, expect, it } from 'vitest';
import { DomainError, Forbidden } from '../../lib/errors';
import { STORAGE_CODES } from '../../lib/storage/codes';
import {
  ANSWER_MAX_BYTES,
  keyValueService,
  type StoredValue,
  VALUE_MAX_BYTES,
  type ValueRepository,
  type ValueSlot,
} from '../../lib/storage/kv';
import { caller, FARM, resources } from './helpers/storage-gate';

const slotName = (s: ValueSlot) => `${s.scope}/${s.id}/${s.extension}/${s.key}`;

/** `byFarm`: whether the fields' values are listed by their farms' index (its backfill done). */
function memory({ byFarm = true } = {}) {
  const stored = new Map<string, StoredValue>();
  const slots = new Map<string, ValueSlot>();
  const values: ValueRepository = {
    create: async (slot, value) => {
      if (stored.has(slotName(slot))) return false;
      stored.set(slotName(slot), value);
      slots.set(slotName(slot), slot);
      return true;
    },
    update: async (slot, change) => {
      stored.set(slotName(slot), change(stored.get(slotName(slot))));
      slots.set(slotName(slot), slot);
    },
    listOfFarm: async (farmId, extension, keys) =>
      [...slots.values()]
        .filter((s) => s.farmId === farmId && s.extension === extension && (!keys.length || keys.includes(s.key)))
        .sort((a, b) => a.key.localeCompare(b.key) || a.id - b.id)
        .map((s) => ({ fieldId: s.id, key: s.key, value: stored.get(slotName(s))! })),
    byFarm: async () => byFarm,
    read: async (slots) =>
      new Map(slots.filter((s) => stored.has(slotName(s))).map((s) => [s, stored.get(slotName(s))!])),
    list: async (scope, id, extension) =>
      new Map(
        [...stored.entries()]
          .filter(([name]) => name.startsWith(`${scope}/${id}/${extension}/`))
          .map(([name, value]) => [name.split('/').slice(3).join('/'), value] as const)
          // by key, as the resource's partition holds them
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
    remove: async (removed) => {
      for (const slot of removed) {
        stored.delete(slotName(slot));
        slots.delete(slotName(slot));
      }
    },
  };
  return { values, stored };
}

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof DomainError ? error.code : 'thrown';
  }
};

describe('key-value storage rules', () => {
  it('PUT without overwrite refuses an existing key (5); with overwrite replaces it', async () => {
    const { values, stored } = memory();
    const kv = keyValueService({ values, resources });
    await kv.putValue(caller(), 'fields', { id: 1, key: 'k', data: { a: 1 }, overwrite: false });
    expect(await codeOf(kv.putValue(caller(), 'fields', { id: 1, key: 'k', data: { a: 2 }, overwrite: false }))).toBe(
      STORAGE_CODES.KEY_STATE,
    );
    await kv.putValue(caller(), 'fields', { id: 1, key: 'k', data: { a: 3 }, overwrite: true });
    expect(JSON.parse(stored.get('fields/1/ext-a/k')!.json)).toEqual({ a: 3 });
  });

  it('PATCH: absent key is 5 without create; append merges objects and concatenates arrays; created_at is kept', async () => {
    const { values, stored } = memory();
    const kv = keyValueService({ values, resources });
    expect(
      await codeOf(
        kv.patchValue(caller(), 'fields', { id: 1, key: 'k', data: { a: 1 }, append: false, create: false }),
      ),
    ).toBe(STORAGE_CODES.KEY_STATE);
    expect(stored.size).toBe(0);
    await kv.patchValue(caller(), 'fields', {
      id: 1,
      key: 'k',
      data: { a: { x: 1 }, list: [1] },
      append: false,
      create: true,
    });
    const createdAt = stored.get('fields/1/ext-a/k')!.createdAt;
    await kv.patchValue(caller(), 'fields', {
      id: 1,
      key: 'k',
      data: { a: { y: 2 }, list: [2], n: null },
      append: true,
      create: false,
    });
    expect(JSON.parse(stored.get('fields/1/ext-a/k')!.json)).toEqual({ a: { x: 1, y: 2 }, list: [1, 2], n: null });
    expect(stored.get('fields/1/ext-a/k')!.createdAt).toBe(createdAt);
    await kv.patchValue(caller(), 'fields', { id: 1, key: 'k', data: { b: 1 }, append: false, create: false });
    expect(JSON.parse(stored.get('fields/1/ext-a/k')!.json)).toEqual({ b: 1 });
  });

  it('refuses objects over the size bound before writing anything', async () => {
    const { values, stored } = memory();
    const kv = keyValueService({ values, resources });
    const big = { text: 'x'.repeat(VALUE_MAX_BYTES) };
    expect(await codeOf(kv.putValue(caller(), 'fields', { id: 1, key: 'k', data: big, overwrite: true }))).toBe(
      STORAGE_CODES.ERROR,
    );
    expect(stored.size).toBe(0);
  });

  it('GET: explicit ids are always present ({} without keys); without ids only resources holding a key; empty keys read every key', async () => {
    const { values } = memory();
    const kv = keyValueService({ values, resources });
    await kv.putValue(caller(), 'fields', { id: 1, key: 'a', data: { v: 1 }, overwrite: false });
    await kv.putValue(caller(), 'fields', { id: 1, key: 'b', data: { v: 2 }, overwrite: false });
    await kv.putValue(caller('ext-b'), 'fields', { id: 1, key: 'a', data: { other: true }, overwrite: false });
    expect(await kv.getValues(caller(), 'fields', { ids: [1, 2], keys: ['a'] })).toEqual({ 1: { a: { v: 1 } }, 2: {} });
    expect(await kv.getValues(caller(), 'fields', { keys: ['a'] })).toEqual({ 1: { a: { v: 1 } } });
    expect(await kv.getValues(caller(), 'fields', { keys: [] })).toEqual({ 1: { a: { v: 1 }, b: { v: 2 } } });
    // another extension's values are another extension's
    expect(await kv.getValues(caller('ext-b'), 'fields', { keys: [] })).toEqual({ 1: { a: { other: true } } });
    expect(await kv.getValues(caller('ext-c'), 'fields', { ids: ['1'], keys: ['a'] })).toEqual({ 1: {} });
  });

  it("GET of every field (no ids) reads the farms' index once it is filled, and answers exactly what the per-field reads answer", async () => {
    const stored: StoredValue = { json: '{"v":1}', createdAt: 't', updatedAt: 't', updatedBy: 7 };
    const answers = [];
    for (const byFarm of [false, true]) {
      const { values } = memory({ byFarm });
      // fields 1 and 2 readable, 3 in the same farm not (tests/unit/helpers/storage-gate.ts)
      for (const [id, key, extension] of [
        [1, 'b', 'ext-a'],
        [1, 'a', 'ext-a'],
        [2, 'a', 'ext-a'],
        [3, 'a', 'ext-a'],
        [2, 'a', 'ext-b'],
      ] as const)
        await values.create({ scope: 'fields', id, key, extension, farmId: FARM }, stored);
      let listed = 0;
      const counted = {
        ...values,
        list: (...args: Parameters<ValueRepository['list']>) => {
          listed++;
          return values.list(...args);
        },
      };
      const kv = keyValueService({ values: counted, resources });
      answers.push({
        every: await kv.getValues(caller(), 'fields', { keys: [] }),
        some: await kv.getValues(caller(), 'fields', { keys: ['a', 'zz'] }),
        listed,
      });
    }
    const [perField, byFarm] = answers;
    expect(byFarm!.every).toEqual({ 1: { a: { v: 1 }, b: { v: 1 } }, 2: { a: { v: 1 } } });
    expect(byFarm!.some).toEqual({ 1: { a: { v: 1 } }, 2: { a: { v: 1 } } });
    expect(JSON.stringify(byFarm!.every)).toBe(JSON.stringify(perField!.every));
    expect(JSON.stringify(byFarm!.some)).toBe(JSON.stringify(perField!.some));
    // the per-field path lists each readable field; the index path none
    expect([perField!.listed, byFarm!.listed]).toEqual([2, 0]);
  });

  it('GET refuses an answer over its bound, which is far past a buffered answer (it is streamed)', async () => {
    // Lambda's buffered 6 MB does not bound a streamed answer; its 200 MB does
    expect(ANSWER_MAX_BYTES).toBeGreaterThan(6 * 1024 * 1024);
    expect(ANSWER_MAX_BYTES).toBeLessThan(200 * 1024 * 1024);
    const { values } = memory();
    const answerMaxBytes = 2 * 1024 * 1024;
    const kv = keyValueService({ values, resources, answerMaxBytes });
    const chunk = { text: 'x'.repeat(300 * 1024) };
    const count = Math.ceil(answerMaxBytes / (300 * 1024)) + 1;
    for (let i = 0; i < count; i++)
      await kv.putValue(caller(), 'fields', { id: 1, key: `k${i}`, data: chunk, overwrite: false });
    expect(await codeOf(kv.getValues(caller(), 'fields', { keys: [] }))).toBe(STORAGE_CODES.ERROR);
  });

  it('writes and deletes only where the gate allows it; a refusal changes nothing', async () => {
    const { values, stored } = memory();
    const kv = keyValueService({ values, resources });
    await expect(
      kv.putValue(caller(), 'fields', { id: 2, key: 'k', data: {}, overwrite: false }),
    ).rejects.toBeInstanceOf(Forbidden);
    await kv.putValue(caller(), 'fields', { id: 1, key: 'k', data: {}, overwrite: false });
    await expect(kv.deleteValues(caller(), 'fields', { id: 2, keys: ['k'] })).rejects.toBeInstanceOf(Forbidden);
    expect(stored.size).toBe(1);
    await kv.deleteValues(caller(), 'fields', { id: 1, keys: ['k', 'k', 'absent'] });
    expect(stored.size).toBe(0);
  });
});
