// lib/rotations/service.ts against memory: the rules of rotations without DynamoDB (repository, field
// gate and crops are parameters; tests/rotations.test.ts runs them through the API).
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import type { Crop } from '../../lib/crops/catalogue';
import { LostRace } from '../../lib/db/retry';
import { Conflict } from '../../lib/errors';
import { ROTATION_CODES } from '../../lib/rotations/codes';
import { type Rotation, type RotationRepository, rotationsService } from '../../lib/rotations/service';
import { memoryFarm, memoryField, memoryGate } from './helpers/memory-gate';

function memory() {
  const rows = new Map<string, Rotation>();
  const campaigns = new Map<string, number>();
  let staleOnce = false;
  const indexed = { value: true };
  /** Reads of the repository by kind: a list must not read field by field. */
  const reads = { ofField: 0, ofFarm: 0 };
  const at = (fieldId: number, uuid: string) => `${fieldId}|${uuid}`;
  const repository: RotationRepository = {
    rotationsOf: async (fieldId) => {
      reads.ofField += 1;
      return [...rows.values()].filter((r) => r.fieldId === fieldId);
    },
    async rotationsIn(farmId, yeargroup, fieldId) {
      if (fieldId !== undefined && yeargroup === undefined) return repository.rotationsOf(fieldId);
      reads.ofFarm += 1;
      return [...rows.values()].filter(
        (r) =>
          r.farmId === farmId &&
          (yeargroup === undefined || r.yeargroup === yeargroup) &&
          (fieldId === undefined || r.fieldId === fieldId),
      );
    },
    indexed: async () => indexed.value,
    rotation: async (fieldId, uuid) => rows.get(at(fieldId, uuid.toLowerCase())),
    rotationFields: async (uuid) =>
      [...rows.values()].filter((r) => r.uuid === uuid.toLowerCase()).map((r) => r.fieldId),
    async create(rotation) {
      if (rows.has(at(rotation.fieldId, rotation.uuid))) throw new Conflict('taken');
      rows.set(at(rotation.fieldId, rotation.uuid), rotation);
    },
    async save(rotation) {
      if (staleOnce || rows.get(at(rotation.fieldId, rotation.uuid))?.version !== rotation.version) {
        staleOnce = false;
        throw new LostRace('changed');
      }
      rows.set(at(rotation.fieldId, rotation.uuid), { ...rotation, version: rotation.version + 1 });
    },
    async campaignId(fieldId, yeargroup) {
      const key = `${fieldId}|${yeargroup}`;
      if (!campaigns.has(key)) campaigns.set(key, campaigns.size + 1);
      return campaigns.get(key)!;
    },
  };
  return { repository, rows, reads, indexed, loseNextSave: () => (staleOnce = true) };
}

const SOYBEAN: Crop = {
  id: 1,
  name: 'Soybean',
  userCrop: false,
  varieties: [
    { id: 11, name: 'DM 46' },
    { id: 12, name: 'NS 4619' },
  ],
} as Crop;
const MAIZE: Crop = { id: 2, name: 'Maize', userCrop: false, varieties: [{ id: 21, name: 'DK 72' }] } as Crop;
const crops = async (_userId: number, cropId: number) => [SOYBEAN, MAIZE].find((c) => c.id === cropId);
const spanish = new Map([[2, memoryField(2, { country: 'ES' })]]);
const caller = { user: { id: 9 } } as Principal;

function setup(gate = memoryGate({ fields: spanish })) {
  const store = memory();
  return {
    ...store,
    service: rotationsService({ repository: store.repository, fields: gate, crops }),
  };
}

const input = (overrides = {}) => ({
  fieldId: 1,
  cropId: 1,
  yeargroup: 2026,
  startDate: '2026-10-01',
  endDate: '2027-03-31',
  ...overrides,
});
const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error: { code?: unknown }) => error.code,
  );

describe('rotation rules (repository in memory)', () => {
  it('creates a rotation in the field campaign with the field area by default; a client uuid sent again answers it', async () => {
    const { service, rows } = setup();
    const first = await service.createRotation(caller, input({ uuid: 'AB000000-0000-4000-8000-000000000001' }));
    expect(first).toMatchObject({
      uuid: 'ab000000-0000-4000-8000-000000000001',
      ha: 123.2,
      cycleId: 1,
      cropOrder: 1,
      crop: SOYBEAN,
    });
    const again = await service.createRotation(
      caller,
      input({ uuid: 'AB000000-0000-4000-8000-000000000001', cropId: 2 }),
    );
    expect(again.cropId).toBe(1);
    expect(rows.size).toBe(1);
    expect(
      await codeOf(service.createRotation(caller, input({ uuid: 'ab000000-0000-4000-8000-000000000001', fieldId: 2 }))),
    ).toBe(ROTATION_CODES.WRONG_FORMAT);
  });

  it('refuses an unknown crop, dates in the wrong order, DGC outside Spain and more hectares than the field', async () => {
    const { service, rows } = setup();
    expect(await codeOf(service.createRotation(caller, input({ cropId: 99 })))).toBe(ROTATION_CODES.INVALID_CROP);
    expect(await codeOf(service.createRotation(caller, input({ endDate: '2026-09-30' })))).toBe(
      ROTATION_CODES.INVALID_DATES,
    );
    expect(await codeOf(service.createRotation(caller, input({ metadata: { DGC: 'x' } })))).toBe(
      ROTATION_CODES.WRONG_FORMAT,
    );
    expect(await codeOf(service.createRotation(caller, input({ ha: 124 })))).toBe(ROTATION_CODES.HECTARES_EXCEED_FIELD);
    expect(rows.size).toBe(0);
    // within the rounding tolerance, and DGC in Spain, are accepted
    await service.createRotation(caller, input({ ha: 123.5 }));
    await service.createRotation(caller, input({ fieldId: 2, metadata: { DGC: 'x' } }));
    expect(rows.size).toBe(2);
  });

  it('answers not allowed (-11) for a read-only field and for a field the caller cannot see', async () => {
    const { service } = setup();
    expect(await codeOf(service.createRotation(caller, input({ fieldId: 3 })))).toBe(ROTATION_CODES.NOT_ALLOWED);
    expect(await codeOf(service.createRotation(caller, input({ fieldId: 4 })))).toBe(ROTATION_CODES.NOT_ALLOWED);
  });

  it('lists the rotations of the fields the caller reads with one read per farm, never one per field', async () => {
    const writes = Array.from({ length: 30 }, (_, i) => i + 1);
    const { service, reads } = setup(memoryGate({ writes, reads: [40] }));
    for (const fieldId of [...writes, 40, 50])
      await service.createRotation(caller, input({ fieldId })).catch(() => undefined);
    for (const fieldId of [3, 7]) await service.createRotation(caller, input({ fieldId, yeargroup: 2025 }));
    const before = { ...reads };
    const listed = await service.listRotations(caller, { yeargroup: 2026 });
    expect(listed.map((r) => r.fieldId)).toEqual(writes); // 40 is read-only (created nothing), 50 unseen
    expect(listed.every((r) => r.yeargroup === 2026 && r.cropOrder === 1)).toBe(true);
    expect(reads.ofField - before.ofField).toBe(0);
    expect(reads.ofFarm - before.ofFarm).toBe(1);
    // every campaign: the same one read, crop orders per campaign
    const all = await service.listRotations(caller, {});
    expect(all.filter((r) => r.fieldId === 3).map((r) => [r.yeargroup, r.cropOrder])).toEqual([
      [2025, 1],
      [2026, 1],
    ]);
    expect(reads.ofField - before.ofField).toBe(0);
    expect(reads.ofFarm - before.ofFarm).toBe(2);
    // the farm filter keeps the one read; a farm the caller does not read is no read at all
    expect(await service.listRotations(caller, { yeargroup: 2026, farmsId: [8] })).toEqual([]);
    expect(reads.ofFarm - before.ofFarm).toBe(2);
  });

  it("shows each rotation's field from its item, reading only the fields of older rotations; a field being deleted is left out", async () => {
    const gate = memoryGate({ writes: [1, 2, 3], fields: spanish });
    const profileReads: number[] = [];
    const { fieldsById } = gate;
    gate.fieldsById = (ids, options) => {
      profileReads.push(...ids);
      return fieldsById(ids, options);
    };
    const { service, rows } = setup(gate);
    for (const fieldId of [1, 2, 3]) await service.createRotation(caller, input({ fieldId }));
    const shown = (list: Awaited<ReturnType<typeof service.listRotations>>) =>
      list.map((r) => [r.fieldId, r.field.uuid, r.field.name, r.farm.id]);
    const expected = [1, 2, 3].map((id) => [id, memoryField(id).uuid, memoryField(id).name, 7]);
    expect(shown(await service.listRotations(caller, { yeargroup: 2026 }))).toEqual(expected);
    expect(profileReads).toEqual([]);
    // a rotation written before rotations named their field: its field is read, and it shows the same
    const older = [...rows.values()].find((r) => r.fieldId === 2)!;
    Object.assign(older, { fieldUuid: null, fieldName: null });
    expect(shown(await service.listRotations(caller, { yeargroup: 2026 }))).toEqual(expected);
    expect(profileReads).toEqual([2]);
    // its next write names it again
    await service.patchRotation(caller, older.uuid, { ha: 10 });
    expect([...rows.values()].find((r) => r.fieldId === 2)).toMatchObject({ fieldUuid: memoryField(2).uuid });
    // a field deleted whose clean-up has not ended (its farm counts it): its rotations are left out
    memoryFarm.deletingFieldIds = [3];
    try {
      expect(shown(await service.listRotations(caller, { yeargroup: 2026 }))).toEqual(expected.slice(0, 2));
    } finally {
      memoryFarm.deletingFieldIds = [];
    }
  });

  it('lists field by field until the farms index holds every rotation (its backfill is done)', async () => {
    const { service, reads, indexed } = setup();
    await service.createRotation(caller, input());
    await service.createRotation(caller, input({ fieldId: 2 }));
    indexed.value = false;
    const before = { ...reads };
    expect((await service.listRotations(caller, { yeargroup: 2026 })).map((r) => r.fieldId)).toEqual([1, 2]);
    expect(reads.ofFarm - before.ofFarm).toBe(0);
    expect(reads.ofField - before.ofField).toBe(3); // fields 1, 2 and 3 (read-only, no rotation)
  });

  it('creates what it can in a batch, lists the rest by position, and answers crop orders after the whole batch', async () => {
    const { service } = setup();
    const batch = await service.createRotations(caller, [
      { input: input({ startDate: '2026-11-01' }) },
      { malformed: 'crop_id is required' },
      { input: input({ cropId: 99 }) },
      { input: input({ cropId: 2, startDate: '2026-09-01' }) },
    ]);
    expect(batch.refused).toEqual([
      { index: 1, code: ROTATION_CODES.WRONG_FORMAT, message: 'crop_id is required' },
      { index: 2, code: ROTATION_CODES.INVALID_CROP, message: 'crop 99 does not exist' },
    ]);
    expect(batch.created.map((r) => [r.cropId, r.cropOrder])).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });

  it('changes crop keeping only varieties of the new crop, retrying a lost race, and refuses foreign varieties', async () => {
    const { service, loseNextSave } = setup();
    const { uuid } = await service.createRotation(caller, input());
    expect((await service.addVarieties(caller, uuid, [11, 12])).filter((v) => v.selected).map((v) => v.id)).toEqual([
      11, 12,
    ]);
    expect(await codeOf(service.addVarieties(caller, uuid, [21]))).toBe(ROTATION_CODES.WRONG_FORMAT);
    loseNextSave();
    const changed = await service.patchRotation(caller, uuid, { cropId: 2 });
    expect(changed).toMatchObject({ cropId: 2, varietyIds: [], version: 3 });
    expect(await codeOf(service.patchRotation(caller, uuid, { endDate: '2020-01-01' }))).toBe(
      ROTATION_CODES.INVALID_DATES,
    );
  });
});
