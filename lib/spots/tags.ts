// Spot tags (spec 1): common tags (in code, translatable) and each user's own tags (stored per
// owner: another user's tag with the same uuid is another tag). A user tag counts the spots that
// carry it and cannot be deleted while that count is above zero (code 51); a deleted tag keeps its
// uuid taken for its owner (a tombstone). A spot carries common tags, its editors' own tags, and
// keeps the tags it already carries when they are sent again; any other uuid is refused as
// unknown, without ever echoing another user's tag.
import type { Principal } from '../auth/principal';
import { Conflict, Forbidden, NotFound } from '../errors';
import { characters } from '../util/text';
import { newUuidV1 } from '../util/uuid';
import { COMMON_TAGS, commonTag } from './catalogue';
import { SPOT_CODES } from './codes';
import { checkUuidV1, SPOT_LIMITS, type TagRef, tagRefKey, wrongFormat } from './model';
import type { NewTag, SpotDeps, SpotWrite } from './service';

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

const tagNotFound = (uuid: string) => new NotFound(`tag ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });

const fromCommon = (uuid: string): SpotTag | undefined => {
  const common = commonTag(uuid);
  return common
    ? { uuid: common.uuid, tag: common.tag, translatable: true, ownerId: null, deleted: false, spotCount: 0 }
    : undefined;
};

export function checkTagName(tag: unknown): string {
  const name = typeof tag === 'string' ? tag.trim() : '';
  if (!name || characters(name) > SPOT_LIMITS.TAG_NAME)
    throw wrongFormat(`tag must have 1 to ${SPOT_LIMITS.TAG_NAME} characters`);
  return name;
}

export interface TagInput {
  uuid?: string;
  tag?: string;
}

/** The tags a spot should carry, and the new ones to create with it. */
export interface ResolvedTags {
  refs: TagRef[];
  /** Tags to create (already counting this spot). */
  created: NewTag[];
}

const isUserTag = (ref: TagRef): ref is TagRef & { ownerId: number } => ref.ownerId !== null;

/**
 * Changes of the spot counts of user tags when a spot's tags go from `before` to `after` (tags
 * created in the same write already count it).
 */
export function tagCountChanges(
  before: TagRef[],
  after: TagRef[],
  created: NewTag[] = [],
): NonNullable<SpotWrite['tagCounts']> {
  const fresh = new Set(created.map((t) => tagRefKey(t)));
  const changes: NonNullable<SpotWrite['tagCounts']> = [];
  const has = (list: TagRef[], ref: TagRef) => list.some((r) => tagRefKey(r) === tagRefKey(ref));
  for (const ref of after)
    if (isUserTag(ref) && !fresh.has(tagRefKey(ref)) && !has(before, ref)) changes.push({ tag: ref, delta: 1 });
  for (const ref of before)
    if (isUserTag(ref) && !fresh.has(tagRefKey(ref)) && !has(after, ref)) changes.push({ tag: ref, delta: -1 });
  return changes;
}

export interface CreatedTag extends SpotTag {
  /** The uuid already existed for the caller (maybe deleted), or is a common tag: the tag sent was ignored. */
  ignored: boolean;
}

export function tagRules({ repository }: Pick<SpotDeps, 'repository'>) {
  /** The tags of some spots, by tagRefKey (common or stored, deleted ones included). */
  async function tagsOf(refs: TagRef[]): Promise<Map<string, SpotTag>> {
    const result = new Map<string, SpotTag>();
    for (const ref of refs) {
      const common = ref.ownerId === null ? fromCommon(ref.uuid) : undefined;
      if (common) result.set(tagRefKey(ref), common);
    }
    for (const [key, tag] of await repository.tags(refs.filter(isUserTag))) result.set(key, tag);
    return result;
  }

  /** A user tag of the caller; common tags cannot be changed (403, 12); anything else is not found (404). */
  async function ownTag(principal: Principal, uuid: string): Promise<SpotTag> {
    if (commonTag(uuid))
      throw new Forbidden('common tags cannot be changed or deleted', { code: SPOT_CODES.NO_PERMISSION });
    const ref = { uuid: uuid.toLowerCase(), ownerId: principal.user.id };
    const tag = (await repository.tags([ref])).get(tagRefKey(ref));
    if (!tag || tag.deleted) throw tagNotFound(uuid);
    return tag;
  }

  return {
    tagsOf,

    /**
     * Resolves the `tags` of a spot request (spec 1): a tag with a uuid is a common tag, one the spot
     * already carries, or one of the caller's own (created with that uuid and the name sent when it
     * does not exist yet); a deleted own tag is left out; a uuid without a name that is none of these
     * is unknown (-4). A tag without uuid is a new tag with a generated uuid.
     */
    async resolveSpotTags(principal: Principal, inputs: TagInput[], current: TagRef[] = []): Promise<ResolvedTags> {
      if (inputs.length > SPOT_LIMITS.TAGS) throw wrongFormat(`a spot carries at most ${SPOT_LIMITS.TAGS} tags`);
      const userId = principal.user.id;
      const wanted = inputs.map((input) => ({
        uuid: input.uuid ? checkUuidV1(input.uuid, 'tag uuid') : undefined,
        tag: input.tag,
      }));
      const own = await repository.tags(
        wanted
          .filter((w) => w.uuid && !commonTag(w.uuid) && !current.some((c) => c.uuid === w.uuid))
          .map((w) => ({ uuid: w.uuid!, ownerId: userId })),
      );
      const refs: TagRef[] = [];
      const created: NewTag[] = [];
      const add = (ref: TagRef) => {
        if (!refs.some((r) => tagRefKey(r) === tagRefKey(ref))) refs.push(ref);
      };
      const create = (uuid: string, name: string | undefined) => {
        const ref = { uuid, ownerId: userId };
        if (!created.some((t) => tagRefKey(t) === tagRefKey(ref)))
          created.push({ ...ref, tag: checkTagName(name), spotCount: 1 });
        add(ref);
      };
      for (const w of wanted) {
        if (!w.uuid) {
          create(newUuidV1(), w.tag);
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
        const stored = own.get(tagRefKey({ uuid: w.uuid, ownerId: userId }));
        if (stored) {
          if (!stored.deleted) add({ uuid: w.uuid, ownerId: userId });
          continue;
        }
        if (w.tag === undefined) throw wrongFormat(`tag ${w.uuid} is unknown: send its name to create it`);
        create(w.uuid, w.tag);
      }
      return { refs, created };
    },

    /** Creates the caller's tags; a uuid the caller already has, or a common tag's, is ignored (spec 1). */
    async createTags(principal: Principal, inputs: TagInput[]): Promise<CreatedTag[]> {
      if (inputs.length > SPOT_LIMITS.TAGS) throw wrongFormat(`at most ${SPOT_LIMITS.TAGS} tags per request`);
      const userId = principal.user.id;
      const checked = inputs.map((input) => ({
        name: checkTagName(input.tag),
        uuid: input.uuid ? checkUuidV1(input.uuid, 'uuid') : newUuidV1(),
      }));
      const results: CreatedTag[] = [];
      for (const { name, uuid } of checked) {
        const common = fromCommon(uuid);
        if (common) {
          results.push({ ...common, ignored: true });
          continue;
        }
        if (await repository.createTag({ uuid, tag: name, ownerId: userId, spotCount: 0 })) {
          results.push({
            uuid,
            tag: name,
            translatable: false,
            ownerId: userId,
            deleted: false,
            spotCount: 0,
            ignored: false,
          });
        } else {
          const ref = { uuid, ownerId: userId };
          results.push({ ...(await repository.tags([ref])).get(tagRefKey(ref))!, ignored: true });
        }
      }
      return results;
    },

    async searchTags(principal: Principal, filter: { general: boolean; user: boolean }): Promise<SpotTag[]> {
      const general = filter.general ? COMMON_TAGS.map((t) => fromCommon(t.uuid)!) : [];
      const own = filter.user ? await repository.tagsOfUser(principal.user.id) : [];
      return [...general, ...own];
    },

    async renameTag(principal: Principal, uuid: string, name: string): Promise<SpotTag> {
      const tag = await ownTag(principal, uuid);
      const next = checkTagName(name);
      await repository.renameTag(principal.user.id, tag.uuid, next, () => tagNotFound(uuid));
      return { ...tag, tag: next };
    },

    /** Deletes a user tag no spot carries; its uuid stays taken for its owner (a tombstone). */
    async deleteTag(principal: Principal, uuid: string): Promise<void> {
      const tag = await ownTag(principal, uuid);
      await repository.deleteTag(
        principal.user.id,
        tag.uuid,
        () => new Conflict('It is not possible to delete a Tag that is in use', { code: SPOT_CODES.TAG_IN_USE }),
      );
    },
  };
}

export type TagRules = ReturnType<typeof tagRules>;
