// Farm tags and field tags (spec 2): a user's labels (text and colour) attached to the farms and
// fields it can read. Tags belong to the user; links live in the farm's or field's partition (a
// field's are deleted with it) and are indexed by tag (gsi1) so that deleting a tag removes them.
import { randomBytes } from 'node:crypto';
import { keys, normalizeName, parseIdFromSk } from '../db/keys';
import { batchDelete, batchGet, getItem, itemKey, nextId, NOT_EXISTS, EXISTS, queryAll, transact, tx, type Item, type TxOp } from '../db/table';
import type { Key } from '../db/keys';
import { Conflict, Forbidden, Invalid, NotFound } from '../errors';
import type { Principal } from '../auth/principal';
import type { Farm, Field } from '../platform/model';
import { farmFor, fieldFor } from '../authz/guard';
import { entity, num, str, type EntityOf } from '../db/entity';

/** Farm tag codes (spec 2, Errors, farm tags). */
export const TAG_CODES = { MISSING: 1, INVALID_COLOR: 2, EXISTS_OR_UNKNOWN: 3, NAME_TAKEN_ON_UPDATE: -6 } as const;

export const Tag = entity('farm_tag', { id: num('id'), userId: num('user_id'), tag: str('tag'), color: str('color') });
export type Tag = EntityOf<typeof Tag>;

const COLOR = /^[0-9A-Fa-f]{6}$/;
export const TAG_MAX = 100;

export const randomColor = (): string => randomBytes(3).toString('hex').toUpperCase();

function checkColor(color: string): string {
  if (!COLOR.test(color)) {
    throw new Invalid('Formato de color inválido: se esperan 6 caracteres hexadecimales sin #', { code: TAG_CODES.INVALID_COLOR });
  }
  return color; // as the client sent it (either case)
}

function checkText(desc: string): string {
  const text = desc.trim();
  if (!text || text.length > TAG_MAX) {
    throw new Invalid(`La descripción es obligatoria y tiene a lo sumo ${TAG_MAX} caracteres`, { code: TAG_CODES.MISSING });
  }
  return text;
}


const unknownTag = (tagId: number) => new NotFound(`La etiqueta ${tagId} no existe`, { code: TAG_CODES.EXISTS_OR_UNKNOWN });

export async function getTag(userId: number, tagId: number): Promise<Tag | undefined> {
  const item = await getItem(keys.farmTag(userId, tagId));
  return item ? Tag.fromItem(item) : undefined;
}

export async function requireTag(userId: number, tagId: number): Promise<Tag> {
  const tag = await getTag(userId, tagId);
  if (!tag) throw unknownTag(tagId);
  return tag;
}

export async function tagsOfUser(userId: number): Promise<Tag[]> {
  const { pk, skPrefix } = keys.farmTagsPrefix(userId);
  return (await queryAll({ pk, skPrefix })).map(Tag.fromItem);
}

/** The caller's tags among the given ids (links to deleted tags are skipped). */
async function tagsByIds(userId: number, tagIds: number[]): Promise<Tag[]> {
  const found = await batchGet(tagIds.map((id) => keys.farmTag(userId, id)));
  return tagIds.flatMap((id) => {
    const item = found.get(itemKey(keys.farmTag(userId, id)));
    return item ? [Tag.fromItem(item)] : [];
  });
}

const linkedTagIds = async (prefix: { pk: string; skPrefix: string }) =>
  (await queryAll({ pk: prefix.pk, skPrefix: prefix.skPrefix })).map((item) => parseIdFromSk(String(item.sk)));

// --- farms -----------------------------------------------------------------------------------

/** A farm the caller can read, for labelling. */
async function readableFarm(principal: Principal, farmId: number): Promise<Farm> {
  const unknown = () => new NotFound(`El campo ${farmId} no existe`, { code: TAG_CODES.EXISTS_OR_UNKNOWN });
  return (await farmFor(principal, farmId, 'read', { notFound: unknown, forbidden: unknown })).farm;
}

const farmLink = (farmId: number, userId: number, tagId: number) => ({
  ...keys.farmTagLink(farmId, userId, tagId),
  ...keys.tagLinksIndex(userId, tagId, { farmId }),
  kind: 'farm_tag_link',
  farm_id: farmId,
  tag_id: tagId,
});

export async function tagsOfFarm(userId: number, farmId: number): Promise<Tag[]> {
  return tagsByIds(userId, await linkedTagIds(keys.farmTagLinksPrefix(farmId, userId)));
}

/** The caller's tags on a farm it can read. */
export async function tagsOfReadableFarm(principal: Principal, farmId: number): Promise<Tag[]> {
  await readableFarm(principal, farmId);
  return tagsOfFarm(principal.user.id, farmId);
}

/** The caller's tags on each farm, for getfields. */
export async function tagsOfFarms(userId: number, farmIds: number[]): Promise<Map<number, Tag[]>> {
  const links = await Promise.all(farmIds.map(async (farmId) => [farmId, await linkedTagIds(keys.farmTagLinksPrefix(farmId, userId))] as const));
  const tags = new Map((await tagsByIds(userId, [...new Set(links.flatMap(([, ids]) => ids))])).map((t) => [t.id, t]));
  return new Map(links.map(([farmId, ids]) => [farmId, ids.flatMap((id) => (tags.has(id) ? [tags.get(id)!] : []))]));
}

export interface CreateTagInput {
  desc: string;
  color?: string;
  farmId?: number;
}

export async function createTag(principal: Principal, input: CreateTagInput): Promise<Tag> {
  const userId = principal.user.id;
  const text = checkText(input.desc);
  const color = input.color === undefined || input.color === '' ? randomColor() : checkColor(input.color);
  if (input.farmId !== undefined) await readableFarm(principal, input.farmId);
  const id = await nextId('farm_tag');
  const tag: Tag = { id, userId, tag: text, color };
  const ops: TxOp[] = [
    tx.put({ ...keys.farmTag(userId, id), ...Tag.toItem(tag) }, NOT_EXISTS),
    tx.put({ ...keys.farmTagName(userId, text), kind: 'farm_tag_name', tag_id: id }, NOT_EXISTS, () =>
      new Conflict(`Ya existe una etiqueta con el nombre '${text}'`, { code: TAG_CODES.EXISTS_OR_UNKNOWN }),
    ),
  ];
  if (input.farmId !== undefined) ops.push(tx.put(farmLink(input.farmId, userId, id)));
  await transact(ops);
  return tag;
}

export interface UpdateTagInput {
  tagId: number;
  desc?: string;
  color?: string;
}

/** Changes text and/or colour; as the spec says, the colour is random when not sent. */
export async function updateTag(principal: Principal, input: UpdateTagInput): Promise<Tag> {
  const userId = principal.user.id;
  const hasDesc = input.desc !== undefined && input.desc !== '';
  const hasColor = input.color !== undefined && input.color !== '';
  if (!hasDesc && !hasColor) throw new Invalid('Se requiere desc o color', { code: TAG_CODES.MISSING });
  const color = hasColor ? checkColor(input.color!) : randomColor();
  const current = await requireTag(userId, input.tagId);
  const text = hasDesc ? checkText(input.desc!) : current.tag;
  const ops: TxOp[] = [
    tx.update(
      keys.farmTag(userId, current.id),
      { expression: 'SET tag = :tag, color = :color', condition: EXISTS, values: { ':tag': text, ':color': color } },
      () => unknownTag(input.tagId),
    ),
  ];
  if (normalizeName(text) !== normalizeName(current.tag)) {
    ops.push(
      tx.put({ ...keys.farmTagName(userId, text), kind: 'farm_tag_name', tag_id: current.id }, NOT_EXISTS, () =>
        new Conflict(`Ya existe una etiqueta con el nombre '${text}'`, { code: TAG_CODES.NAME_TAKEN_ON_UPDATE }),
      ),
      tx.delete(keys.farmTagName(userId, current.tag)),
    );
  }
  await transact(ops);
  return { ...current, tag: text, color };
}

/** Deletes the tag and every link of it, to farms and to fields. */
export async function deleteTag(principal: Principal, tagId: number): Promise<void> {
  const userId = principal.user.id;
  const tag = await requireTag(userId, tagId);
  await transact([
    tx.delete(keys.farmTag(userId, tagId), EXISTS, () => unknownTag(tagId)),
    tx.delete(keys.farmTagName(userId, tag.tag)),
  ]);
  const links = await queryAll<Item & Key>({ pk: keys.tagLinksIndexPk(userId, tagId), index: 'gsi1' });
  await batchDelete(links.map(({ pk, sk }) => ({ pk, sk })));
}

export async function linkFarm(principal: Principal, tagId: number, farmId: number): Promise<Tag[]> {
  const userId = principal.user.id;
  await requireTag(userId, tagId);
  await readableFarm(principal, farmId);
  await transact([tx.put(farmLink(farmId, userId, tagId)), tx.check(keys.farmTag(userId, tagId), EXISTS, () => unknownTag(tagId))]);
  return tagsOfFarm(userId, farmId);
}

export async function unlinkFarm(principal: Principal, tagId: number, farmId: number): Promise<Tag[]> {
  const userId = principal.user.id;
  await requireTag(userId, tagId);
  await readableFarm(principal, farmId);
  await batchDelete([keys.farmTagLink(farmId, userId, tagId)]);
  return tagsOfFarm(userId, farmId);
}

// --- fields ----------------------------------------------------------------------------------

const fieldLink = (fieldId: number, userId: number, tagId: number) => ({
  ...keys.fieldTagLink(fieldId, userId, tagId),
  ...keys.tagLinksIndex(userId, tagId, { fieldId }),
  kind: 'field_tag_link',
  field_id: fieldId,
  tag_id: tagId,
});

export async function tagsOfField(userId: number, fieldId: number): Promise<Tag[]> {
  return tagsByIds(userId, await linkedTagIds(keys.fieldTagLinksPrefix(fieldId, userId)));
}

/** Field tags answer 403 when the field cannot be read and 400 for an unknown tag (spec: 200/400/401/403). */
async function checkFieldTagging(principal: Principal, found: Field | undefined, tagId: number): Promise<Field> {
  const refuse = () => new Forbidden('the user lacks permissions over the field');
  const { field } = await fieldFor(principal, found, 'read', { notFound: refuse, forbidden: refuse });
  if (!(await getTag(principal.user.id, tagId))) throw new Invalid(`tag ${tagId} does not exist`);
  return field;
}

export async function linkField(principal: Principal, found: Field | undefined, tagId: number): Promise<Tag[]> {
  const field = await checkFieldTagging(principal, found, tagId);
  const userId = principal.user.id;
  await transact([
    tx.put(fieldLink(field.id, userId, tagId)),
    tx.check(keys.farmTag(userId, tagId), EXISTS, () => new Invalid(`tag ${tagId} does not exist`)),
    tx.check(keys.field(field.id), EXISTS, () => new Forbidden('the field no longer exists')),
  ]);
  return tagsOfField(userId, field.id);
}

export async function unlinkField(principal: Principal, found: Field | undefined, tagId: number): Promise<Tag[]> {
  const field = await checkFieldTagging(principal, found, tagId);
  await batchDelete([keys.fieldTagLink(field.id, principal.user.id, tagId)]);
  return tagsOfField(principal.user.id, field.id);
}
