// Key-value storage (spec 3): JSON objects under a key, per extension, in the partition of the
// user, field or farm they belong to (docs/data-model.md). The object is kept as JSON text, so any
// JSON (deeply nested too) comes back exactly as sent.
//
// The service is built from its repositories (services take them as parameters): its rules run
// against DynamoDB in the functions (lib/storage/repository.ts) and against memory in
// tests/unit/key-value.test.ts.
import type { Principal } from '../auth/principal';
import { Conflict, DomainError } from '../errors';
import { jsonPieces } from '../util/json-pieces';
import { mapLimit } from '../util/map-limit';
import type { FieldsByFarm, Resource, Scope, StorageCaller } from './access';
import { STORAGE_CODES } from './codes';
import { entriesOfEveryField } from './every-field';

export type JsonObject = Record<string, unknown>;

/** Largest stored object, as JSON text (a DynamoDB item holds 400 KB). */
export const VALUE_MAX_BYTES = 350 * 1024;
/**
 * Largest GET answer. It is streamed (the listing of every key grows with the account: docs/deploy.md,
 * "Large answers"), so Lambda's 6 MB does not bound it; Lambda streams at most 200 MB, and the
 * objects are held whole while they are written (their text is not: lib/util/json-pieces.ts).
 */
export const ANSWER_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Whether `value` as JSON takes more than `max` bytes, counted as it is serialised piece by piece
 * (the text is never held whole: a listing near its bound is not written twice in memory).
 */
function jsonBytesOver(value: unknown, max: number): boolean {
  let bytes = 0;
  for (const piece of jsonPieces(value)) if ((bytes += Buffer.byteLength(piece)) > max) return true;
  return false;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How PATCH with append=true combines the stored value with the new one: objects merge member by
 * member (recursively), arrays concatenate (stored items first), anything else is replaced by the
 * new value (null included).
 */
export function combine(stored: unknown, incoming: unknown): unknown {
  if (Array.isArray(stored) && Array.isArray(incoming)) return [...stored, ...incoming];
  if (isObject(stored) && isObject(incoming)) {
    const merged: JsonObject = { ...stored };
    for (const [member, value] of Object.entries(incoming)) {
      merged[member] = Object.hasOwn(stored, member) ? combine(stored[member], value) : value;
    }
    return merged;
  }
  return incoming;
}

function serialise(data: unknown): string {
  const text = JSON.stringify(data);
  if (Buffer.byteLength(text) > VALUE_MAX_BYTES) {
    throw new DomainError('invalid', `the object is larger than ${VALUE_MAX_BYTES / 1024} KB as JSON`, {
      code: STORAGE_CODES.ERROR,
    });
  }
  return text;
}

/** One stored value: where it is (a resource of a scope, an extension, a key) and what it holds. */
export interface ValueSlot {
  scope: Scope;
  id: number;
  extension: string;
  key: string;
  /** A field's farm, when known (a write's): its farm's index then lists the value (`listOfFarm`). */
  farmId?: number;
}

export interface StoredValue {
  /** The object as JSON text (kept as text: any JSON, deeply nested too, comes back exactly as sent). */
  json: string;
  createdAt: string;
  updatedAt: string;
  updatedBy: number;
}

/** Where values are kept. */
export interface ValueRepository {
  /** Stores a value unless one is there; false when one was. */
  create(slot: ValueSlot, value: StoredValue): Promise<boolean>;
  /** Replaces a value by `change(current)` atomically (re-applied if another write came first). */
  update(slot: ValueSlot, change: (current: StoredValue | undefined) => StoredValue): Promise<void>;
  /** The values of these slots that exist. */
  read(slots: ValueSlot[]): Promise<Map<ValueSlot, StoredValue>>;
  /** Every value of an extension in one resource, by key. */
  list(scope: Scope, id: number, extension: string): Promise<Map<string, StoredValue>>;
  /**
   * An extension's values in the fields of a farm (of these keys; every key when none), from the
   * farm's index: each with its field, which the caller may not read (the service keeps those it reads).
   */
  listOfFarm(
    farmId: number,
    extension: string,
    keys: readonly string[],
  ): Promise<Array<{ fieldId: number; key: string; value: StoredValue }>>;
  /** Whether every field's value is in its farm's index (`listOfFarm`; docs/data-model.md, "Backfills"). */
  byFarm(): Promise<boolean>;
  remove(slots: ValueSlot[]): Promise<void>;
}

/** Which resources a caller reaches (lib/storage/access.ts in the functions). */
export interface ResourceGate {
  /** The resource a reference names, when the caller may `action` it; else the storage refusal (code 3). */
  authorise(principal: Principal, scope: Scope, ref: unknown, action: 'read' | 'write' | 'delete'): Promise<Resource>;
  /** Every field the caller reads, by farm (the fields scope without ids). */
  fieldsByFarm(principal: Principal): Promise<FieldsByFarm>;
  /** The readable resources among `refs` (every readable one when absent), each with the label it was asked by. */
  readable(
    principal: Principal,
    scope: Scope,
    refs: readonly unknown[] | undefined,
  ): Promise<Array<{ label: string; id: number }>>;
}

const keyExists = (key: string) =>
  new Conflict(`the key ${key} already exists (send overwrite=true to replace it)`, { code: STORAGE_CODES.KEY_STATE });
const keyAbsent = (key: string) =>
  new Conflict(`the key ${key} does not exist (send create=true to create it)`, { code: STORAGE_CODES.KEY_STATE });

export function keyValueService({
  values,
  resources,
  answerMaxBytes = ANSWER_MAX_BYTES,
}: {
  values: ValueRepository;
  resources: ResourceGate;
  /** The largest GET answer (ANSWER_MAX_BYTES; smaller in tests). */
  answerMaxBytes?: number;
}) {
  const stored = (json: string, principal: Principal, createdAt?: string): StoredValue => {
    const now = new Date().toISOString();
    return { json, createdAt: createdAt ?? now, updatedAt: now, updatedBy: principal.user.id };
  };

  return {
    async putValue(
      caller: StorageCaller,
      scope: Scope,
      input: { id: unknown; key: string; data: JsonObject; overwrite: boolean },
    ): Promise<void> {
      const { principal, extension } = caller;
      const json = serialise(input.data);
      const slot = {
        scope,
        extension,
        key: input.key,
        ...(await resources.authorise(principal, scope, input.id, 'write')),
      };
      if (!input.overwrite) {
        if (!(await values.create(slot, stored(json, principal)))) throw keyExists(input.key);
        return;
      }
      // Versioned, so that a PATCH in flight never writes over this value with one built on the old.
      await values.update(slot, () => stored(json, principal));
    },

    async patchValue(
      caller: StorageCaller,
      scope: Scope,
      input: { id: unknown; key: string; data: JsonObject; append: boolean; create: boolean },
    ): Promise<void> {
      const { principal, extension } = caller;
      serialise(input.data);
      const slot = {
        scope,
        extension,
        key: input.key,
        ...(await resources.authorise(principal, scope, input.id, 'write')),
      };
      await values.update(slot, (current) => {
        if (!current && !input.create) throw keyAbsent(input.key);
        const next = current && input.append ? combine(JSON.parse(current.json), input.data) : input.data;
        return stored(serialise(next), principal, current?.createdAt);
      });
    },

    /** objects[<id>][<key>] = stored object. An empty `keys` reads every key of the extension. */
    async getValues(
      caller: StorageCaller,
      scope: Scope,
      input: { ids?: readonly unknown[]; keys: readonly string[] },
    ): Promise<Record<string, Record<string, JsonObject>>> {
      const { principal, extension } = caller;
      const explicit = Boolean(input.ids?.length);
      const wanted = [...new Set(input.keys)];
      /** The values of these resources: every key of the extension, or the keys wanted. */
      const ofResources = async (ids: readonly number[]) => {
        if (wanted.length === 0) {
          const listed = await mapLimit([...ids], 8, async (id) =>
            [...(await values.list(scope, id, extension))].map(([key, value]) => ({ id, key, value })),
          );
          return listed.flat();
        }
        const slots = ids.flatMap((id) => wanted.map((key) => ({ scope, id, extension, key })));
        return [...(await values.read(slots))].map(([slot, value]) => ({ id: slot.id, key: slot.key, value }));
      };
      // every field the caller reads: a query of the index of each farm it reads whole, not one per field
      const everyField = scope === 'fields' && !explicit && (await values.byFarm());
      const readable = everyField ? undefined : await resources.readable(principal, scope, input.ids);
      const entries = readable
        ? await ofResources([...new Set(readable.map((r) => r.id))])
        : await entriesOfEveryField(await resources.fieldsByFarm(principal), {
            ofFarm: async (farmId) =>
              (await values.listOfFarm(farmId, extension, wanted)).map(({ fieldId, key, value }) => ({
                id: fieldId,
                key,
                value,
              })),
            ofFields: ofResources,
          });
      // into the id's object as found (a copy per key was quadratic in the keys of a listing)
      const found = new Map<number, Record<string, JsonObject>>();
      for (const { id, key, value } of entries) {
        let entry = found.get(id);
        if (!entry) found.set(id, (entry = {}));
        entry[key] = JSON.parse(value.json) as JsonObject;
      }
      const objects: Record<string, Record<string, JsonObject>> = {};
      for (const { label, id } of readable ?? [...found.keys()].map((id) => ({ label: String(id), id }))) {
        const entry = found.get(id);
        if (entry || explicit) objects[label] = entry ?? {};
      }
      if (jsonBytesOver(objects, answerMaxBytes)) {
        throw new DomainError(
          'invalid',
          `the answer would exceed ${answerMaxBytes / 1024 / 1024} MB: ask for fewer ids or keys`,
          { code: STORAGE_CODES.ERROR },
        );
      }
      return objects;
    },

    async deleteValues(
      caller: StorageCaller,
      scope: Scope,
      input: { id: unknown; keys: readonly string[] },
    ): Promise<void> {
      const { principal, extension } = caller;
      const { id } = await resources.authorise(principal, scope, input.id, 'delete');
      await values.remove([...new Set(input.keys)].map((key) => ({ scope, id, extension, key })));
    },
  };
}
