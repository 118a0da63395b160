// lib/tags/service.ts against memory: farm and field tag rules without DynamoDB (the repository and
// gate are parameters; tests/farm-and-field-tags.test.ts runs them through the API).
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { normalizeName } from '../../lib/db/keys';
import { DomainError } from '../../lib/errors';
import { TAG_CODES } from '../../lib/tags/codes';
import { type Tag, type TagRepository, type TagTarget, tagsService } from '../../lib/tags/service';
import { memoryField, memoryGate } from './helpers/memory-gate';

function memory() {
  const tags = new Map<number, Tag>();
  const links = new Set<string>(); // tagId|farm:1 or tagId|field:1
  let ids = 0;
  const at = (tagId: number, target: TagTarget) =>
    `${tagId}|${'farmId' in target ? `farm:${target.farmId}` : `field:${target.fieldId}`}`;
  const nameUsed = (tag: Tag) =>
    [...tags.values()].some(
      (t) => t.userId === tag.userId && t.id !== tag.id && normalizeName(t.tag) === normalizeName(tag.tag),
    );
  const repository: TagRepository = {
    nextId: async () => ++ids,
    tag: async (userId, tagId) => (tags.get(tagId)?.userId === userId ? tags.get(tagId) : undefined),
    tagsOf: async (userId) => [...tags.values()].filter((t) => t.userId === userId),
    tagsByIds: async (userId, tagIds) =>
      tagIds.flatMap((id) => (tags.get(id)?.userId === userId ? [tags.get(id)!] : [])),
    linked: async (_userId, target) =>
      [...links].filter((l) => l.endsWith(at(0, target).slice(1))).map((l) => Number(l.split('|')[0])),
    async create(tag, link, nameTaken) {
      if (nameUsed(tag)) throw nameTaken();
      tags.set(tag.id, tag);
      if (link) links.add(at(tag.id, link));
    },
    async update(next, _previous, refuse) {
      if (nameUsed(next)) throw refuse.nameTaken();
      tags.set(next.id, next);
    },
    async remove(tag) {
      tags.delete(tag.id);
      for (const link of [...links]) if (link.startsWith(`${tag.id}|`)) links.delete(link);
    },
    async link(_userId, tagId, target) {
      links.add(at(tagId, target));
    },
    async unlink(_userId, tagId, target) {
      links.delete(at(tagId, target));
    },
  };
  return { repository, tags, links };
}

const caller = { user: { id: 9 } } as Principal;
const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? [error.kind, error.code] : error),
  );

function setup() {
  const store = memory();
  return { ...store, service: tagsService({ repository: store.repository, gate: memoryGate() }) };
}

describe('farm and field tag rules (repository in memory)', () => {
  it('creates a tag with a random colour when none is sent, names unique per user ignoring case; refuses bad colours', async () => {
    const { service } = setup();
    const tag = await service.createTag(caller, { desc: ' Lote norte ', farmId: 7 });
    expect(tag).toMatchObject({ tag: 'Lote norte', userId: 9 });
    expect(tag.color).toMatch(/^[0-9A-F]{6}$/);
    expect(await codeOf(service.createTag(caller, { desc: 'LOTE NORTE' }))).toEqual([
      'conflict',
      TAG_CODES.EXISTS_OR_UNKNOWN,
    ]);
    expect(await codeOf(service.createTag(caller, { desc: 'x', color: '#12345' }))).toEqual([
      'invalid',
      TAG_CODES.INVALID_COLOR,
    ]);
    expect(await codeOf(service.createTag(caller, { desc: 'x', farmId: 8 }))).toEqual([
      'not_found',
      TAG_CODES.EXISTS_OR_UNKNOWN,
    ]);
    expect((await service.tagsOfReadableFarm(caller, 7)).map((t) => t.tag)).toEqual(['Lote norte']);
  });

  it('renames keeping names unique (-6), and deleting a tag removes its links to farms and fields', async () => {
    const { service, links } = setup();
    const a = await service.createTag(caller, { desc: 'a' });
    await service.createTag(caller, { desc: 'b' });
    expect(await codeOf(service.updateTag(caller, { tagId: a.id, desc: 'B' }))).toEqual([
      'conflict',
      TAG_CODES.NAME_TAKEN_ON_UPDATE,
    ]);
    expect(await codeOf(service.updateTag(caller, { tagId: a.id }))).toEqual(['invalid', TAG_CODES.MISSING]);
    expect(await service.updateTag(caller, { tagId: a.id, color: 'abcdef' })).toMatchObject({
      tag: 'a',
      color: 'abcdef',
    });
    await service.linkFarm(caller, a.id, 7);
    expect((await service.linkField(caller, { field_uuid: memoryField(3).uuid }, a.id)).map((t) => t.id)).toEqual([
      a.id,
    ]);
    expect(links.size).toBe(2);
    await service.deleteTag(caller, a.id);
    expect(links.size).toBe(0);
  });

  it('field tags: 403 for a field the caller cannot read, 400 for an unknown tag', async () => {
    const { service } = setup();
    const tag = await service.createTag(caller, { desc: 'a' });
    expect(await codeOf(service.linkField(caller, { field_id: 4 }, tag.id))).toEqual(['forbidden', undefined]);
    expect(await codeOf(service.linkField(caller, { field_id: 1 }, 999))).toEqual(['invalid', undefined]);
    expect(await service.unlinkField(caller, { field_id: 1 }, tag.id)).toEqual([]);
  });
});
