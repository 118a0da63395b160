// Key-value storage (spec 3): JSON objects under a key, per extension, in the partition of the
// user, field or farm they belong to (docs/data-model.md). The object is kept as JSON text, so any
// JSON (deeply nested too) comes back exactly as sent.
import type { Principal } from '../auth/principal';
import { keys as keyOf } from '../db/keys';
import { batchDelete, batchGet, itemKey, putItem, putVersioned, queryAll, NOT_EXISTS, type Item } from '../db/table';
import { Conflict, DomainError } from '../errors';
import { mapLimit } from '../util/map-limit';
import { authorisedResource, readableResources, resourcePk, type Scope } from './access';
import type { StorageCaller } from './access';
import { STORAGE_CODES } from './codes';

export type JsonObject = Record<string, unknown>;

/** Largest stored object, as JSON text (a DynamoDB item holds 400 KB). */
export const VALUE_MAX_BYTES = 350 * 1024;
/** Largest GET answer (API Gateway and Lambda answer at most 6 MB). */
export const ANSWER_MAX_BYTES = 5 * 1024 * 1024;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

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
      merged[member] = Object.prototype.hasOwnProperty.call(stored, member) ? combine(stored[member], value) : value;
    }
    return merged;
  }
  return incoming;
}

function serialise(data: unknown): string {
  const text = JSON.stringify(data);
  if (Buffer.byteLength(text) > VALUE_MAX_BYTES) {
    throw new DomainError('invalid', `the object is larger than ${VALUE_MAX_BYTES / 1024} KB as JSON`, { code: STORAGE_CODES.ERROR });
  }
  return text;
}

interface Target {
  scope: Scope;
  id: number;
  extension: string;
  key: string;
}

const valueKey = (t: Target) => keyOf.storageValue(resourcePk(t.scope, t.id), t.extension, t.key);

function valueItem(t: Target, json: string, principal: Principal, createdAt?: string): Item {
  const now = new Date().toISOString();
  return {
    kind: 'storage_value',
    scope: t.scope,
    resource_id: t.id,
    extension_id: t.extension,
    key: t.key,
    data_json: json,
    created_at: createdAt ?? now,
    updated_at: now,
    updated_by: principal.user.id,
  };
}

const keyExists = (key: string) => new Conflict(`the key ${key} already exists (send overwrite=true to replace it)`, { code: STORAGE_CODES.KEY_STATE });

export async function putValue(caller: StorageCaller, scope: Scope, input: { id: unknown; key: string; data: JsonObject; overwrite: boolean }): Promise<void> {
  const { principal, extension } = caller;
  const json = serialise(input.data);
  const target = { scope, extension, key: input.key, id: await authorisedResource(principal, scope, input.id, 'write') };
  if (!input.overwrite) {
    await putItem({ ...valueKey(target), ...valueItem(target, json, principal), version: 1 }, { expression: NOT_EXISTS, failure: () => keyExists(input.key) });
    return;
  }
  // Versioned, so that a PATCH in flight never writes over this value with one built on the old.
  await putVersioned(valueKey(target), () => valueItem(target, json, principal));
}

export async function patchValue(
  caller: StorageCaller,
  scope: Scope,
  input: { id: unknown; key: string; data: JsonObject; append: boolean; create: boolean },
): Promise<void> {
  const { principal, extension } = caller;
  serialise(input.data);
  const target = { scope, extension, key: input.key, id: await authorisedResource(principal, scope, input.id, 'write') };
  await putVersioned(valueKey(target), (current) => {
    if (!current && !input.create) {
      throw new Conflict(`the key ${input.key} does not exist (send create=true to create it)`, { code: STORAGE_CODES.KEY_STATE });
    }
    const next = current && input.append ? combine(JSON.parse(String(current.data_json)), input.data) : input.data;
    return valueItem(target, serialise(next), principal, current?.created_at as string | undefined);
  });
}

/** objects[<id>][<key>] = stored object. An empty `keys` reads every key of the extension. */
export async function getValues(caller: StorageCaller, scope: Scope, input: { ids?: readonly unknown[]; keys: readonly string[] }): Promise<Record<string, Record<string, JsonObject>>> {
  const { principal, extension } = caller;
  const explicit = Boolean(input.ids?.length);
  const resources = await readableResources(principal, scope, input.ids);
  const wanted = [...new Set(input.keys)];
  const found = new Map<number, Record<string, JsonObject>>();
  const add = (id: number, item: Item) => {
    const entry = found.get(id) ?? {};
    entry[String(item.key)] = JSON.parse(String(item.data_json)) as JsonObject;
    found.set(id, entry);
  };
  const ids = [...new Set(resources.map((r) => r.id))];
  if (wanted.length === 0) {
    await mapLimit(ids, 8, async (id) => {
      const prefix = keyOf.storageValue(resourcePk(scope, id), extension, '');
      for (const item of await queryAll({ pk: prefix.pk, skPrefix: prefix.sk })) add(id, item);
    });
  } else {
    const itemKeys = ids.flatMap((id) => wanted.map((key) => ({ id, key: keyOf.storageValue(resourcePk(scope, id), extension, key) })));
    const items = await batchGet(itemKeys.map((entry) => entry.key));
    for (const entry of itemKeys) {
      const item = items.get(itemKey(entry.key));
      if (item) add(entry.id, item);
    }
  }
  const objects: Record<string, Record<string, JsonObject>> = {};
  for (const { label, id } of resources) {
    const entry = found.get(id);
    if (entry || explicit) objects[label] = entry ?? {};
  }
  if (Buffer.byteLength(JSON.stringify(objects)) > ANSWER_MAX_BYTES) {
    throw new DomainError('invalid', `the answer would exceed ${ANSWER_MAX_BYTES / 1024 / 1024} MB: ask for fewer ids or keys`, { code: STORAGE_CODES.ERROR });
  }
  return objects;
}

export async function deleteValues(caller: StorageCaller, scope: Scope, input: { id: unknown; keys: readonly string[] }): Promise<void> {
  const { principal, extension } = caller;
  const id = await authorisedResource(principal, scope, input.id, 'delete');
  await batchDelete([...new Set(input.keys)].map((key) => keyOf.storageValue(resourcePk(scope, id), extension, key)));
}
