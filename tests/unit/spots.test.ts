// lib/spots against memory: spots, texts, images, tags and listings without DynamoDB, S3 or SQS (the
// repository, field gate, image store and publisher are parameters; tests/spots.test.ts and
// tests/spot-images-and-sheets.test.ts run the same rules through the API and the local stack).

import { v1 as uuidV1 } from 'uuid';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { LostRace } from '../../lib/db/retry';
import { DomainError } from '../../lib/errors';
import { COMMON_TAGS } from '../../lib/spots/catalogue';
import { SPOT_CODES } from '../../lib/spots/codes';
import type { DeclaredImage } from '../../lib/spots/images';
import { type Spot, type SpotMessage, tagRefKey } from '../../lib/spots/model';
import {
  type ImageStore,
  type SpotRepository,
  type SpotWrite,
  type SpotWriteRefusals,
  spotsService,
} from '../../lib/spots/service';
import type { SpotTag } from '../../lib/spots/tags';
import { memoryFarm, memoryGate } from './helpers/memory-gate';

/** Items a write takes in DynamoDB (lib/spots/repository.ts), to refuse what one transaction cannot hold. */
const itemsOf = (w: SpotWrite) =>
  (w.created ? 5 : 0) +
  (w.replaced ? (w.replaced.next.fieldId === w.replaced.previous.fieldId ? 1 : 5) : 0) +
  (w.counters ? 1 : 0) +
  (w.deleted ? 3 : 0) +
  (w.tagsCreated?.length ?? 0) +
  (w.tagCounts?.length ?? 0) +
  (w.texts ?? []).reduce((n, t) => n + (t.movedFrom ? 3 : 2), 0) +
  2 * (w.textsRemoved?.length ?? 0) +
  (w.imagesDeclared?.length ?? 0) +
  (w.imagesRemoved?.length ?? 0);

function memory() {
  const spots = new Map<string, Spot>(); // field|uuid
  const messages = new Map<number, SpotMessage[]>();
  const images = new Map<string, DeclaredImage>(); // uuid|spot
  const tags = new Map<string, SpotTag>(); // tagRefKey
  const sampleSets = new Map<string, { id: number; type: string }>();
  const sampleTypes = new Map<string, number>();
  const ids = { spot: 0, sample_set: 0, sample_set_type: 0 };
  let loseNext = false;
  /** The farms' index holds every spot (its backfill done): lists without a field read by farm. */
  const byFarm = { done: false };
  const reads = { fieldIndex: 0, farmIndex: 0, spots: 0, messages: 0, pageSizes: [] as Array<number | undefined> };
  const at = (fieldId: number, uuid: string) => `${fieldId}|${uuid.toLowerCase()}`;
  const newestOf = async function* (found: Spot[], from: string, to: string, counter: 'fieldIndex' | 'farmIndex') {
    reads[counter] += 1;
    const key = (s: Spot) => `${s.createdAt}#${s.uuid}`;
    for (const spot of found.filter((s) => key(s) >= from && key(s) <= to).sort((a, b) => (key(a) < key(b) ? 1 : -1))) {
      reads.spots += 1;
      yield spot;
    }
  };
  const current = (spot: Spot) => spots.get(at(spot.fieldId, spot.uuid));
  const repository: SpotRepository = {
    nextId: async (sequence) => ++ids[sequence],
    spotFields: async (uuid) => [...spots.values()].filter((s) => s.uuid === uuid.toLowerCase()).map((s) => s.fieldId),
    spot: async (fieldId, uuid) => spots.get(at(fieldId, uuid)),
    spotById: async (id) => [...spots.values()].find((s) => s.id === id),
    spotsNamed: async (uuids, fieldIds) =>
      [...spots.values()].filter((s) => uuids.includes(s.uuid) && fieldIds.has(s.fieldId)),
    fieldSpots: (fieldId, from, to, pageSize) => {
      reads.pageSizes.push(pageSize);
      return newestOf(
        [...spots.values()].filter((s) => s.fieldId === fieldId),
        from,
        to,
        'fieldIndex',
      );
    },
    farmSpots: (farmId, from, to) =>
      newestOf(
        [...spots.values()].filter((s) => s.farmId === farmId),
        from,
        to,
        'farmIndex',
      ),
    byFarm: async () => byFarm.done,
    groupMembers: async (group) => [...spots.values()].filter((s) => s.groupUuid === group),
    messages: async (spotId, limit) => {
      reads.messages += 1;
      return [...(messages.get(spotId) ?? [])]
        .sort((a, b) => (a.timestampUsr < b.timestampUsr ? 1 : -1))
        .slice(0, limit);
    },
    messageSpots: async (uuid) =>
      [...messages.entries()].filter(([, list]) => list.some((m) => m.uuid === uuid.toLowerCase())).map(([id]) => id),
    message: async (spotId, uuid) => messages.get(spotId)?.find((m) => m.uuid === uuid.toLowerCase()),
    images: async (uuid) => [...images.values()].filter((i) => i.uuid === uuid.toLowerCase()),
    markUploaded: async (image, contentType, size) =>
      void images.set(`${image.uuid}|${image.spotId}`, { ...image, uploaded: true, contentType, size }),
    sampleSetType: async (type) => sampleTypes.get(type),
    registerSampleSetType: async (type, id) => void sampleTypes.set(type, id),
    sampleSet: async (ownerId, uuid) => sampleSets.get(`${ownerId}|${uuid.toLowerCase()}`),
    registerSampleSet: async (ownerId, uuid, set) => void sampleSets.set(`${ownerId}|${uuid.toLowerCase()}`, set),
    tags: async (refs) =>
      new Map(refs.flatMap((r) => (tags.has(tagRefKey(r)) ? [[tagRefKey(r), tags.get(tagRefKey(r))!]] : []))),
    tagsOfUser: async (userId) => [...tags.values()].filter((t) => t.ownerId === userId && !t.deleted),
    async createTag(tag) {
      if (tags.has(tagRefKey(tag))) return false;
      tags.set(tagRefKey(tag), {
        uuid: tag.uuid,
        tag: tag.tag,
        ownerId: tag.ownerId,
        translatable: false,
        deleted: false,
        spotCount: tag.spotCount,
      });
      return true;
    },
    async renameTag(ownerId, uuid, name) {
      const key = tagRefKey({ ownerId, uuid });
      tags.set(key, { ...tags.get(key)!, tag: name });
    },
    async deleteTag(ownerId, uuid, inUse) {
      const key = tagRefKey({ ownerId, uuid });
      if (tags.get(key)!.spotCount > 0) throw inUse();
      tags.set(key, { ...tags.get(key)!, deleted: true });
    },
    async write(w: SpotWrite, refuse: SpotWriteRefusals) {
      if (itemsOf(w) > 100) throw refuse.tooLarge();
      if (loseNext) {
        loseNext = false;
        throw new LostRace('changed');
      }
      if (w.created && spots.has(at(w.created.fieldId, w.created.uuid))) throw new LostRace('created');
      for (const spot of [w.replaced?.previous, w.counters?.spot, w.deleted?.spot])
        if (spot && current(spot)?.version !== spot.version) throw new LostRace('stale');
      for (const m of w.textsRemoved ?? [])
        if (!messages.get(m.spotId)?.some((x) => x.uuid === m.uuid)) throw refuse.gone();
      if (w.created) spots.set(at(w.created.fieldId, w.created.uuid), w.created);
      if (w.replaced) {
        spots.delete(at(w.replaced.previous.fieldId, w.replaced.previous.uuid));
        spots.set(at(w.replaced.next.fieldId, w.replaced.next.uuid), w.replaced.next);
      }
      if (w.counters) {
        const spot = current(w.counters.spot)!;
        spots.set(at(spot.fieldId, spot.uuid), {
          ...spot,
          totalMsgs: spot.totalMsgs + w.counters.messages,
          totalImgs: spot.totalImgs + w.counters.images,
          version: spot.version + 1,
        });
      }
      if (w.deleted) spots.delete(at(w.deleted.spot.fieldId, w.deleted.spot.uuid));
      for (const tag of w.tagsCreated ?? []) await repository.createTag(tag);
      for (const { tag, delta } of w.tagCounts ?? [])
        tags.set(tagRefKey(tag), {
          ...tags.get(tagRefKey(tag))!,
          spotCount: tags.get(tagRefKey(tag))!.spotCount + delta,
        });
      for (const m of w.textsRemoved ?? [])
        messages.set(
          m.spotId,
          messages.get(m.spotId)!.filter((x) => x.uuid !== m.uuid),
        );
      for (const { message } of w.texts ?? [])
        messages.set(message.spotId, [
          ...(messages.get(message.spotId) ?? []).filter((x) => x.uuid !== message.uuid),
          message,
        ]);
      for (const { spotId, image } of w.imagesDeclared ?? [])
        images.set(`${image.uuid}|${spotId}`, { uuid: image.uuid, spotId, uploaded: false });
      for (const { spotId, uuid } of w.imagesRemoved ?? []) images.delete(`${uuid}|${spotId}`);
    },
  };
  const files = new Map<string, { content: Buffer; contentType: string }>();
  const removed: string[] = [];
  const store: ImageStore = {
    put: async (spotId, uuid, content, contentType) => void files.set(`${spotId}/${uuid}`, { content, contentType }),
    presign: async (spotId, uuid) => ({ url: `memory://${spotId}/${uuid}`, fields: {} }),
    head: async (spotId, uuid) => {
      const file = files.get(`${spotId}/${uuid}`);
      return file && { size: file.content.length, contentType: file.contentType };
    },
    get: async (spotId, uuid) => files.get(`${spotId}/${uuid}`),
    signedUrl: async (spotId, uuid) => `memory://${spotId}/${uuid}?signed`,
    remove: async (spotId, uuids) => void removed.push(...uuids.map((u) => `${spotId}/${u}`)),
  };
  return { repository, store, spots, tags, images, files, removed, byFarm, reads, loseNext: () => (loseNext = true) };
}

const caller = { user: { id: 9 } } as Principal;
const INSIDE = 'POINT(0.005 0.005)';
const ZONE = 'POLYGON((0.001 0.001, 0.001 0.002, 0.002 0.002, 0.002 0.001, 0.001 0.001))';
let clock = Date.parse('2026-11-23T10:00:00Z');

function setup(more: Partial<Parameters<typeof spotsService>[0]> = {}) {
  const store = memory();
  const published: Array<[string, Record<string, unknown>]> = [];
  const service = spotsService({
    repository: store.repository,
    fields: memoryGate(),
    images: store.store,
    publish: async (name, data) => published.push([name, data]),
    now: () => new Date((clock += 1000)),
    ...more,
  });
  return { ...store, service, published };
}

const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? error.code : error),
  );
const text = (imgs: string[] = [], body = 'seen') => ({
  uuid: uuidV1(),
  text: body,
  timestamp_usr: `${new Date(clock).toISOString().slice(0, 19)}Z`,
  imgs: imgs.map((uuid) => ({ uuid, coordinate: INSIDE })),
});

describe('spot rules (repository in memory)', () => {
  it('creates a spot inside its field with new and common tags and texts with images; a uuid sent again adds only new texts', async () => {
    const { service, tags, images } = setup();
    const uuid = uuidV1();
    const first = text([uuidV1()]);
    const spot = await service.createSpot(caller, {
      uuid,
      fieldId: 1,
      shape: ZONE,
      tags: [{ tag: 'pests' }, { uuid: COMMON_TAGS[0]!.uuid }],
      texts: [first],
    });
    expect(spot).toMatchObject({ kind: 'polygon', totalMsgs: 1, totalImgs: 1, fieldId: 1 });
    expect(spot.areaHa).toBeGreaterThan(0);
    expect([...tags.values()].map((t) => [t.tag, t.spotCount])).toEqual([['pests', 1]]);
    const again = await service.createSpot(caller, { uuid, fieldId: 1, shape: ZONE, texts: [first, text()] });
    expect([again.id, again.totalMsgs, again.totalImgs, images.size]).toEqual([spot.id, 2, 1, 1]);
    expect(await codeOf(service.createSpot(caller, { uuid, fieldId: 2, shape: INSIDE }))).toBe(SPOT_CODES.WRONG_FORMAT);
  });

  it('refuses geometry outside the field (57), bad geometry (56), a read-only field (12), an unseen one (404) and refuses more than one write holds, storing nothing', async () => {
    const { service, spots } = setup();
    expect(await codeOf(service.createSpot(caller, { fieldId: 1, shape: 'POINT(1 1)' }))).toBe(
      SPOT_CODES.OUTSIDE_FIELD,
    );
    expect(await codeOf(service.createSpot(caller, { fieldId: 1, shape: 'POINT(x y)' }))).toBe(
      SPOT_CODES.INVALID_GEOMETRY,
    );
    expect(await codeOf(service.createSpot(caller, { fieldId: 3, shape: INSIDE }))).toBe(SPOT_CODES.NO_PERMISSION);
    expect(await codeOf(service.createSpot(caller, { fieldId: 4, shape: INSIDE }))).toBe(SPOT_CODES.NOT_FOUND);
    expect(spots.size).toBe(0);
    // the most a create may carry fits in one write; replacing all of it at once does not
    const crowded = () => Array.from({ length: 10 }, () => text(Array.from({ length: 5 }, () => uuidV1())));
    const spot = await service.createSpot(caller, {
      fieldId: 1,
      shape: INSIDE,
      texts: crowded(),
      tags: Array.from({ length: 10 }, (_, i) => ({ tag: `t${i}` })),
    });
    expect(await codeOf(service.patchSpot(caller, spot.uuid, { texts: crowded() }))).toBe(SPOT_CODES.WRONG_FORMAT);
    expect((await service.locateSpot(caller, spot.uuid)).spot).toMatchObject({
      version: 1,
      totalMsgs: 10,
      totalImgs: 50,
    });
  });

  it('patches texts as the complete list (removed texts release their image files) and tags as the complete set, retrying a lost race', async () => {
    const { service, tags, removed, loseNext } = setup();
    const [kept, dropped] = [text(), text([uuidV1(), uuidV1()])];
    const spot = await service.createSpot(caller, {
      fieldId: 1,
      shape: INSIDE,
      texts: [kept, dropped],
      tags: [{ tag: 'a' }],
    });
    loseNext();
    const patched = await service.patchSpot(caller, spot.uuid, {
      texts: [{ ...kept, text: 'edited' }],
      tags: [{ tag: 'b' }],
      fieldId: 2,
    });
    expect(patched).toMatchObject({ totalMsgs: 1, totalImgs: 0, fieldId: 2, version: 2 });
    expect(removed).toHaveLength(2);
    expect(Object.fromEntries([...tags.values()].map((t) => [t.tag, t.spotCount]))).toEqual({ a: 0, b: 1 });
    expect((await service.messagesOf(spot.id)).map((m) => m.text)).toEqual(['edited']);
  });

  it('deletes a spot: its tags count it no more and the worker is told to remove its contents', async () => {
    const { service, published } = setup();
    const spot = await service.createSpot(caller, { fieldId: 1, shape: INSIDE, tags: [{ tag: 'gone' }] });
    const [tag] = await service.searchTags(caller, { general: false, user: true });
    expect(await codeOf(service.deleteTag(caller, tag!.uuid))).toBe(SPOT_CODES.TAG_IN_USE);
    await service.deleteSpot(caller, spot.uuid);
    expect(published).toEqual([['SPOT_DELETED.V1', { spot_id: spot.id }]]);
    await service.deleteTag(caller, tag!.uuid);
    expect(await service.searchTags(caller, { general: false, user: true })).toEqual([]);
    expect(
      (
        await service.createTags(caller, [
          { uuid: tag!.uuid, tag: 'again' },
          { uuid: COMMON_TAGS[0]!.uuid, tag: 'x' },
        ])
      ).map((t) => t.ignored),
    ).toEqual([true, true]);
    expect(await codeOf(service.renameTag(caller, COMMON_TAGS[0]!.uuid, 'x'))).toBe(SPOT_CODES.NO_PERMISSION);
  });

  it('lists readable spots newest first by row offset or cursor; sample spots only with a sample-set filter', async () => {
    const { service } = setup();
    for (let i = 0; i < 3; i++) await service.createSpot(caller, { fieldId: 1, shape: INSIDE, name: `s${i}` });
    await service.createSpot(caller, {
      fieldId: 1,
      shape: INSIDE,
      name: 'sample',
      sampleSet: { sample_set_uuid: uuidV1(), sample_set_type: 'soil' },
    });
    const first = await service.listSpots(caller, {}, { page: 0, pageSize: 2 });
    expect([first.spots.map((s) => s.name), first.continues]).toEqual([['s2', 's1'], true]);
    const next = await service.listSpots(caller, {}, { page: 0, pageSize: 2, cursor: first.cursor });
    expect([next.spots.map((s) => s.name), next.continues]).toEqual([['s0'], false]);
    expect(
      (await service.listSpots(caller, { sampleSetType: 'soil' }, { page: 0, pageSize: -1 })).spots.map((s) => s.name),
    ).toEqual(['sample']);
  });

  it('reads the texts of a listed spot only when it has some (no read per spot of a page without texts)', async () => {
    const { service, reads } = setup();
    const quiet = await service.createSpot(caller, { fieldId: 1, shape: INSIDE, name: 'quiet' });
    const talked = await service.createSpot(caller, { fieldId: 1, shape: INSIDE, name: 'talked', texts: [text()] });
    const page = await service.listSpots(caller, { fieldId: 1 }, { page: 0, pageSize: 50 });
    reads.messages = 0;
    const texts = await Promise.all(page.spots.map(async (s) => [s.name, (await service.listedMessages(s)).length]));
    expect([texts, reads.messages]).toEqual([
      [
        ['talked', 1],
        ['quiet', 0],
      ],
      1,
    ]);
    // once its last text is removed, a spot reads nothing again
    const only = (await service.messagesOf(talked.id))[0]!;
    await service.deleteMessage(caller, only.uuid);
    const after = (await service.listSpots(caller, { fieldId: 1 }, { page: 0, pageSize: 50 })).spots;
    reads.messages = 0;
    expect([await Promise.all(after.map((s) => service.listedMessages(s))), reads.messages]).toEqual([[[], []], 0]);
    expect(quiet.totalMsgs).toBe(0);
  });

  it('asks a field for the spots a page needs, twice that only when a filter may pass over what it reads', async () => {
    const { service, reads } = setup();
    await service.createSpot(caller, { fieldId: 1, shape: INSIDE, name: 'one' });
    const pageOf50 = { page: 0, pageSize: 50 };
    await service.listSpots(caller, { fieldId: 1 }, pageOf50);
    await service.listSpots(caller, { fieldId: 1, tagUuid: uuidV1() }, pageOf50);
    await service.listSpots(caller, { fieldId: 1 }, { page: 0, pageSize: -1 });
    // a page of 50 and one more (whether the list continues); every spot when the page is all of them
    expect(reads.pageSizes).toEqual([51, 102, undefined]);
  });

  it('lists the spots of one named field reading that field, not every field the caller reaches', async () => {
    const gate = memoryGate();
    let everyField = 0;
    const readable = gate.readable;
    gate.readable = (principal) => {
      everyField += 1;
      return readable(principal);
    };
    const { service } = setup({ fields: gate });
    await service.createSpot(caller, { fieldId: 1, shape: INSIDE, name: 'one' });
    const listed = await service.listSpots(caller, { fieldId: 1 }, { page: 0, pageSize: 50 });
    expect([listed.spots.map((s) => s.name), everyField]).toEqual([['one'], 0]);
    expect((await service.listSpots(caller, { fieldId: 99 }, { page: 0, pageSize: 50 })).spots).toEqual([]);
  });

  it('pages every farm the caller reads in proportion to the page, not to its fields: the same answers as field by field', async () => {
    // 120 fields of farm 7 the caller writes (the memory gate reads it whole); 121 it does not see
    const writes = Array.from({ length: 120 }, (_, i) => i + 1);
    const gate = memoryGate({ writes, reads: [] });
    const calls = { readable: 0, profiles: 0, profileReads: 0, consistent: [] as Array<boolean | undefined> };
    const { readable, fieldsById } = gate;
    gate.readable = (principal) => {
      calls.readable += 1;
      return readable(principal);
    };
    gate.fieldsById = (ids, options) => {
      calls.profiles += 1;
      calls.profileReads += ids.length;
      calls.consistent.push(options?.consistent);
      return fieldsById(ids, options);
    };
    const { service, repository, spots, byFarm, reads } = setup({ fields: gate });
    const group = uuidV1();
    for (const fieldId of writes)
      await service.createSpot(caller, {
        fieldId,
        shape: INSIDE,
        name: `s${fieldId}`,
        ...(fieldId % 10 ? {} : { groupUuid: group }),
      });
    await service.createSpot(caller, {
      fieldId: 3,
      shape: INSIDE,
      name: 'sample',
      sampleSet: { sample_set_uuid: uuidV1(), sample_set_type: 'soil' },
    });
    // another tenant's spot in a field of that farm the caller does not read
    const theirs = [...spots.values()][0]!;
    await repository.write(
      {
        created: {
          ...theirs,
          id: 9999,
          uuid: uuidV1(),
          fieldId: 121,
          code: 'THEIRS',
          createdAt: '2030-01-01T00:00:00.000Z',
        },
      },
      {
        uuidTaken: () => new DomainError('conflict', 'x'),
        gone: () => new DomainError('not_found', 'x'),
        tooLarge: () => new DomainError('invalid', 'x'),
        fieldNotFound: () => new DomainError('not_found', 'x'),
      },
    );
    const answer = async (
      filters: Parameters<typeof service.listSpots>[1],
      paging: Parameters<typeof service.listSpots>[2],
    ) => {
      const page = await service.listSpots(caller, filters, paging);
      return {
        names: page.spots.map((s) => s.name),
        continues: page.continues,
        cursor: page.cursor,
        shapes: [...page.groupShapes],
      };
    };
    const cases: Array<Parameters<typeof answer>> = [
      [{}, { page: 0, pageSize: 20 }],
      [{}, { page: 45, pageSize: 20 }],
      [{}, { page: 110, pageSize: 20 }],
      [{ farmId: 7 }, { page: 0, pageSize: -1 }],
      [{ farmId: 8 }, { page: 0, pageSize: 20 }],
      [{ groupUuid: group }, { page: 0, pageSize: 5 }],
      [{ sampleSetType: 'soil' }, { page: 0, pageSize: 5 }],
      [{ uuids: [theirs.uuid, [...spots.values()][5]!.uuid] }, { page: 0, pageSize: 5 }],
    ];
    const fieldByField = [];
    for (const [filters, paging] of cases) fieldByField.push(await answer(filters, paging));
    expect(fieldByField[0]!.names).toHaveLength(20);
    expect(fieldByField[3]!.names).toHaveLength(120);
    const cursor = fieldByField[0]!.cursor!;
    const next = await answer({}, { page: 0, pageSize: 20, cursor });

    byFarm.done = true;
    calls.readable = 0;
    for (const [index, [filters, paging]] of cases.entries())
      expect(await answer(filters, paging), JSON.stringify(filters)).toEqual(fieldByField[index]);
    expect(await answer({}, { page: 0, pageSize: 20, cursor })).toEqual(next);
    expect(calls.readable).toBe(0);
    // a first page: one query of the farm's index, and no field read: the grants and the farm say
    // which of its spots' fields the caller reads (the group's shape too)
    Object.assign(reads, { fieldIndex: 0, farmIndex: 0, spots: 0 });
    Object.assign(calls, { profiles: 0, profileReads: 0, consistent: [] });
    await answer({}, { page: 0, pageSize: 20 });
    expect([reads.farmIndex, reads.fieldIndex]).toEqual([1, 0]);
    expect(reads.spots).toBeLessThanOrEqual(21 + 2); // and the two it skips: theirs, the sample spot
    expect(calls.profileReads).toBe(0);
    // spots asked for by uuid: the profiles of their fields, read eventually consistent (half the units)
    await answer(...cases[7]!);
    expect(calls.profileReads).toBeGreaterThan(0);
    expect(calls.consistent.every((consistent) => consistent === false)).toBe(true);

    // fields deleted whose clean-up has not ended (their spots still in the farm's index): left out
    // of every list by farm, as field by field they are (the farm counts them; no field is read)
    const deleting = [120, 119, 110];
    memoryFarm.deletingFieldIds = deleting;
    try {
      Object.assign(calls, { profiles: 0, profileReads: 0, consistent: [] });
      const all = await answer({}, { page: 0, pageSize: -1 });
      expect(all.names).toHaveLength(120 - deleting.length);
      expect(all.names.filter((name) => deleting.some((id) => name === `s${id}`))).toEqual([]);
      expect((await answer({}, { page: 0, pageSize: 20 })).names).toEqual(all.names.slice(0, 20));
      expect((await answer({}, { page: 20, pageSize: 20 })).names).toEqual(all.names.slice(20, 40));
      expect(calls.profileReads).toBe(0);
      // the group (a spot in every tenth field) without the spots of fields 110 and 120
      expect((await answer({ groupUuid: group }, { page: 0, pageSize: -1 })).names).toEqual(
        Array.from({ length: 10 }, (_, i) => `s${100 - 10 * i}`),
      );
    } finally {
      memoryFarm.deletingFieldIds = [];
    }
  });

  it('stores declared images of writable spots only, checks their type and size, and serves them', async () => {
    const { service, files } = setup();
    const photo = uuidV1();
    await service.createSpot(caller, { fieldId: 1, shape: INSIDE, texts: [text([photo])] });
    const { image } = await service.locateImage(caller, photo, 'write', () => new DomainError('not_found', 'x'));
    expect(await codeOf(service.storeImage(image, Buffer.from('text'), 'text/plain'))).toBe(SPOT_CODES.NOT_STORED);
    expect(await codeOf(service.storeImage(image, Buffer.alloc(6 * 1024 * 1024), 'image/png'))).toBe(
      SPOT_CODES.NOT_STORED,
    );
    await service.storeImage(image, Buffer.from('png!'), 'image/png');
    expect(files.size).toBe(1);
    const { image: stored } = await service.locateImage(caller, photo, 'read', () => new DomainError('not_found', 'x'));
    expect(await service.fetchImage(stored)).toEqual({
      kind: 'inline',
      content: Buffer.from('png!'),
      contentType: 'image/png',
    });
  });

  it('deletes a text with its images and lowers the counts', async () => {
    const { service, removed, images } = setup();
    const t = text([uuidV1()]);
    const spot = await service.createSpot(caller, { fieldId: 1, shape: INSIDE, texts: [t, text()] });
    await service.deleteMessage(caller, t.uuid);
    const { spot: after } = await service.locateSpot(caller, spot.uuid);
    expect([after.totalMsgs, after.totalImgs, images.size, removed.length]).toEqual([1, 0, 0, 1]);
    expect(await codeOf(service.deleteMessage(caller, t.uuid))).toBe(SPOT_CODES.NOT_FOUND);
  });
});
