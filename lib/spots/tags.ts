// Spot tags (spec 1): common tags (in code, translatable) and user tags (stored). A tag uuid is
// never reused: POSTing a uuid that exists, even for a deleted tag, is ignored. A user tag counts
// the spots that carry it and cannot be deleted while that count is above zero (code 51).
import { v1 as uuidV1 } from 'uuid';
import { keys, normalizeName } from '../db/keys';
import { batchGet, getItem, itemKey, NOT_EXISTS, queryAll, transact, tx, type Item, type TxOp } from '../db/table';
import { Conflict, Forbidden, Invalid, NotFound } from '../errors';
import type { Principal } from '../auth/principal';
import { COMMON_TAGS, commonTag } from './catalogue';
import { checkUuidV1, SPOT_CODES } from './model';

export interface SpotTag {
  uuid: string;
  tag: string;
  translatable: boolean;
  /** Owner of a user tag; null for common tags. */
  ownerId: number | null;
  deleted: boolean;
  spotCount: number;
}

export const TAG_NAME_MAX = 100;

const fromItem = (item: Item): SpotTag => ({
  uuid: String(item.uuid),
  tag: String(item.tag),
  translatable: false,
  ownerId: Number(item.owner_id),
  deleted: Boolean(item.deleted),
  spotCount: Number(item.spot_count ?? 0),
});

const fromCommon = (uuid: string): SpotTag | undefined => {
  const common = commonTag(uuid);
  return common ? { uuid: common.uuid, tag: common.tag, translatable: true, ownerId: null, deleted: false, spotCount: 0 } : undefined;
};

export function checkTagName(tag: unknown): string {
  const name = typeof tag === 'string' ? tag.trim() : '';
  if (!name || name.length > TAG_NAME_MAX) throw new Invalid(`tag must have 1 to ${TAG_NAME_MAX} characters`, { code: SPOT_CODES.WRONG_FORMAT });
  return name;
}

/** Tags by uuid (common or stored, deleted ones included). */
export async function tagsByUuid(uuids: string[]): Promise<Map<string, SpotTag>> {
  const result = new Map<string, SpotTag>();
  const stored: string[] = [];
  for (const uuid of new Set(uuids.map((u) => u.toLowerCase()))) {
    const common = fromCommon(uuid);
    if (common) result.set(uuid, common);
    else stored.push(uuid);
  }
  const found = await batchGet(stored.map((u) => keys.spotTag(u)));
  for (const uuid of stored) {
    const item = found.get(itemKey(keys.spotTag(uuid)));
    if (item) result.set(uuid, fromItem(item));
  }
  return result;
}

export async function userTags(userId: number): Promise<SpotTag[]> {
  const items = await queryAll({ pk: keys.spotTagsIndexPk(userId), index: 'gsi1' });
  return items.map(fromItem).filter((t) => !t.deleted);
}

const tagItem = (uuid: string, tag: string, ownerId: number, spotCount: number) => ({
  ...keys.spotTag(uuid),
  ...keys.spotTagsIndex(ownerId, tag, uuid),
  kind: 'spot_tag',
  uuid,
  tag,
  owner_id: ownerId,
  deleted: false,
  spot_count: spotCount,
  created_at: new Date().toISOString(),
});

export interface TagInput {
  uuid?: string;
  tag?: string;
}

/**
 * The tags a spot should carry, as transaction items: tags that exist gain a spot (deleted ones are
 * left out); tags sent with a new uuid are created with it; tags sent without a uuid reuse the
 * caller's own or common tag of that name, else are created with a generated uuid.
 */
export interface ResolvedTags {
  uuids: string[];
  /** Puts of the tags to create (already counting this spot). */
  ops: TxOp[];
  created: Set<string>;
}

export async function resolveSpotTags(principal: Principal, inputs: TagInput[]): Promise<ResolvedTags> {
  const wanted = inputs.map((input) => ({ uuid: input.uuid ? checkUuidV1(input.uuid, 'tag uuid') : undefined, tag: input.tag }));
  const known = await tagsByUuid(wanted.flatMap((w) => (w.uuid ? [w.uuid] : [])));
  const byName = new Map<string, SpotTag>();
  if (wanted.some((w) => !w.uuid)) {
    for (const common of COMMON_TAGS) byName.set(normalizeName(common.tag), fromCommon(common.uuid)!);
    for (const own of await userTags(principal.user.id)) byName.set(normalizeName(own.tag), own);
  }
  const uuids: string[] = [];
  const ops: TxOp[] = [];
  const created = new Map<string, string>();
  for (const w of wanted) {
    let uuid = w.uuid;
    const existing = uuid ? known.get(uuid) : byName.get(normalizeName(checkTagName(w.tag)));
    if (existing) {
      if (existing.deleted) continue;
      uuid = existing.uuid;
    } else if (!uuid) {
      const name = checkTagName(w.tag);
      uuid = created.get(normalizeName(name)) ?? uuidV1();
      if (!created.has(normalizeName(name))) {
        created.set(normalizeName(name), uuid);
        ops.push(tx.put(tagItem(uuid, name, principal.user.id, 1), NOT_EXISTS, retryLater));
      }
    } else if (!created.has(uuid)) {
      created.set(uuid, uuid);
      ops.push(tx.put(tagItem(uuid, checkTagName(w.tag), principal.user.id, 1), NOT_EXISTS, retryLater));
    }
    if (!uuids.includes(uuid)) uuids.push(uuid);
  }
  return { uuids, ops, created: new Set(created.values()) };
}

/** A tag created meanwhile by another request: the whole operation is tried again. */
const retryLater = () => new Conflict('a tag was created meanwhile', { code: 'RETRY' });

/**
 * Changes of the spot counts of user tags when a spot's tags go from `before` to `after` (tags
 * created in the same transaction already count it).
 */
export function tagCountChanges(before: string[], after: string[], created: Set<string> = new Set()): TxOp[] {
  const ops: TxOp[] = [];
  const change = (uuid: string, delta: number) => {
    if (commonTag(uuid) || created.has(uuid)) return;
    ops.push(tx.update(keys.spotTag(uuid), { expression: 'ADD spot_count :delta', values: { ':delta': delta } }));
  };
  for (const uuid of after) if (!before.includes(uuid)) change(uuid, 1);
  for (const uuid of before) if (!after.includes(uuid)) change(uuid, -1);
  return ops;
}

// --- the tags endpoints --------------------------------------------------------------------------

export interface CreatedTag extends SpotTag {
  /** The uuid already existed (maybe deleted): the tag sent was ignored. */
  ignored: boolean;
}

export async function createTags(principal: Principal, inputs: TagInput[]): Promise<CreatedTag[]> {
  const results: CreatedTag[] = [];
  for (const input of inputs) {
    const name = checkTagName(input.tag);
    const uuid = input.uuid ? checkUuidV1(input.uuid, 'uuid') : uuidV1();
    const existing = (await tagsByUuid([uuid])).get(uuid);
    if (existing) {
      results.push({ ...existing, ignored: true });
      continue;
    }
    try {
      await transact([tx.put(tagItem(uuid, name, principal.user.id, 0), NOT_EXISTS, () => new Conflict('exists'))]);
      results.push({ uuid, tag: name, translatable: false, ownerId: principal.user.id, deleted: false, spotCount: 0, ignored: false });
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      results.push({ ...(await tagsByUuid([uuid])).get(uuid)!, ignored: true });
    }
  }
  return results;
}

export async function searchTags(principal: Principal, filter: { general: boolean; user: boolean }): Promise<SpotTag[]> {
  const general = filter.general ? COMMON_TAGS.map((t) => fromCommon(t.uuid)!) : [];
  const own = filter.user ? await userTags(principal.user.id) : [];
  return [...general, ...own];
}

/** A user tag of the caller; common tags and others' tags cannot be changed (403 / 404, code 12 / 404). */
async function ownTag(principal: Principal, uuid: string): Promise<SpotTag> {
  if (commonTag(uuid)) throw new Forbidden('common tags cannot be changed or deleted', { code: SPOT_CODES.NO_PERMISSION });
  const item = await getItem(keys.spotTag(uuid));
  const tag = item ? fromItem(item) : undefined;
  if (!tag || tag.deleted || tag.ownerId !== principal.user.id) throw new NotFound(`tag ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });
  return tag;
}

export async function renameTag(principal: Principal, uuid: string, name: string): Promise<SpotTag> {
  const tag = await ownTag(principal, uuid);
  const next = checkTagName(name);
  await transact([
    tx.update(keys.spotTag(uuid), {
      expression: 'SET tag = :tag, gsi1sk = :sort',
      condition: 'deleted = :no',
      values: { ':tag': next, ':sort': keys.spotTagsIndex(principal.user.id, next, uuid).gsi1sk, ':no': false },
    }),
  ]);
  return { ...tag, tag: next };
}

/** Deletes a user tag no spot carries; its uuid stays taken (a tombstone). */
export async function deleteTag(principal: Principal, uuid: string): Promise<void> {
  await ownTag(principal, uuid);
  await transact([
    tx.update(
      keys.spotTag(uuid),
      { expression: 'SET deleted = :yes, deleted_at = :at', condition: 'deleted = :no AND spot_count <= :zero', values: { ':yes': true, ':no': false, ':zero': 0, ':at': new Date().toISOString() } },
      () => new Conflict('It is not possible to delete a Tag that is in use', { code: SPOT_CODES.TAG_IN_USE }),
    ),
  ]);
}
