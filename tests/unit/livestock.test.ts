// lib/livestock against memory: the service's rules without DynamoDB (its repository and field gate
// are parameters; tests/livestock.test.ts runs the same rules through the API and DynamoDB Local).
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { LostRace } from '../../lib/db/retry';
import { DomainError, NotFound } from '../../lib/errors';
import { LIVESTOCK_CODES, nameTaken, paddockNotEmpty, paddockNotFound, staleHerd } from '../../lib/livestock/codes';
import type { Herd, Paddock } from '../../lib/livestock/model';
import { renamed } from '../../lib/livestock/paddocks';
import type { TransactionRecord } from '../../lib/livestock/records';
import {
  type HerdChange,
  type LivestockRepository,
  livestockService,
  type RecordedTransaction,
} from '../../lib/livestock/service';
import type { WebhookEmitter } from '../../lib/webhooks/emit';
import { inFlight } from './helpers/in-flight';
import { memoryGate } from './helpers/memory-gate';

const INSIDE = 'POLYGON((0.001 0.001, 0.001 0.002, 0.002 0.002, 0.002 0.001, 0.001 0.001))';

/** A repository in memory whose commit is all-or-nothing, checking what DynamoDB's conditions check. */
function memory() {
  const herds = new Map<string, Herd>(); // `${fieldId}|${uuid}`
  const paddocks = new Map<string, Paddock>();
  const names = new Set<string>();
  const histories = new Map<number, TransactionRecord[]>();
  const recorded = new Map<string, RecordedTransaction>();
  const fieldIds = new Set([1, 2, 3]);
  const ids = { herd: 0, paddock: 0 };
  let failNextCommit: DomainError | undefined;
  const at = (fieldId: number, uuid: string) => `${fieldId}|${uuid}`;
  const fieldsHolding = (map: Map<string, unknown>, uuid: string) =>
    [...map.keys()].filter((k) => k.endsWith(`|${uuid}`)).map((k) => Number(k.split('|')[0]));

  const repository: LivestockRepository = {
    nextId: async (sequence) => ++ids[sequence],
    herd: async (fieldId, uuid) => herds.get(at(fieldId, uuid)),
    herdsOf: async (fieldId) => [...herds.values()].filter((h) => h.fieldId === fieldId),
    herdFields: async (uuid) => fieldsHolding(herds, uuid),
    paddock: async (fieldId, uuid) => paddocks.get(at(fieldId, uuid)),
    paddocksOf: async (fieldId) =>
      [...paddocks.values()].filter((p) => p.fieldId === fieldId).sort((a, b) => a.id - b.id),
    paddockFields: async (uuid) => fieldsHolding(paddocks, uuid),
    recorded: async (herdId, uuid) => recorded.get(`${herdId}|${uuid.toLowerCase()}`),
    history: async (herdId) =>
      [...(histories.get(herdId) ?? [])].sort((a, b) => b.transaction_date.localeCompare(a.transaction_date)),
    deleteHistory: async (herdId) => void histories.delete(herdId),
    async commit(change: HerdChange) {
      if (failNextCommit) {
        const failure = failNextCommit;
        failNextCommit = undefined;
        throw failure;
      }
      for (const herd of change.created ?? []) if (herds.has(at(herd.fieldId, herd.uuid))) throw new LostRace('taken');
      if (change.fieldExists !== undefined && !fieldIds.has(change.fieldExists)) throw new NotFound('field');
      for (const { previous } of change.updated ?? [])
        if (herds.get(at(previous.fieldId, previous.uuid))?.version !== previous.version) throw staleHerd();
      for (const herd of change.deleted ?? [])
        if (herds.get(at(herd.fieldId, herd.uuid))?.version !== herd.version) throw staleHerd();
      for (const { fieldId, paddockUuid } of change.paddockCounts ?? [])
        if (!paddocks.has(at(fieldId, paddockUuid))) throw paddockNotFound(paddockUuid);
      if (change.recorded && recorded.has(`${change.recorded.originHerdId}|${change.recorded.record.transaction_uuid}`))
        throw new LostRace('recorded');
      // every condition holds: apply all of it
      for (const herd of change.created ?? []) herds.set(at(herd.fieldId, herd.uuid), herd);
      for (const { next, previous } of change.updated ?? []) {
        herds.delete(at(previous.fieldId, previous.uuid));
        herds.set(at(next.fieldId, next.uuid), { ...next, version: previous.version + 1 });
      }
      for (const herd of change.deleted ?? []) herds.delete(at(herd.fieldId, herd.uuid));
      for (const { fieldId, paddockUuid, delta } of change.paddockCounts ?? []) {
        const paddock = paddocks.get(at(fieldId, paddockUuid))!;
        paddocks.set(at(fieldId, paddockUuid), { ...paddock, herdCount: paddock.herdCount + delta });
      }
      for (const { herdId, record } of change.history ?? [])
        histories.set(herdId, [...(histories.get(herdId) ?? []), record]);
      if (change.recorded)
        recorded.set(`${change.recorded.originHerdId}|${change.recorded.record.transaction_uuid}`, change.recorded);
    },
    async createPaddock(paddock) {
      if (paddocks.has(at(paddock.fieldId, paddock.uuid))) throw new LostRace('taken');
      const name = `${paddock.fieldId}|${paddock.name.toLowerCase()}`;
      if (names.has(name)) throw nameTaken(paddock.name);
      names.add(name);
      paddocks.set(at(paddock.fieldId, paddock.uuid), paddock);
    },
    async updatePaddock(next, previous) {
      const name = `${next.fieldId}|${next.name.toLowerCase()}`;
      if (renamed(next, previous) && names.has(name)) throw nameTaken(next.name);
      names.delete(`${previous.fieldId}|${previous.name.toLowerCase()}`);
      names.add(name);
      const stored = paddocks.get(at(next.fieldId, next.uuid))!;
      paddocks.set(at(next.fieldId, next.uuid), { ...next, herdCount: stored.herdCount });
    },
    async deletePaddock(paddock) {
      if (paddocks.get(at(paddock.fieldId, paddock.uuid))!.herdCount > 0) throw paddockNotEmpty();
      names.delete(`${paddock.fieldId}|${paddock.name.toLowerCase()}`);
      paddocks.delete(at(paddock.fieldId, paddock.uuid));
    },
  };
  return {
    repository,
    herds,
    paddocks,
    histories,
    recorded,
    failOnce: (error: DomainError) => (failNextCommit = error),
  };
}

/** The caller writes fields 1 and 2, reads field 3, and does not see any other. */
const gate = memoryGate();

const caller = { user: { id: 9 } } as Principal;
let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

function setup(emit?: WebhookEmitter) {
  const store = memory();
  const service = livestockService({
    repository: store.repository,
    fields: gate,
    uuid,
    now: () => new Date('2026-05-01T10:00:00Z'),
    emit,
  });
  return { ...store, service };
}

const codeOf = async (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? error.code : error),
  );

async function paddockAndHerd(service: ReturnType<typeof setup>['service'], fieldId = 1, name = 'North') {
  const paddock = await service.createPaddock(caller, { fieldId, shape: INSIDE, date: '2026-04-01T00:00:00Z', name });
  const herd = await service.createHerd(caller, {
    fieldId,
    typeId: 1,
    animalCount: 10,
    weight: 4000,
    weightUnit: 'kg',
    name: 'Cows',
    paddockUuid: paddock.uuid,
  });
  return { paddock, herd };
}

/** A herd of 10 in field 1 gives 3 animals (1200 kg) to a herd of 2 in field 2 (exit type 2). */
async function herdToHerd(service: ReturnType<typeof setup>['service']) {
  const { herd: origin } = await paddockAndHerd(service);
  const destination = await service.createHerd(caller, {
    fieldId: 2,
    typeId: 2,
    animalCount: 2,
    weight: 500,
    weightUnit: 'kg',
    name: 'Calves',
    paddockUuid: null,
  });
  const result = await service.recordExit(caller, {
    destinationType: 2,
    animalCount: 3,
    weight: 1200,
    weightUnit: 'kg',
    originHerdUuid: origin.uuid,
    destinationHerdUuid: destination.uuid,
    transactionUuid: 'C0000000-0000-4000-8000-000000000001',
    transactionDate: '2026-04-21T00:00:00Z',
  });
  return { origin, destination, result };
}

describe('livestock rules (repository in memory)', () => {
  it('creates a herd in a paddock and counts it there; a client uuid sent again answers the same herd', async () => {
    const { service, paddocks } = setup();
    const paddock = await service.createPaddock(caller, {
      fieldId: 1,
      shape: INSIDE,
      date: '2026-04-01T00:00:00Z',
      name: 'North',
    });
    const input = {
      fieldId: 1,
      typeId: 1,
      animalCount: 10,
      weight: 4000,
      weightUnit: 'kg',
      name: ' Cows ',
      paddockUuid: paddock.uuid,
      uuid: 'AAAAAAAA-0000-4000-8000-000000000001',
    };
    const first = await service.createHerd(caller, input);
    const again = await service.createHerd(caller, input);
    expect(first).toMatchObject({
      uuid: input.uuid.toLowerCase(),
      name: 'Cows',
      animalCount: 10,
      weightKg: 4000,
      paddockId: paddock.id,
    });
    expect(again.id).toBe(first.id);
    expect([...paddocks.values()][0]!.herdCount).toBe(1);
    expect(await codeOf(service.createHerd(caller, { ...input, fieldId: 2 }))).toBe(LIVESTOCK_CODES.INVALID_PARAMETERS);
  });

  it('refuses a paddock outside the field, a taken name and a read-only field, and writes nothing', async () => {
    const { service, paddocks } = setup();
    expect(
      await codeOf(
        service.createPaddock(caller, {
          fieldId: 1,
          shape: 'POLYGON((1 1, 1 2, 2 2, 2 1, 1 1))',
          date: '2026-04-01',
          name: 'Far',
        }),
      ),
    ).toBe(LIVESTOCK_CODES.SHAPE_OUTSIDE_FIELD);
    await service.createPaddock(caller, { fieldId: 1, shape: INSIDE, date: '2026-04-01', name: 'North' });
    expect(
      await codeOf(service.createPaddock(caller, { fieldId: 1, shape: INSIDE, date: '2026-04-01', name: 'north' })),
    ).toBe(LIVESTOCK_CODES.NAME_TAKEN);
    expect(
      await codeOf(service.createPaddock(caller, { fieldId: 3, shape: INSIDE, date: '2026-04-01', name: 'South' })),
    ).toBe(LIVESTOCK_CODES.PERMISSION_ERROR);
    expect(
      await codeOf(service.createPaddock(caller, { fieldId: 4, shape: INSIDE, date: '2026-04-01', name: 'South' })),
    ).toBe(LIVESTOCK_CODES.FIELD_NOT_FOUND);
    expect(paddocks.size).toBe(1);
  });

  it('records an exit once: the herd loses the animals and their weight, a repeated uuid answers the first result', async () => {
    const { service, histories } = setup();
    const { herd } = await paddockAndHerd(service);
    const exit = {
      destinationType: 1,
      animalCount: 4,
      weight: 1000,
      weightUnit: 'kg',
      originHerdUuid: herd.uuid,
      destinationHerdUuid: herd.uuid,
      transactionUuid: 'B0000000-0000-4000-8000-000000000001',
      transactionDate: '2026-04-20T08:00:00-03:00',
    };
    const first = await service.recordExit(caller, exit);
    expect(first.herds[0]).toMatchObject({
      animalCount: 6,
      weightKg: 3000,
      version: 2,
      lastTransactionDate: '2026-04-20T11:00:00Z',
    });
    expect(first.transaction).toMatchObject({
      kind: 'exit',
      destination_type: 1,
      transaction_uuid: exit.transactionUuid.toLowerCase(),
    });
    const again = await service.recordExit(caller, exit);
    expect(again.transaction).toEqual(first.transaction);
    expect(again.herds[0]).toMatchObject({ animalCount: 6, version: 2 });
    expect(histories.get(herd.id)).toHaveLength(1);
    expect(
      await codeOf(
        service.recordExit(caller, {
          ...exit,
          transactionUuid: 'B0000000-0000-4000-8000-000000000002',
          animalCount: 7,
        }),
      ),
    ).toBe(LIVESTOCK_CODES.NOT_ENOUGH_ANIMALS);
  });

  it('moves animals into another herd (exit type 2): both herds change in one commit', async () => {
    const { service, histories } = setup();
    const { origin, destination, result } = await herdToHerd(service);
    expect(result.herds.map((h) => [h.uuid, h.animalCount, h.weightKg])).toEqual([
      [origin.uuid, 7, 2800],
      [destination.uuid, 5, 1700],
    ]);
    expect(histories.get(destination.id)?.[0]?.transaction_uuid).toBe('c0000000-0000-4000-8000-000000000001');
    expect(
      await codeOf(
        service.recordExit(caller, {
          ...result.transaction,
          destinationType: 2,
          animalCount: 1,
          weight: 1,
          weightUnit: 'kg',
          originHerdUuid: origin.uuid,
          destinationHerdUuid: origin.uuid,
          transactionUuid: 'C0000000-0000-4000-8000-000000000002',
          transactionDate: '2026-04-21T00:00:00Z',
        }),
      ),
    ).toBe(LIVESTOCK_CODES.INVALID_PARAMETERS);
  });

  it('emits HERD_EXITED for each herd an exit into another herd changed, the events sent at once', async () => {
    const sent: unknown[] = [];
    const sends = inFlight();
    const { service } = setup(
      sends.send<Parameters<WebhookEmitter>>((name, event) => sent.push([name, event.fieldId, event.data.herd_uuid])),
    );
    const { origin, destination } = await herdToHerd(service);
    expect(sent).toEqual([
      ['HERD_EXITED.V1', 1, origin.uuid],
      ['HERD_EXITED.V1', 2, destination.uuid],
    ]);
    expect(sends.most).toBe(2);
  });

  it('splits a herd into another field: a new herd where it went, paddock counts moved, the origin keeps the rest', async () => {
    const { service, paddocks } = setup();
    const { paddock: north, herd } = await paddockAndHerd(service);
    const south = await service.createPaddock(caller, { fieldId: 2, shape: INSIDE, date: '2026-04-01', name: 'South' });
    const result = await service.movePaddock(caller, {
      originHerdUuid: herd.uuid,
      originPaddockUuid: north.uuid,
      destinationPaddockUuid: south.uuid,
      transactionDate: '2026-04-22T00:00:00Z',
      animalCount: 4,
      herdName: 'Heifers',
    });
    const [stays, split] = result.herds;
    expect(stays).toMatchObject({ uuid: herd.uuid, animalCount: 6, weightKg: 2400, fieldId: 1 });
    expect(split).toMatchObject({
      name: 'Heifers',
      animalCount: 4,
      weightKg: 1600,
      fieldId: 2,
      paddockUuid: south.uuid,
    });
    expect(result.transaction.destination_herd_uuid).toBe(split!.uuid);
    const counts = Object.fromEntries([...paddocks.values()].map((p) => [p.name, p.herdCount]));
    expect(counts).toEqual({ North: 1, South: 1 });
    // the whole rest moves: the herd itself goes, North is empty and can be deleted
    await service.movePaddock(caller, {
      originHerdUuid: herd.uuid,
      originPaddockUuid: north.uuid,
      destinationPaddockUuid: south.uuid,
      transactionDate: '2026-04-23T00:00:00Z',
    });
    expect((await service.locateHerd(caller, herd.uuid)).fieldId).toBe(2);
    await service.deletePaddock(caller, north.uuid);
    expect(await codeOf(service.deletePaddock(caller, south.uuid))).toBe(LIVESTOCK_CODES.PADDOCK_NOT_EMPTY);
  });

  it('refuses a stale head count and a read-only destination, changing nothing', async () => {
    const { service, herds } = setup();
    const { paddock, herd } = await paddockAndHerd(service);
    const readOnly = await service.createPaddock(caller, {
      fieldId: 1,
      shape: INSIDE,
      date: '2026-04-01',
      name: 'Other',
    });
    const move = {
      originHerdUuid: herd.uuid,
      originPaddockUuid: paddock.uuid,
      destinationPaddockUuid: readOnly.uuid,
      transactionDate: '2026-04-22T00:00:00Z',
    };
    expect(await codeOf(service.movePaddock(caller, { ...move, maxCount: 9 }))).toBe(LIVESTOCK_CODES.STALE);
    expect(await codeOf(service.movePaddock(caller, { ...move, destinationPaddockUuid: paddock.uuid }))).toBe(
      LIVESTOCK_CODES.INVALID_PARAMETERS,
    );
    expect(await codeOf(service.movePaddock(caller, { ...move, originPaddockUuid: readOnly.uuid }))).toBe(
      LIVESTOCK_CODES.INVALID_PARAMETERS,
    );
    expect([...herds.values()].map((h) => [h.animalCount, h.version])).toEqual([[10, 1]]);
  });

  it('retries a lost race from the start: the second attempt reads the herd again', async () => {
    const { service, failOnce, herds } = setup();
    const { herd } = await paddockAndHerd(service);
    failOnce(staleHerd());
    const updated = await service.updateHerd(caller, herd.uuid, {
      typeId: 2,
      name: 'Steers',
      newAnimals: { count: 2, weight: 800, weightUnit: 'kg' },
    });
    expect(updated).toMatchObject({
      name: 'Steers',
      typeId: 2,
      animalCount: 12,
      weightKg: 4800,
      version: 2,
      lastTransactionDate: '2026-05-01T10:00:00Z',
    });
    expect([...herds.values()][0]).toMatchObject({ animalCount: 12, version: 2 });
  });

  it('hides herds of unreadable fields and deletes a herd with its history', async () => {
    const { service, histories, paddocks } = setup();
    const { herd } = await paddockAndHerd(service);
    expect(await codeOf(service.locateHerd(caller, '99999999-0000-4000-8000-000000000000'))).toBe(
      LIVESTOCK_CODES.HERD_NOT_FOUND,
    );
    await service.updateHerd(caller, herd.uuid, {
      typeId: 1,
      name: 'Cows',
      newAnimals: { count: 1, weight: 400, weightUnit: 'kg' },
    });
    expect(await service.historyOf(caller, herd.uuid)).toHaveLength(1);
    await service.deleteHerd(caller, herd.uuid);
    expect(histories.has(herd.id)).toBe(false);
    expect([...paddocks.values()][0]!.herdCount).toBe(0);
    expect(await codeOf(service.historyOf(caller, herd.uuid))).toBe(LIVESTOCK_CODES.HERD_NOT_FOUND);
    expect((await service.listHerds(caller)).length).toBe(0);
  });
});

describe('refusal types', () => {
  it('are domain errors of the livestock dialect', () => {
    expect(paddockNotFound('x')).toBeInstanceOf(NotFound);
    expect(staleHerd()).toBeInstanceOf(LostRace);
  });
});
