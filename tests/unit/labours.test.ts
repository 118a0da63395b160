// lib/labours/service.ts against memory: the rules of labours without DynamoDB (repositories, field
// gate and crops are parameters; tests/labours.test.ts runs them through the API).
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { accessFrom } from '../../lib/authz/access';
import { LostRace } from '../../lib/db/retry';
import { DomainError } from '../../lib/errors';
import type { Campaign } from '../../lib/fields/campaigns';
import { tallyKey } from '../../lib/fields/labour-tally';
import { MASTER_INPUTS } from '../../lib/inputs/catalogue';
import { blank } from '../../lib/inputs/service';
import { LABOUR_CODES, labourStale, labourTaken } from '../../lib/labours/codes';
import { byDate, LABOUR_TYPE, type Labour, type LabourFilters, STATUS } from '../../lib/labours/model';
import { type LabourCreate, type LabourRepository, type LabourSave, laboursService } from '../../lib/labours/service';
import type { Farm } from '../../lib/platform/model';
import { memoryFarm, memoryField, memoryGate } from './helpers/memory-gate';
import { inputKey, memoryRepository } from './helpers/memory-inputs';

const ROTATION = '7a000000-0000-4000-8000-000000000001';

function memory() {
  const labours = new Map<string, Labour>();
  const campaigns = new Map<string, Campaign>();
  const inputs = memoryRepository();
  let loseNextSave = false;
  const reads = { rotations: 0, labours: 0, whole: 0, fieldIndex: 0, farmIndex: 0, campaigns: 0 };
  /** Campaigns made before the tally (not counted yet): their lists read every labour. */
  const untallied = new Set<string>();
  /** The farms' index and tallies are complete (their backfill done): lists without field ids read by farm. */
  const byFarm = { done: false };
  /** Fields deleted whose campaigns the clean-up job took out of their farms' tallies (their labours not yet deleted). */
  const withdrawn = new Set<number>();
  const inOrder = async function* (found: Labour[], chunk: number, counter: 'fieldIndex' | 'farmIndex') {
    const sorted = found.sort(byDate);
    // read a chunk at a time, as the index's pages are
    for (let start = 0; start < sorted.length; start += chunk) {
      const read = sorted.slice(start, start + chunk);
      reads.labours += read.length;
      reads[counter] += 1;
      yield* read;
    }
  };
  const inDates = (l: Labour, dateFrom?: string, dateTo?: string) =>
    (!dateFrom || l.date >= dateFrom) && (!dateTo || l.date <= dateTo);
  const repository: LabourRepository = {
    homes: async (uuid) =>
      [...labours.values()]
        .filter((l) => l.uuid === uuid.toLowerCase())
        .map((l) => ({ fieldId: l.fieldId, yeargroup: l.yeargroup })),
    labour: async (fieldId, _yeargroup, uuid) => labours.get(`${fieldId}|${uuid.toLowerCase()}`),
    laboursOf: async (fieldId, yeargroup) => {
      reads.whole += 1;
      return [...labours.values()].filter((l) => l.fieldId === fieldId && l.yeargroup === yeargroup);
    },
    laboursByDate: (fieldId, yeargroup, { dateFrom, dateTo, chunk }) =>
      inOrder(
        [...labours.values()].filter(
          (l) => l.fieldId === fieldId && l.yeargroup === yeargroup && inDates(l, dateFrom, dateTo),
        ),
        chunk,
        'fieldIndex',
      ),
    laboursOfFarm: (farmId, yeargroup, { dateFrom, dateTo, chunk }) =>
      inOrder(
        [...labours.values()].filter(
          (l) => l.farmId === farmId && l.yeargroup === yeargroup && inDates(l, dateFrom, dateTo),
        ),
        chunk,
        'farmIndex',
      ),
    byFarm: async () => byFarm.done,
    farmTallies: async (refs) =>
      new Map(
        refs.map((r) => {
          const tally = new Map<string, number>();
          for (const l of labours.values())
            if (l.farmId === r.farmId && l.yeargroup === r.yeargroup && !withdrawn.has(l.fieldId))
              tally.set(tallyKey(l.status, l.typeId), (tally.get(tallyKey(l.status, l.typeId)) ?? 0) + 1);
          return [`${r.farmId}|${r.yeargroup}`, tally];
        }),
      ),
    tallies: async (refs) => {
      reads.campaigns++;
      return new Map<string, { tally: Map<string, number> | undefined; campaign?: Campaign }>(
        refs.map((r) => {
          const key = `${r.fieldId}|${r.yeargroup}`;
          const campaign = campaigns.get(key);
          if (untallied.has(key)) return [key, { tally: undefined, campaign }];
          const tally = new Map<string, number>();
          for (const l of labours.values())
            if (l.fieldId === r.fieldId && l.yeargroup === r.yeargroup)
              tally.set(tallyKey(l.status, l.typeId), (tally.get(tallyKey(l.status, l.typeId)) ?? 0) + 1);
          return [key, { tally, campaign }];
        }),
      );
    },
    // field 1 has a soybean rotation (crop 1) in 2026
    rotations: async (refs) => {
      reads.rotations++;
      return new Map(
        refs
          .filter((r) => r.fieldId === 1 && r.uuid.toLowerCase() === ROTATION)
          .map(() => [`1|${ROTATION}`, { cropId: 1, yeargroup: 2026 }]),
      );
    },
    campaigns: async (refs) => {
      reads.campaigns++;
      return new Map(
        refs.flatMap((r) =>
          campaigns.has(`${r.fieldId}|${r.yeargroup}`)
            ? [[`${r.fieldId}|${r.yeargroup}`, campaigns.get(`${r.fieldId}|${r.yeargroup}`)!]]
            : [],
        ),
      );
    },
    async campaignOf(fieldId, yeargroup, biennial) {
      const key = `${fieldId}|${yeargroup}`;
      if (!campaigns.has(key))
        campaigns.set(key, { id: campaigns.size + 1, fieldId, yeargroup, biennial: biennial ?? false });
      return campaigns.get(key)!;
    },
    mapField: async (mapId) => (mapId === 5 ? 1 : undefined),
    personalInputs: async (refs) =>
      new Map(
        refs.flatMap((r) => {
          const row = inputs.rows.get(inputKey(r.ownerId, r.uuid));
          return row ? [[`${r.ownerId}|${r.uuid}`, row] as const] : [];
        }),
      ),
    async save(change: LabourSave) {
      if (loseNextSave) {
        loseNextSave = false;
        throw new LostRace('changed');
      }
      const stored = labours.get(`${change.labour.fieldId}|${change.labour.uuid}`);
      if (change.previousVersion === undefined && stored) throw labourTaken(change.labour.uuid);
      if (change.previousVersion !== undefined && stored?.version !== change.previousVersion) throw labourStale();
      await inputs.save(change.inputs);
      labours.set(`${change.labour.fieldId}|${change.labour.uuid}`, change.labour);
      const { biennial } = change;
      if (biennial && biennial.value !== undefined)
        campaigns.set(`${biennial.campaign.fieldId}|${biennial.campaign.yeargroup}`, {
          ...biennial.campaign,
          biennial: biennial.value,
        });
    },
    async remove(labour) {
      labours.delete(`${labour.fieldId}|${labour.uuid}`);
    },
  };
  return {
    repository,
    inputs,
    labours,
    campaigns,
    reads,
    untallied,
    byFarm,
    withdrawn,
    loseNext: () => (loseNextSave = true),
  };
}

const caller = { user: { id: 9 } } as Principal;
const crops = async (_userId: number, cropId: number) =>
  cropId === 1 ? { id: 1, name: 'Soja', varieties: [], userCrop: false } : undefined;

function setup() {
  const store = memory();
  let clock = Date.parse('2026-11-23T12:00:00Z');
  const gate = memoryGate({ fields: new Map([[1, memoryField(1)]]) });
  const fieldReads = { every: 0 };
  const readable = gate.readable;
  gate.readable = (principal) => {
    fieldReads.every += 1;
    return readable(principal);
  };
  const service = laboursService({
    repository: store.repository,
    inputs: store.inputs,
    fields: gate,
    crops,
    now: () => new Date(clock),
  });
  return { ...store, service, fieldReads, tick: (ms = 1000) => void (clock += ms) };
}

const sowing = (overrides: Partial<LabourCreate> = {}): LabourCreate => ({
  typeId: LABOUR_TYPE.SOWING,
  status: STATUS.PLANNED,
  yeargroup: 2026,
  date: '2026-11-01',
  fieldId: 1,
  ...overrides,
});
const application = (overrides: Partial<LabourCreate> = {}) =>
  sowing({ typeId: LABOUR_TYPE.APPLICATION, ...overrides });
const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? error.code : error),
  );

describe('labour rules (repositories in memory)', () => {
  it('creates a labour in the field campaign, its surface the field area unless sent; a client uuid sent again answers it', async () => {
    const { service, labours, campaigns } = setup();
    const uuid = 'AB000000-0000-4000-8000-00000000000A';
    const made = await service.createLabour(caller, sowing({ uuid, biennial: true, rotationUuid: ROTATION }));
    expect(made).toMatchObject({
      uuid: uuid.toLowerCase(),
      surface: 123.2,
      campaignId: 1,
      rotationUuid: ROTATION,
      createdAt: '2026-11-23T12:00:00.000Z',
    });
    expect(campaigns.get('1|2026')?.biennial).toBe(true);
    // the same body again is a replay; another body under that uuid a conflict
    expect(await service.createLabour(caller, sowing({ uuid, biennial: true, rotationUuid: ROTATION }))).toEqual(made);
    expect(await codeOf(service.createLabour(caller, sowing({ uuid, status: STATUS.EXECUTED })))).toBe(
      LABOUR_CODES.UUID_IN_USE,
    );
    expect(labours.size).toBe(1);
    const view = await service.getLabour(caller, uuid);
    expect(view).toMatchObject({ biennial: true, rotation: { uuid: ROTATION, cropId: 1, cropName: 'Soja' } });
  });

  it("treats a uuid as the field's: another tenant's labour of that uuid neither blocks nor shows; one the caller sees elsewhere conflicts", async () => {
    const { service, labours, repository } = setup();
    const uuid = 'ab000000-0000-4000-8000-0000000000cc';
    // field 7 is another tenant's (the caller cannot read it), field 3 one the caller only reads
    await repository.save({
      labour: { ...(await service.createLabour(caller, sowing())), uuid, fieldId: 7 },
      inputs: [],
    });
    const mine = await service.createLabour(caller, sowing({ uuid }));
    expect([mine.fieldId, labours.size]).toEqual([1, 3]);
    expect((await service.getLabour(caller, uuid)).labour.fieldId).toBe(1);
    const shared = 'ab000000-0000-4000-8000-0000000000dd';
    await repository.save({ labour: { ...mine, uuid: shared, fieldId: 3 }, inputs: [] });
    expect(await codeOf(service.createLabour(caller, sowing({ uuid: shared })))).toBe(LABOUR_CODES.UUID_IN_USE);
    // reading a uuid only another tenant uses is answered as a uuid nobody uses
    await repository.save({
      labour: { ...mine, uuid: 'ab000000-0000-4000-8000-0000000000ee', fieldId: 7 },
      inputs: [],
    });
    for (const id of ['ab000000-0000-4000-8000-0000000000ee', 'ab000000-0000-4000-8000-0000000000ff']) {
      expect(await codeOf(service.getLabour(caller, id))).toBe(LABOUR_CODES.NOT_FOUND);
      expect(await codeOf(service.patchLabour(caller, id, { observations: 'x' }))).toBe(LABOUR_CODES.NOT_FOUND);
      expect(await codeOf(service.deleteLabour(caller, id))).toBe(LABOUR_CODES.NOT_FOUND);
    }
  });

  it('refuses what breaks a rule, with its code, and writes nothing', async () => {
    const { service, labours } = setup();
    const cases: Array<[Partial<LabourCreate>, number]> = [
      [{ surface: 200 }, LABOUR_CODES.SURFACE_EXCEEDS_FIELD],
      [{ rotationUuid: ROTATION, yeargroup: 2025 }, LABOUR_CODES.INVALID_ROTATION],
      [{ rotationUuid: '7a000000-0000-4000-8000-000000000099' }, LABOUR_CODES.INVALID_ROTATION],
      [{ details: { humidity: 14 } }, LABOUR_CODES.WRONG_TYPE_FIELDS],
      [{ costs: { seed: { unit: 'USD/ha', value: 10 } }, typeId: LABOUR_TYPE.OTHER }, LABOUR_CODES.WRONG_TYPE_FIELDS],
      [{ fieldId: 3 }, LABOUR_CODES.NOT_ALLOWED],
      [{ fieldId: 4 }, LABOUR_CODES.INVALID_FIELD],
      [{ fieldId: 1, fieldUuid: memoryField(2).uuid }, LABOUR_CODES.INVALID_FIELD],
    ];
    for (const [overrides, code] of cases)
      expect([overrides, await codeOf(service.createLabour(caller, sowing(overrides)))]).toEqual([overrides, code]);
    expect(await codeOf(service.createLabour(caller, application({ mapId: 6 })))).toBe(LABOUR_CODES.INVALID_MAP);
    expect(
      await codeOf(service.createLabour(caller, application({ inputs: [{ id: 99_999_999, dose: 1, unit: 'L/ha' }] }))),
    ).toBe(LABOUR_CODES.INVALID_INPUTS);
    expect(
      await codeOf(
        service.createLabour(
          caller,
          application({ costs: { inputs: { [MASTER_INPUTS[0]!.uuid]: { unit: 'USD/ha', value: 3 } } } }),
        ),
      ),
    ).toBe(LABOUR_CODES.INVALID_INPUTS);
    expect(labours.size).toBe(0);
  });

  it('resolves inputs: master ones as they are, new personal ones created with the labour', async () => {
    const { service, inputs } = setup();
    const master = MASTER_INPUTS[0]!;
    const made = await service.createLabour(
      caller,
      application({
        mapId: 5,
        inputs: [
          { id: master.id, dose: 2, unit: 'L/ha' },
          { name: 'Mi mezcla', dose: 1, unit: 'kg/ha' },
        ],
      }),
    );
    expect(made.inputs.map((i) => [i.name, i.ownerId])).toEqual([
      [master.name, null],
      ['Mi mezcla', 9],
    ]);
    expect([...inputs.rows.values()].map((i) => i.name)).toEqual(['Mi mezcla']);
  });

  it("creates the caller's own input for an input uuid another user holds: uuids are per owner", async () => {
    const { service, inputs } = setup();
    const catalogue = '0a000000-0000-4000-8000-000000000077';
    await inputs.save([
      { create: { ...blank(3, catalogue, 100_500, new Date('2026-01-01T00:00:00Z')), name: "Someone else's" } },
    ]);
    await service.createLabour(
      caller,
      application({ inputs: [{ uuid: catalogue, name: 'Mine', dose: 1, unit: 'L/ha' }] }),
    );
    expect(inputs.rows.get(inputKey(caller.user.id, catalogue))).toMatchObject({ ownerId: 9, name: 'Mine' });
    expect(inputs.rows.get(inputKey(3, catalogue))).toMatchObject({ ownerId: 3, name: "Someone else's" });
  });

  it('changes what is sent, retrying a lost race; any status to any other, recorded; field and campaign stay', async () => {
    const { service, loseNext, tick } = setup();
    const { uuid, createdAt } = await service.createLabour(caller, sowing());
    loseNext();
    tick();
    const executed = await service.patchLabour(caller, uuid, { status: STATUS.EXECUTED, observations: 'done' });
    expect(executed).toMatchObject({ status: STATUS.EXECUTED, observations: 'done', version: 2, date: '2026-11-01' });
    expect(executed.updatedAt > createdAt).toBe(true);
    // an executed labour corrected back to planned, then cancelled, then executed again
    for (const status of [STATUS.PLANNED, STATUS.CANCELLED, STATUS.EXECUTED, STATUS.CANCELLED, STATUS.PLANNED]) {
      tick();
      const before = (await service.getLabour(caller, uuid)).labour.version;
      const changed = await service.patchLabour(caller, uuid, { status });
      expect(changed.status).toBe(status);
      // one write of the labour (its item's new revision is its LABOUR_CHANGED.V1 on the stream)
      expect(changed.version).toBe(before + 1);
    }
    expect(await codeOf(service.patchLabour(caller, uuid, { fieldId: 2 }))).toBe(LABOUR_CODES.INVALID_FIELD);
    expect(await codeOf(service.patchLabour(caller, uuid, { yeargroup: 2027 }))).toBe(LABOUR_CODES.INVALID_ROTATION);
    expect(await codeOf(service.patchLabour(caller, uuid, { typeId: LABOUR_TYPE.HARVEST }))).toBe(
      LABOUR_CODES.WRONG_TYPE_FIELDS,
    );
  });

  it('lists the labours of readable fields with filters, by date, by pages; deletes', async () => {
    const { service, reads, fieldReads } = setup();
    await service.createLabour(caller, sowing({ date: '2026-11-05', rotationUuid: ROTATION }));
    await service.createLabour(caller, sowing({ date: '2026-10-01', fieldId: 2 }));
    const other = await service.createLabour(caller, application({ date: '2026-12-01' }));
    const page = await service.listLabours(caller, { yeargroup: 2026 }, 1, 2);
    expect([page.views.map((v) => v.labour.date), page.totalPages]).toEqual([['2026-10-01', '2026-11-05'], 2]);
    reads.rotations = 0;
    const soy = await service.listLabours(caller, { yeargroup: 2026, cropIds: [1] }, 1, 50);
    expect(soy.views.map((v) => [v.labour.date, v.rotation?.cropName])).toEqual([['2026-11-05', 'Soja']]);
    expect(reads.rotations).toBe(1); // the crop filter's read serves the page's views too
    // naming its fields, a client reads those only (not every field it reaches); one it cannot read is left out
    fieldReads.every = 0;
    expect((await service.listLabours(caller, { yeargroup: 2026, fieldIds: [2, 999] }, 1, 50)).views).toHaveLength(1);
    expect(fieldReads.every).toBe(0);
    await service.deleteLabour(caller, other.uuid);
    expect(await codeOf(service.getLabour(caller, other.uuid))).toBe(LABOUR_CODES.NOT_FOUND);
  });

  it('reads a page of labours about as far as the page, its total from the campaigns tallies', async () => {
    const { service, reads, untallied } = setup();
    for (let i = 0; i < 60; i++) {
      const date = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
      await service.createLabour(caller, i % 3 ? sowing({ date }) : application({ date }));
    }
    for (let i = 0; i < 5; i++) await service.createLabour(caller, sowing({ fieldId: 2, date: `2026-02-0${i + 1}` }));
    const everything = await service.listLabours(caller, { yeargroup: 2026 }, 1, 500);
    expect(everything.views).toHaveLength(65);
    const inOrder = everything.views.map((v) => v.labour.uuid);
    reads.labours = 0;
    reads.whole = 0;
    reads.campaigns = 0;
    const first = await service.listLabours(caller, { yeargroup: 2026, fieldIds: [1] }, 1, 10);
    expect([first.views.length, first.totalPages]).toEqual([10, 6]);
    expect(reads.labours).toBeLessThanOrEqual(10);
    expect(reads.whole).toBe(0);
    // the campaign is read once, for the total and for the labours' views (its biennial)
    expect(reads.campaigns).toBe(1);
    // pages of both fields in the list's order; each source read as far as the merge takes from it
    reads.labours = 0;
    const third = await service.listLabours(caller, { yeargroup: 2026 }, 3, 10);
    expect(third.views.map((v) => v.labour.uuid)).toEqual(inOrder.slice(20, 30));
    expect(third.totalPages).toBe(7);
    expect(reads.labours).toBeLessThanOrEqual(30 + 5);
    // the status and type filters count from the tally; a date range counts the labours in it
    const applications = await service.listLabours(caller, { yeargroup: 2026, typeId: LABOUR_TYPE.APPLICATION }, 1, 7);
    expect([applications.views.length, applications.totalPages]).toEqual([7, 3]);
    expect(applications.views.every((v) => v.labour.typeId === LABOUR_TYPE.APPLICATION)).toBe(true);
    const february = await service.listLabours(
      caller,
      { yeargroup: 2026, dateFrom: '2026-02-01', dateTo: '2026-02-28' },
      1,
      4,
    );
    const inFebruary = everything.views.filter((v) => v.labour.date.startsWith('2026-02'));
    expect(february.views.map((v) => v.labour.uuid)).toEqual(inFebruary.slice(0, 4).map((v) => v.labour.uuid));
    expect(february.totalPages).toBe(Math.ceil(inFebruary.length / 4));
    // a campaign not counted yet: its labours read whole, the same answer
    untallied.add('1|2026');
    reads.whole = 0;
    const before = await service.listLabours(caller, { yeargroup: 2026 }, 3, 10);
    expect([before.views.map((v) => v.labour.uuid), before.totalPages]).toEqual([inOrder.slice(20, 30), 7]);
    expect(reads.whole).toBe(3); // fields 1, 2 and 3 (read-only, no labour)
  });

  it('asks what a page of labours shows as a listing, what one labour shows as anything else', async () => {
    const { service, repository } = setup();
    const listing: boolean[] = [];
    const personalInputs = repository.personalInputs.bind(repository);
    repository.personalInputs = (refs, options) => {
      listing.push(options?.listing ?? false);
      return personalInputs(refs, options);
    };
    const { uuid } = await service.createLabour(caller, sowing());
    await service.getLabour(caller, uuid);
    await service.listLabours(caller, { yeargroup: 2026 }, 1, 10);
    await service.listLabours(caller, { yeargroup: 2026, cropIds: [1] }, 1, 10);
    expect(listing).toEqual([false, true, true]);
  });

  it('pages every farm the caller reads in proportion to the page, not to its fields: the same answers as field by field', async () => {
    const store = memory();
    // farm 7 read whole (fields 1-200; 201 is deleted, its labours not yet cleaned up);
    // farm 8 reached through one field shared alone (300; 301 is not shared)
    const farm8: Farm = { ...memoryFarm, id: 8, uuid: 'f7a1e000-0000-4000-8000-000000000008' };
    const whole = Array.from({ length: 200 }, (_, i) => i + 1);
    const profiles = new Map(whole.map((id) => [id, memoryField(id)]));
    for (const id of [300, 301]) profiles.set(id, memoryField(id, { farmId: 8 }));
    const gate = memoryGate({ writes: [...whole, 300], reads: [], fields: profiles });
    const farmOf = (id: number) => (profiles.get(id)?.farmId === 8 ? farm8 : memoryFarm);
    const calls = { readable: 0, profiles: 0, profileReads: 0 };
    gate.readable = async () => {
      calls.readable += 1;
      return [...whole, 300].map((id) => ({
        field: profiles.get(id)!,
        farm: farmOf(id),
        access: accessFrom(['owner']),
      }));
    };
    // farm 7 counts field 201 among its fields being deleted (the listing by farm reads no field for it)
    const farm7: Farm = { ...memoryFarm, deletingFieldIds: [201] };
    gate.scope = async () => [
      { farm: farm7, fieldIds: 'all', accessTo: (id) => accessFrom(id <= 201 ? ['owner'] : []) },
      { farm: farm8, fieldIds: [300], accessTo: (id) => accessFrom(id === 300 ? ['edit'] : []) },
    ];
    gate.fieldsById = async (ids) => {
      calls.profiles += 1;
      calls.profileReads += ids.length;
      return new Map(ids.flatMap((id) => (profiles.has(id) ? [[id, profiles.get(id)!] as const] : [])));
    };
    const service = laboursService({
      repository: store.repository,
      inputs: store.inputs,
      fields: gate,
      crops,
      now: () => new Date('2026-11-23T12:00:00Z'),
    });
    const template = await service.createLabour(caller, sowing({ fieldId: 1, date: '2026-01-01' }));
    let n = 0;
    const labour = async (fieldId: number, more: Partial<Labour> = {}) => {
      n += 1;
      const day = `2026-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
      await store.repository.save({
        labour: {
          ...template,
          uuid: `ab000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          fieldId,
          farmId: profiles.get(fieldId)?.farmId ?? 7,
          // the field's uuid and name on the item; one in five written before items named them
          fieldUuid: n % 5 ? (profiles.get(fieldId)?.uuid ?? `f1e1d000-0000-4000-8000-${fieldId}`) : null,
          fieldName: n % 5 ? (profiles.get(fieldId)?.name ?? `Field ${fieldId}`) : null,
          date: day,
          typeId: n % 3 ? LABOUR_TYPE.SOWING : LABOUR_TYPE.APPLICATION,
          status: n % 4 ? STATUS.PLANNED : STATUS.EXECUTED,
          ...more,
        },
        inputs: [],
      });
    };
    for (const fieldId of [...whole, 201, 300, 301, 300]) await labour(fieldId);
    store.withdrawn.add(201);
    const answer = async (filters: Omit<LabourFilters, 'yeargroup'>, page: number, size: number) => {
      const listed = await service.listLabours(caller, { yeargroup: 2026, ...filters }, page, size);
      return {
        uuids: listed.views.map((v) => [v.labour.uuid, v.field.id, v.field.uuid, v.field.name, v.farm.id]),
        totalPages: listed.totalPages,
      };
    };
    const cases: Array<[Omit<LabourFilters, 'yeargroup'>, number, number]> = [
      [{}, 1, 20],
      [{}, 3, 20],
      [{}, 11, 20],
      [{}, 150, 1],
      [{ typeId: LABOUR_TYPE.APPLICATION }, 2, 7],
      [{ status: STATUS.EXECUTED }, 1, 50],
      [{ dateFrom: '2026-02-01', dateTo: '2026-03-31' }, 2, 5],
      [{ farmIds: [8] }, 1, 10],
      [{ farmUuids: [memoryFarm.uuid.toUpperCase()] }, 1, 10],
    ];
    const fieldByField = [];
    for (const [filters, page, size] of cases) fieldByField.push(await answer(filters, page, size));
    expect(fieldByField[0]!.uuids).toHaveLength(20);
    expect(fieldByField[0]!.totalPages).toBe(Math.ceil(203 / 20)); // 200 + the template + two in field 300
    expect(calls.readable).toBe(cases.length);

    store.byFarm.done = true;
    calls.readable = 0;
    for (const [index, [filters, page, size]] of cases.entries())
      expect(await answer(filters, page, size), JSON.stringify(filters)).toEqual(fieldByField[index]);
    expect(calls.readable).toBe(0);
    // a first page: one query of the farm's index and one of the field shared alone, and the profiles
    // of the fields of its older items only (those that do not name their field)
    Object.assign(store.reads, { labours: 0, fieldIndex: 0, farmIndex: 0 });
    Object.assign(calls, { profiles: 0, profileReads: 0 });
    await answer({}, 1, 20);
    expect([store.reads.farmIndex, store.reads.fieldIndex]).toEqual([1, 1]);
    expect(store.reads.labours).toBeLessThanOrEqual(20 + 2);
    expect(calls.profileReads).toBeGreaterThan(0);
    expect(calls.profileReads).toBeLessThanOrEqual(Math.ceil(22 / 5) + 2);
    expect(calls.profiles).toBeLessThanOrEqual(2);
    // every item naming its field: no field read
    for (const item of store.labours.values()) {
      const field = profiles.get(item.fieldId) ?? memoryField(item.fieldId);
      if (item.fieldUuid === null) Object.assign(item, { fieldUuid: field.uuid, fieldName: field.name });
    }
    Object.assign(calls, { profiles: 0, profileReads: 0 });
    expect(await answer({}, 3, 20)).toEqual(fieldByField[1]);
    expect(calls.profileReads).toBe(0);
  });
});
