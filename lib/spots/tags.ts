// Spot tags (spec 1): common tags (in code, translatable) and each user's own tags (stored per
// owner: another user's tag with the same uuid is another tag). A user tag counts the spots that
// carry it and cannot be deleted while that count is above zero (code 51); a deleted tag keeps its
// uuid taken for its owner (a tombstone). A spot carries common tags, its editors' own tags, and
// keeps the tags it already carries when they are sent again; any other uuid is refused as
// unknown, without ever echoing another user's tag.
import { v1 as uuidV1 } from 'uuid';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import { batchGet, getItem, itemKey, NOT_EXISTS, queryAll, transact, tx, type Item, type TxOp } from '../db/table';
import { Conflict, Forbidden, NotFound } from '../errors';
import type { Principal } from '../auth/principal';
import { COMMON_TAGS, commonTag } from './catalogue';
import { checkUuidV1, SPOT_CODES, SPOT_LIMITS, tagRefKey, wrongFormat, type TagRef } from './model';
import { characters } from '../util/text';

export { tagRefKey };

export interface SpotTag {
  uuid: string;
  tag: string;
  translatable: boolean;
  /** Owner of a user tag; null for common tags. */
  ownerId: number | null;
  deleted: boolean;
  spotCount: number;
}

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
  if (!name || characters(name) > SPOT_LIMITS.TAG_NAME) throw wrongFormat(`tag must have 1 to ${SPOT_LIMITS.TAG_NAME} characters`);
  return name;
}

/** The tags of some spots, by tagRefKey (common or stored, deleted ones included). */
export async function tagsOf(refs: TagRef[]): Promise<Map<string, SpotTag>> {
  const result = new Map<string, SpotTag>();
  const stored: TagRef[] = [];
  for (const ref of refs) {
    if (ref.ownerId === null) {
      const common = fromCommon(ref.uuid);
      if (common) result.set(tagRefKey(ref), common);
    } else stored.push(ref);
  }
  const found = await batchGet(stored.map((r) => keys.spotTag(r.ownerId!, r.uuid)));
  for (const ref of stored) {
    const item = found.get(itemKey(keys.spotTag(ref.ownerId!, ref.uuid)));
    if (item) result.set(tagRefKey(ref), fromItem(item));
  }
  return result;
}

export async function userTags(userId: number): Promise<SpotTag[]> {
  const items = await queryAll({ pk: keys.spotTagsIndexPk(userId), index: 'gsi1' });
  return items.map(fromItem).filter((t) => !t.deleted);
}

const tagItem = (uuid: string, tag: string, ownerId: number, spotCount: number) => ({
  ...keys.spotTag(ownerId, uuid),
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

/** The tags a spot should carry, and the transaction items that create the new ones. */
export interface ResolvedTags {
  refs: TagRef[];
  /** Puts of the tags to create (already counting this spot). */
  ops: TxOp[];
  created: Set<string>;
}

/**
 * Resolves the `tags` of a spot request (spec 1): a tag with a uuid is a common tag, one the spot
 * already carries, or one of the caller's own (created with that uuid and the name sent when it
 * does not exist yet); a deleted own tag is left out; a uuid without a name that is none of these
 * is unknown (-4). A tag without uuid is a new tag with a generated uuid.
 */
export async function resolveSpotTags(principal: Principal, inputs: TagInput[], current: TagRef[] = []): Promise<ResolvedTags> {
  if (inputs.length > SPOT_LIMITS.TAGS) throw wrongFormat(`a spot carries at most ${SPOT_LIMITS.TAGS} tags`);
  const userId = principal.user.id;
  const wanted = inputs.map((input) => ({ uuid: input.uuid ? checkUuidV1(input.uuid, 'tag uuid') : undefined, tag: input.tag }));
  const ownKeys = wanted.filter((w) => w.uuid && !commonTag(w.uuid) && !current.some((c) => c.uuid === w.uuid)).map((w) => keys.spotTag(userId, w.uuid!));
  const own = await batchGet(ownKeys);
  const refs: TagRef[] = [];
  const ops: TxOp[] = [];
  const created = new Set<string>();
  const add = (ref: TagRef) => {
    if (!refs.some((r) => tagRefKey(r) === tagRefKey(ref))) refs.push(ref);
  };
  for (const w of wanted) {
    if (!w.uuid) {
      const uuid = uuidV1();
      ops.push(tx.put(tagItem(uuid, checkTagName(w.tag), userId, 1), NOT_EXISTS, () => new LostRace('a tag was created meanwhile')));
      created.add(tagRefKey({ uuid, ownerId: userId }));
      add({ uuid, ownerId: userId });
      continue;
    }
    if (commonTag(w.uuid)) {
      add({ uuid: w.uuid, ownerId: null });
      continue;
    }
    const carried = current.find((c) => c.uuid === w.uuid);
    if (carried) {
      add(carried);
      continue;
    }
    const stored = own.get(itemKey(keys.spotTag(userId, w.uuid)));
    if (stored) {
      if (!stored.deleted) add({ uuid: w.uuid, ownerId: userId });
      continue;
    }
    if (w.tag === undefined) throw wrongFormat(`tag ${w.uuid} is unknown: send its name to create it`);
    const ref = { uuid: w.uuid, ownerId: userId };
    if (!created.has(tagRefKey(ref))) {
      ops.push(tx.put(tagItem(w.uuid, checkTagName(w.tag), userId, 1), NOT_EXISTS, () => new LostRace('a tag was created meanwhile')));
      created.add(tagRefKey(ref));
    }
    add(ref);
  }
  return { refs, ops, created };
}

/**
 * Changes of the spot counts of user tags when a spot's tags go from `before` to `after` (tags
 * created in the same transaction already count it).
 */
export function tagCountChanges(before: TagRef[], after: TagRef[], created: Set<string> = new Set()): TxOp[] {
  const ops: TxOp[] = [];
  const change = (ref: TagRef, delta: number) => {
    if (ref.ownerId === null || created.has(tagRefKey(ref))) return;
    ops.push(tx.update(keys.spotTag(ref.ownerId, ref.uuid), { expression: 'ADD spot_count :delta', values: { ':delta': delta } }));
  };
  const has = (list: TagRef[], ref: TagRef) => list.some((r) => tagRefKey(r) === tagRefKey(ref));
  for (const ref of after) if (!has(before, ref)) change(ref, 1);
  for (const ref of before) if (!has(after, ref)) change(ref, -1);
  return ops;
}

// --- the tags endpoints --------------------------------------------------------------------------

export interface CreatedTag extends SpotTag {
  /** The uuid already existed for the caller (maybe deleted), or is a common tag: the tag sent was ignored. */
  ignored: boolean;
}

/** Creates the caller's tags; a uuid the caller already has, or a common tag's, is ignored (spec 1). */
export async function createTags(principal: Principal, inputs: TagInput[]): Promise<CreatedTag[]> {
  if (inputs.length > SPOT_LIMITS.TAGS) throw wrongFormat(`at most ${SPOT_LIMITS.TAGS} tags per request`);
  const userId = principal.user.id;
  const checked = inputs.map((input) => ({ name: checkTagName(input.tag), uuid: input.uuid ? checkUuidV1(input.uuid, 'uuid') : uuidV1() }));
  const results: CreatedTag[] = [];
  for (const { name, uuid } of checked) {
    const common = fromCommon(uuid);
    if (common) {
      results.push({ ...common, ignored: true });
      continue;
    }
    const existing = async () => fromItem((await getItem(keys.spotTag(userId, uuid)))!);
    try {
      await transact([tx.put(tagItem(uuid, name, userId, 0), NOT_EXISTS, () => new Conflict('exists'))]);
      results.push({ uuid, tag: name, translatable: false, ownerId: userId, deleted: false, spotCount: 0, ignored: false });
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      results.push({ ...(await existing()), ignored: true });
    }
  }
  return results;
}

export async function searchTags(principal: Principal, filter: { general: boolean; user: boolean }): Promise<SpotTag[]> {
  const general = filter.general ? COMMON_TAGS.map((t) => fromCommon(t.uuid)!) : [];
  const own = filter.user ? await userTags(principal.user.id) : [];
  return [...general, ...own];
}

/** A user tag of the caller; common tags cannot be changed (403, 12); anything else is not found (404). */
async function ownTag(principal: Principal, uuid: string): Promise<SpotTag> {
  if (commonTag(uuid)) throw new Forbidden('common tags cannot be changed or deleted', { code: SPOT_CODES.NO_PERMISSION });
  const item = await getItem(keys.spotTag(principal.user.id, uuid));
  const tag = item ? fromItem(item) : undefined;
  if (!tag || tag.deleted) throw new NotFound(`tag ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });
  return tag;
}

export async function renameTag(principal: Principal, uuid: string, name: string): Promise<SpotTag> {
  const tag = await ownTag(principal, uuid);
  const next = checkTagName(name);
  await transact([
    tx.update(
      keys.spotTag(principal.user.id, uuid),
      {
        expression: 'SET tag = :tag, gsi1sk = :sort',
        condition: 'deleted = :no',
        values: { ':tag': next, ':sort': keys.spotTagsIndex(principal.user.id, next, uuid).gsi1sk, ':no': false },
      },
      () => new NotFound(`tag ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND }),
    ),
  ]);
  return { ...tag, tag: next };
}

/** Deletes a user tag no spot carries; its uuid stays taken for its owner (a tombstone). */
export async function deleteTag(principal: Principal, uuid: string): Promise<void> {
  await ownTag(principal, uuid);
  await transact([
    tx.update(
      keys.spotTag(principal.user.id, uuid),
      { expression: 'SET deleted = :yes, deleted_at = :at', condition: 'deleted = :no AND spot_count <= :zero', values: { ':yes': true, ':no': false, ':zero': 0, ':at': new Date().toISOString() } },
      () => new Conflict('It is not possible to delete a Tag that is in use', { code: SPOT_CODES.TAG_IN_USE }),
    ),
  ]);
}

