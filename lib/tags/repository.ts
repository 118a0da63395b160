// Farm and field tags in DynamoDB (docs/data-model.md): tags in their user's partition with a name
// item (names unique per user); links in the farm's or field's partition (a field's are deleted
// with it), indexed by tag (gsi1) so that deleting a tag removes them.

import type { Key } from '../db/keys';
import { keys, normalizeName, parseIdFromSk } from '../db/keys';
import {
  batchDelete,
  batchGet,
  EXISTS,
  type Item,
  itemKey,
  NOT_EXISTS,
  nextId,
  queryAll,
  readItem,
  type TxOp,
  transact,
  tx,
} from '../db/table';
import { Tag, type TagRepository, type TagTarget } from './service';

const linkKey = (userId: number, tagId: number, target: TagTarget): Key =>
  'farmId' in target
    ? keys.farmTagLink(target.farmId, userId, tagId)
    : keys.fieldTagLink(target.fieldId, userId, tagId);

const linkItem = (userId: number, tagId: number, target: TagTarget) => ({
  ...linkKey(userId, tagId, target),
  ...keys.tagLinksIndex(userId, tagId, target),
  ...('farmId' in target
    ? { kind: 'farm_tag_link', farm_id: target.farmId }
    : { kind: 'field_tag_link', field_id: target.fieldId }),
  tag_id: tagId,
});

const nameItem = (tag: Tag) => ({ ...keys.farmTagName(tag.userId, tag.tag), kind: 'farm_tag_name', tag_id: tag.id });

export const dynamoTagRepository: TagRepository = {
  nextId: () => nextId('farm_tag'),
  async tag(userId, tagId) {
    return readItem(keys.farmTag(userId, tagId), Tag.fromItem);
  },
  async tagsOf(userId) {
    return (await queryAll(keys.farmTagsPrefix(userId))).map(Tag.fromItem);
  },
  async tagsByIds(userId, tagIds) {
    const found = await batchGet(tagIds.map((id) => keys.farmTag(userId, id)));
    return tagIds.flatMap((id) => {
      const item = found.get(itemKey(keys.farmTag(userId, id)));
      return item ? [Tag.fromItem(item)] : [];
    });
  },
  async linked(userId, target) {
    const prefix =
      'farmId' in target
        ? keys.farmTagLinksPrefix(target.farmId, userId)
        : keys.fieldTagLinksPrefix(target.fieldId, userId);
    return (await queryAll(prefix)).map((item) => parseIdFromSk(String(item.sk)));
  },
  async create(tag, link, nameTaken) {
    const ops: TxOp[] = [
      tx.put({ ...keys.farmTag(tag.userId, tag.id), ...Tag.toItem(tag) }, NOT_EXISTS),
      tx.put(nameItem(tag), NOT_EXISTS, nameTaken),
    ];
    if (link) ops.push(tx.put(linkItem(tag.userId, tag.id, link)));
    await transact(ops);
  },
  async update(next, previous, refuse) {
    const ops: TxOp[] = [
      tx.update(
        keys.farmTag(next.userId, next.id),
        {
          expression: 'SET tag = :tag, color = :color',
          condition: EXISTS,
          values: { ':tag': next.tag, ':color': next.color },
        },
        refuse.gone,
      ),
    ];
    if (normalizeName(next.tag) !== normalizeName(previous.tag))
      ops.push(
        tx.put(nameItem(next), NOT_EXISTS, refuse.nameTaken),
        tx.delete(keys.farmTagName(previous.userId, previous.tag)),
      );
    await transact(ops);
  },
  async remove(tag, gone) {
    await transact([
      tx.delete(keys.farmTag(tag.userId, tag.id), EXISTS, gone),
      tx.delete(keys.farmTagName(tag.userId, tag.tag)),
    ]);
    const links = await queryAll<Item & Key>({ pk: keys.tagLinksIndexPk(tag.userId, tag.id), index: 'gsi1' });
    await batchDelete(links.map(({ pk, sk }) => ({ pk, sk })));
  },
  async link(userId, tagId, target, refuse) {
    const ops = [
      tx.put(linkItem(userId, tagId, target)),
      tx.check(keys.farmTag(userId, tagId), EXISTS, refuse.tagGone),
    ];
    if ('fieldId' in target) ops.push(tx.check(keys.field(target.fieldId), EXISTS, refuse.targetGone));
    await transact(ops);
  },
  async unlink(userId, tagId, target) {
    await batchDelete([linkKey(userId, tagId, target)]);
  },
};

/** The caller's tags on each farm, for getfields (lib/fields/list.ts). */
export async function tagsOfFarms(userId: number, farmIds: number[]): Promise<Map<number, Tag[]>> {
  const links = await Promise.all(
    farmIds.map(async (farmId) => [farmId, await dynamoTagRepository.linked(userId, { farmId })] as const),
  );
  const tags = new Map(
    (await dynamoTagRepository.tagsByIds(userId, [...new Set(links.flatMap(([, ids]) => ids))])).map((t) => [t.id, t]),
  );
  return new Map(links.map(([farmId, ids]) => [farmId, ids.flatMap((id) => (tags.has(id) ? [tags.get(id)!] : []))]));
}
