// lib/samplings/service.ts against memory: samplings without DynamoDB (repository, gate, fields and
// the spots read as samples are parameters; tests/samplings.test.ts runs them through the API).
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { DomainError } from '../../lib/errors';
import { SAMPLING_CODES } from '../../lib/samplings/codes';
import type { Sampling } from '../../lib/samplings/model';
import { type SamplingInput, type SamplingRepository, samplingsService } from '../../lib/samplings/service';
import type { Spot } from '../../lib/spots/model';
import { memoryFarm, memoryField, memoryGate } from './helpers/memory-gate';

function memory() {
  const rows = new Map<string, Sampling>();
  /** The farms' index holds every sampling (its backfill done); the queries of each kind. */
  const byFarm = { done: true };
  const queries = { ofField: 0, ofFarm: 0 };
  const repository: SamplingRepository = {
    fieldOf: async (uuid) => rows.get(uuid)?.fieldId,
    sampling: async (_fieldId, uuid) => rows.get(uuid),
    samplingsOf: async (fieldId) => {
      queries.ofField += 1;
      return [...rows.values()].filter((s) => s.fieldId === fieldId);
    },
    samplingsOfFarm: async (farmId, fieldId) => {
      queries.ofFarm += 1;
      return [...rows.values()]
        .filter((s) => s.farmId === farmId && (fieldId === undefined || s.fieldId === fieldId))
        .sort((a, b) => a.fieldId - b.fieldId || (a.uuid < b.uuid ? -1 : 1));
    },
    byFarm: async () => byFarm.done,
    async create(sampling) {
      if (rows.has(sampling.uuid)) return false;
      rows.set(sampling.uuid, sampling);
      return true;
    },
    setClosed: async (sampling, closedAt) => void rows.set(sampling.uuid, { ...sampling, closedAt }),
  };
  return { repository, rows, byFarm, queries };
}

const GROUP = '9a000000-0000-4000-8000-000000000001';
const SET = '5e000000-0000-4000-8000-000000000001';
const input = (fieldId = 1): SamplingInput => ({
  uuid: '5a000000-0000-4000-8000-00000000000A',
  name: 'Soil 2026',
  fieldId,
  yeargroup: 2026,
  sampleSetUuid: SET,
  zoning: { info: {}, type: 'grid' },
  analysis: { Fertility: [{ name: 'P', unit_id: 1 }], Texture: [{ name: 'Clay', unit_id: 2 }] },
  groups: [{ group_uuid: GROUP, color: '#ff0000', name: 'A' }],
  points: [{ geometry: 'POINT(0.001 0.001)', group_uuid: GROUP }],
});
const spot = {
  code: 'AAA-BBB-CCC',
  uuid: 'sp',
  name: 'Texture',
  groupUuid: GROUP,
  variables: [{ name: 'Clay', unit_id: 2, value: 31 }],
} as unknown as Spot;
const caller = { user: { id: 9 } } as Principal;
const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? (error.code ?? error.kind) : error),
  );

function setup(gate = memoryGate()) {
  const store = memory();
  const service = samplingsService({
    repository: store.repository,
    fields: gate,
    fieldById: async (id) => (id <= 3 ? memoryField(id) : undefined),
    samplesOf: async (_principal, _fieldId, sampleSetUuid) => (sampleSetUuid === SET ? [spot] : []),
    now: () => new Date('2026-11-23T10:00:00Z'),
  });
  return { ...store, service };
}

describe('sampling rules (repository in memory)', () => {
  it('creates a sampling once per uuid; refuses points of unknown groups and unknown fields', async () => {
    const { service, rows } = setup();
    const made = await service.createSampling(input());
    expect(made).toMatchObject({
      uuid: '5a000000-0000-4000-8000-00000000000a',
      closedAt: null,
      createdAt: '2026-11-23T10:00:00.000Z',
    });
    expect((await service.createSampling({ ...input(), name: 'again' })).name).toBe('Soil 2026');
    expect(rows.size).toBe(1);
    expect(
      await codeOf(
        service.createSampling({
          ...input(),
          uuid: undefined,
          points: [{ geometry: 'POINT(0 0)', group_uuid: 'other' }],
        }),
      ),
    ).toBe('invalid');
    expect(await codeOf(service.createSampling({ ...input(4), uuid: undefined }))).toBe('not_found');
  });

  it('reads samplings with their samples from the sample set spots, for readable fields only (-11 otherwise)', async () => {
    const { service } = setup();
    await service.createSampling(input(3));
    const [read] = await service.readSamplings(caller, { fieldId: 3 });
    expect(read!.groups[0]!.samples).toEqual([
      {
        code: 'AAA-BBB-CCC',
        spot_uuid: 'sp',
        spot_data: { variables: [{ name: 'Clay', value: 31, unit_id: 2 }], sampling: { analysis: 'Texture' } },
      },
    ]);
    expect(await codeOf(service.readSamplings(caller, { fieldId: 4 }))).toBe(SAMPLING_CODES.INSUFFICIENT_PERMISSIONS);
    expect(await service.readSamplings(caller, { samplingUuid: 'ffffffff-0000-4000-8000-000000000000' })).toEqual([]);
    expect(await codeOf(service.readSamplings(caller, {}))).toBe(SAMPLING_CODES.WRONG_FORMAT);
  });

  it("answers a farm's analyses from its membership and the caller's grants: no field of it or of another farm read", async () => {
    // farm 7: the caller writes 1, reads 3 and 5 (5 being deleted); 4 is a field of the farm it does not see
    const gate = memoryGate({ writes: [1], reads: [3, 5], fields: new Map([[4, memoryField(4)]]) });
    const asked = { readable: 0, profiles: 0 };
    gate.readable = async () => {
      asked.readable += 1;
      return [];
    };
    gate.fieldsById = async () => {
      asked.profiles += 1;
      return new Map();
    };
    const { service, rows, byFarm, queries } = setup(gate);
    const made = await service.createSampling(input(1));
    expect(made.farmId).toBe(7);
    for (const fieldId of [5, 4, 3]) {
      const uuid = `5a000000-0000-4000-8000-00000000000${fieldId}`;
      rows.set(uuid, { ...made, uuid, fieldId });
    }
    const analyses = async () =>
      (await service.samplingAnalyses(caller, { farmId: 7 })).map((a) => [a.farm_id, a.field_id]);
    memoryFarm.deletingFieldIds = [5];
    try {
      // the farm's index: one query
      expect(await analyses()).toEqual([
        [7, 1],
        [7, 3],
      ]);
      expect(queries).toEqual({ ofField: 0, ofFarm: 1 });
      // before its backfill: the farm's membership, a query per field the caller reads
      byFarm.done = false;
      expect(await analyses()).toEqual([
        [7, 1],
        [7, 3],
      ]);
      expect(queries).toEqual({ ofField: 2, ofFarm: 1 });
    } finally {
      memoryFarm.deletingFieldIds = [];
    }
    expect(asked).toEqual({ readable: 0, profiles: 0 });
  });

  it('answers analyses by farm over its readable fields, and closes and reopens', async () => {
    const { service } = setup();
    await service.createSampling(input(1));
    expect(
      (await service.samplingAnalyses(caller, { farmId: 7 })).map((a) => [
        a.farm_id,
        a.field_id,
        Object.keys(a.analysis),
      ]),
    ).toEqual([[7, 1, ['Fertility', 'Texture']]]);
    expect(await codeOf(service.samplingAnalyses(caller, { farmId: 8 }))).toBe(SAMPLING_CODES.INSUFFICIENT_PERMISSIONS);
    expect((await service.closeSampling('5A000000-0000-4000-8000-00000000000A', '2026-12-01T00:00:00Z')).closedAt).toBe(
      '2026-12-01T00:00:00Z',
    );
    expect((await service.closeSampling('5a000000-0000-4000-8000-00000000000a', null)).closedAt).toBeNull();
  });
});
