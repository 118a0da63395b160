// Rules of inputs, labours and work orders without the stack: the input service against a
// repository in memory, the inputs-inside-a-labour plan, status transitions, type fields, totals,
// paging and the recommendation rule.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { MASTER_INPUTS, PERSONAL_INPUT_ID_OFFSET } from '../../lib/inputs/catalogue';
import { INPUT_CODES } from '../../lib/inputs/codes';
import {
  filterInputs,
  InputRuleBroken,
  inputsService,
  type ListedInput,
  type NewInput,
  type PersonalInput,
  planLabourInputs,
} from '../../lib/inputs/service';
import { foreignTypeFields, inputTotal, LABOUR_TYPE, paginate, totalUnit } from '../../lib/labours/model';
import type { LabourView } from '../../lib/labours/service';
import { WORK_ORDER_CODES } from '../../lib/work-orders/codes';
import { recommendationProblems, type WorkOrder } from '../../lib/work-orders/model';
import { type LabourReader, type WorkOrderRepository, workOrdersService } from '../../lib/work-orders/service';
import { inputKey, memoryRepository } from './helpers/memory-inputs';

const principal = (id: number) => ({ user: { id } }) as unknown as Principal;
const UUID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('inputs service (repository in memory)', () => {
  it("creates per item; a uuid is the owner's: another user's input of that uuid is another input", async () => {
    const repository = memoryRepository();
    const inputs = inputsService({ repository, now: () => new Date('2026-11-23T00:00:00Z') });
    const first = await inputs.create(principal(1), [
      { input: { name: 'A', uuid: UUID(1) } },
      { malformed: 'name: required', raw: {} },
      { input: { name: 'M', uuid: MASTER_INPUTS[0]!.uuid } },
    ]);
    expect(first.done).toEqual([{ id: PERSONAL_INPUT_ID_OFFSET + 1, name: 'A', uuid: UUID(1) }]);
    expect(first.denied.map((d) => d.reason)).toEqual(['name: required', 'the uuid is a master input']);
    // user 2 ships the same catalogue uuid: its own input (the first of its own id sequence), nothing
    // of user 1's shows
    const second = await inputs.create(principal(2), [{ input: { name: 'B', uuid: UUID(1) } }]);
    expect(second).toEqual({ done: [{ id: PERSONAL_INPUT_ID_OFFSET + 1, name: 'B', uuid: UUID(1) }], denied: [] });
    expect(repository.rows.size).toBe(2);
    expect((await inputs.list(principal(1), { userInput: true })).map((i) => [i.uuid, i.name])).toEqual([
      [UUID(1), 'A'],
    ]);
    expect((await inputs.list(principal(2), { userInput: true })).map((i) => [i.uuid, i.name])).toEqual([
      [UUID(1), 'B'],
    ]);
  });

  it('answers a repeated uuid with the same members as the input it made, and 409 with other members, writing nothing', async () => {
    const repository = memoryRepository();
    const inputs = inputsService({ repository });
    const first = await inputs.create(principal(1), [{ input: { name: 'A', uuid: UUID(1), code: '7', company: 'X' } }]);
    // renamed since: the original request sent again is still a replay
    await inputs.modify(principal(1), [{ input: { uuid: UUID(1), name: 'A renamed' } }]);
    const again = await inputs.create(principal(1), [
      { input: { name: 'A', uuid: UUID(1), company: 'X', code: '7', type: null } },
    ]);
    expect(again.done).toEqual([{ ...first.done[0], name: 'A renamed' }]);
    const conflict = (items: NewInput[]) =>
      inputs.create(
        principal(1),
        items.map((input) => ({ input })),
      );
    for (const items of [
      [{ name: 'B', uuid: UUID(1), code: '7', company: 'X' }],
      [{ name: 'A', uuid: UUID(1), code: '8', company: 'X' }],
      [
        { name: 'new one', uuid: UUID(2) },
        { name: 'A', uuid: UUID(1) },
      ],
      [
        { name: 'C', uuid: UUID(3) },
        { name: 'D', uuid: UUID(3) },
      ],
    ]) {
      const error = await conflict(items).catch((e) => e);
      expect([error instanceof Conflict, error.code], JSON.stringify(items)).toEqual([true, INPUT_CODES.UUID_IN_USE]);
    }
    expect([...repository.rows.values()].map((r) => r.uuid)).toEqual([UUID(1)]);
    // a deleted input created again comes back with what the item says (no conflict)
    await inputs.remove(principal(1), [{ input: { uuid: UUID(1) } }]);
    expect((await conflict([{ name: 'E', uuid: UUID(1) }])).done.map((d) => d.name)).toEqual(['E']);
  });

  it('changes and deletes only own inputs; a deleted input leaves the list and comes back when created again', async () => {
    const repository = memoryRepository();
    const inputs = inputsService({ repository });
    await inputs.create(principal(1), [{ input: { name: 'A', uuid: UUID(1) } }]);
    const master = MASTER_INPUTS[0]!;
    const changed = await inputs.modify(principal(1), [
      { input: { uuid: UUID(1), name: 'A2' } },
      { input: { id: master.id, name: 'x' } },
    ]);
    expect(changed.done.map((d) => d.name)).toEqual(['A2']);
    expect(changed.denied.map((d) => d.reason)).toEqual(['master inputs cannot be changed']);
    expect((await inputs.modify(principal(2), [{ input: { uuid: UUID(1), name: 'stolen' } }])).denied[0]!.reason).toBe(
      'no input of yours has this uuid or id',
    );
    expect((await inputs.remove(principal(1), [{ input: { uuid: UUID(1) } }])).done).toHaveLength(1);
    expect(await inputs.list(principal(1), { userInput: true })).toEqual([]);
    expect((await inputs.remove(principal(1), [{ input: { uuid: UUID(1) } }])).done).toHaveLength(1);
    await inputs.create(principal(1), [{ input: { name: 'A3', uuid: UUID(1) } }]);
    expect((await inputs.list(principal(1), { userInput: true })).map((i) => i.name)).toEqual(['A3']);
  });

  it("reads the caller's inputs once per batch, and again only after a lost race", async () => {
    const repository = memoryRepository();
    const inputs = inputsService({ repository });
    const done = await inputs.create(principal(1), [
      { input: { name: 'A', uuid: UUID(1) } },
      { input: { name: 'B', uuid: UUID(2) } },
      { input: { name: 'A', uuid: UUID(1) } },
    ]);
    expect(done.done.map((d) => d.name)).toEqual(['A', 'B', 'A']);
    expect(repository.reads).toBe(1);
    // a change made meanwhile by another request: the item is retried on a fresh read
    repository.reads = 0;
    const save = repository.save.bind(repository);
    let raced = false;
    repository.save = async (writes) => {
      if (!raced) {
        raced = true;
        const other = repository.rows.get(inputKey(1, UUID(2)))!;
        repository.rows.set(inputKey(1, UUID(2)), { ...other, name: 'B by someone else', version: other.version + 1 });
      }
      return save(writes);
    };
    const changed = await inputs.modify(principal(1), [
      { input: { uuid: UUID(2), name: 'B2' } },
      { input: { uuid: UUID(1), name: 'A2' } },
    ]);
    expect(changed.done.map((d) => d.name)).toEqual(['B2', 'A2']);
    expect(repository.reads).toBe(2);
    expect(repository.rows.get(inputKey(1, UUID(2)))!.name).toBe('B2');
  });

  it('filters with AND; country keeps inputs of no country', () => {
    const spain = filterInputs([...MASTER_INPUTS], { country: 'es' });
    expect(spain.every((i) => i.country === 'ES' || i.country === null)).toBe(true);
    expect(filterInputs([...MASTER_INPUTS], { userInput: true })).toEqual([]);
    expect(filterInputs([...MASTER_INPUTS], { code: '2001' }).map((i) => i.name)).toEqual([
      'Glifosato 66,2% sal potásica',
    ]);
  });
});

describe('inputs inside a labour', () => {
  const own = (uuid: string, name: string, deleted = false, ownerId = 1): PersonalInput => ({
    id: PERSONAL_INPUT_ID_OFFSET + Number(uuid.slice(-3)) + ownerId * 1000,
    uuid,
    name,
    ownerId,
    code: null,
    country: null,
    company: null,
    type: null,
    state: null,
    density: null,
    composition: null,
    components: [],
    deleted,
    createdAt: '2026-01-01T00:00:00.000Z',
    createdWith: '',
    version: 3,
  });
  let id = 500_000;
  const plan = (
    items: Parameters<typeof planLabourInputs>[1],
    personal: PersonalInput[] = [],
    listed: ListedInput[] = [],
  ) => planLabourInputs(1, items, personal, listed, async () => ++id, new Date('2026-11-23T00:00:00Z'));

  it('uses master inputs as they are, renames own inputs whose name differs, creates the rest (with the uuid sent)', async () => {
    const master = MASTER_INPUTS[5]!;
    const { resolved, writes } = await plan(
      [
        { id: master.id, name: 'ignored' },
        { uuid: UUID(7), name: 'Renamed' },
        { uuid: UUID(8), name: 'Same' },
        { uuid: UUID(9), name: 'New' },
        { name: 'No uuid' },
      ],
      [own(UUID(7), 'Old'), own(UUID(8), 'Same')],
    );
    expect(resolved.map((r) => [r.name, r.ownerId])).toEqual([
      [master.name, null],
      ['Renamed', 1],
      ['Same', 1],
      ['New', 1],
      ['No uuid', 1],
    ]);
    expect(
      writes.map((w) => ('create' in w ? ['create', w.create.name] : ['change', w.change.name, w.version])),
    ).toEqual([
      ['change', 'Renamed', 3],
      ['create', 'New'],
      ['create', 'No uuid'],
    ]);
    expect(resolved[3]!.uuid).toBe(UUID(9));
  });

  it("accepts back, by uuid or id, an input the labour lists, whoever's it is; the caller's own wins only when not listed", async () => {
    const theirs = own(UUID(4), 'Editor input', false, 2);
    const listed: ListedInput[] = [{ uuid: theirs.uuid, id: theirs.id, ownerId: 2, name: theirs.name }];
    for (const item of [{ uuid: UUID(4) }, { id: theirs.id }, { uuid: UUID(4), id: theirs.id, name: 'other name' }]) {
      const { resolved, writes } = await plan([item], [], listed);
      expect([resolved, writes], JSON.stringify(item)).toEqual([[listed[0]], []]);
    }
    // the caller holds an input of the same uuid: the line already in the labour stays the editor's
    expect((await plan([{ uuid: UUID(4) }], [own(UUID(4), 'Mine')], listed)).resolved[0]!.ownerId).toBe(2);
    // without the labour's list (a create), the same id is unknown to the caller
    await expect(plan([{ id: theirs.id }])).rejects.toThrow(/no input has id/);
  });

  it('brings back a deleted own input; refuses unknown ids, repeated inputs and creations without a name', async () => {
    const { writes } = await plan([{ uuid: UUID(7) }], [own(UUID(7), 'Gone', true)]);
    expect(writes).toEqual([
      { change: expect.objectContaining({ uuid: UUID(7), deleted: false, version: 4 }), version: 3 },
    ]);
    await expect(plan([{ id: 99_999_999 }])).rejects.toThrow(InputRuleBroken);
    await expect(plan([{ id: MASTER_INPUTS[0]!.id }, { uuid: MASTER_INPUTS[0]!.uuid }])).rejects.toThrow(
      /listed twice/,
    );
    await expect(plan([{ uuid: UUID(6) }])).rejects.toThrow(/name is required/);
    await expect(plan([{ id: MASTER_INPUTS[0]!.id, uuid: MASTER_INPUTS[1]!.uuid }])).rejects.toThrow(
      /different inputs/,
    );
  });
});

describe('labour rules', () => {
  it("takes each type's own fields only", () => {
    expect(foreignTypeFields(LABOUR_TYPE.APPLICATION, ['inputs', 'map_id', 'end_cycle'])).toEqual([]);
    expect(foreignTypeFields(LABOUR_TYPE.HARVEST, ['inputs', 'humidity', 'seed_rate'])).toEqual([
      'inputs',
      'seed_rate',
    ]);
    expect(foreignTypeFields(LABOUR_TYPE.OTHER, ['name', 'end_cycle'])).toEqual(['end_cycle']);
  });

  it('totals a dose per hectare over the surface, in the unit without /ha', () => {
    expect([inputTotal(2.5, 'L/ha', 40), totalUnit('L/ha')]).toEqual([100, 'L']);
    expect([inputTotal(150, 'cc / ha', 40), totalUnit('cc / ha')]).toEqual([6000, 'cc']);
    expect([inputTotal(30, 'kg', 40), totalUnit('kg')]).toEqual([30, 'kg']);
  });

  it('pages from 1 and counts the pages', () => {
    expect(paginate([1, 2, 3, 4, 5], 2, 2)).toEqual({ items: [3, 4], totalPages: 3 });
    expect(paginate([], 1, 50)).toEqual({ items: [], totalPages: 0 });
    expect(paginate([1], 3, 50).items).toEqual([]);
  });
});

describe('work-order recommendations', () => {
  it('accepts a recommendation only when a selected labour has one of its labour types', () => {
    expect(
      recommendationProblems(
        [
          { typeId: 1, value: '20 °C' },
          { typeId: 5, value: '60%' },
        ],
        [1],
      ),
    ).toEqual([]);
    expect(recommendationProblems([{ typeId: 6, value: '3 cm' }], [1, 2])).toHaveLength(1);
    expect(recommendationProblems([{ typeId: 2, value: '6 km/h' }], [3])).toEqual([]);
    expect(recommendationProblems([{ typeId: 7, value: 'x' }], [1, 2, 3])[0]).toContain('no recommendation type 7');
  });
});

describe('work orders service (repository in memory)', () => {
  const orders = new Map<string, WorkOrder>();
  const at = (ownerId: number, uuid: string) => `${ownerId}|${uuid.toLowerCase()}`;
  const repository: WorkOrderRepository = {
    async get(ownerId, uuid) {
      const order = orders.get(at(ownerId, uuid));
      return order ? { ...order } : undefined;
    },
    async listOf(ownerId) {
      return [...orders.values()].filter((o) => o.ownerId === ownerId);
    },
    async pointedAt(fieldOwnerId) {
      return [...orders.values()]
        .filter((o) => o.fieldOwnerIds.includes(fieldOwnerId))
        .map((o) => ({ ownerId: o.ownerId, uuid: o.uuid }));
    },
    async create(order, taken) {
      if (orders.has(at(order.ownerId, order.uuid))) throw taken();
      orders.set(at(order.ownerId, order.uuid), order);
    },
    async replace(order, _previous, gone) {
      if (!orders.has(at(order.ownerId, order.uuid))) throw gone();
      orders.set(at(order.ownerId, order.uuid), order);
    },
    async remove(order, gone) {
      if (!orders.delete(at(order.ownerId, order.uuid))) throw gone();
    },
  };
  // users 1 and 3 read an application (a1, 2026, on a field user 3 owns) and a sowing (s1, 2026, on
  // user 1's field); user 2 reads neither
  const labours: Record<string, { typeId: number; yeargroup: number; fieldOwner: number }> = {
    a1: { typeId: 1, yeargroup: 2026, fieldOwner: 3 },
    s1: { typeId: 3, yeargroup: 2026, fieldOwner: 1 },
    old: { typeId: 1, yeargroup: 2025, fieldOwner: 1 },
  };
  const reader: LabourReader = async (principal, uuids) =>
    principal.user.id === 1 || principal.user.id === 3
      ? uuids
          .filter((u) => labours[u])
          .map(
            (uuid) =>
              ({
                labour: { uuid, typeId: labours[uuid]!.typeId, yeargroup: labours[uuid]!.yeargroup },
                field: { ownerId: labours[uuid]!.fieldOwner },
              }) as unknown as LabourView,
          )
      : [];
  const service = workOrdersService({ repository, labours: reader, now: () => new Date('2026-11-23T10:00:00Z') });
  const input = (labourUuids: string[], extra: Partial<Parameters<typeof service.create>[2]> = {}) => ({
    name: 'OT',
    notes: null,
    date: '2026-11-25',
    yeargroup: 2026,
    labourUuids,
    recommendations: [{ typeId: 1, value: '20 °C' }],
    ...extra,
  });
  const codeOf = (run: Promise<unknown>) =>
    run.then(
      () => 'ok',
      (e) => [e.constructor.name, e.code],
    );

  it("creates once per uuid and body (another body conflicts); a uuid is its creator's; lists by yeargroup", async () => {
    const first = await service.create(principal(1), 'W1', input(['a1']));
    expect(await service.create(principal(1), 'W1', input(['a1']))).toEqual(first);
    expect(
      await codeOf(service.create(principal(1), 'W1', input(['s1'], { name: 'otro', recommendations: [] }))),
    ).toEqual(['Conflict', WORK_ORDER_CODES.UUID_IN_USE]);
    // user 2 cannot see user 1's W1: the uuid is free for it (its labours are checked as for any uuid)
    expect(await codeOf(service.create(principal(2), 'W1', input(['zz'], { recommendations: [] })))).toEqual([
      'Invalid',
      WORK_ORDER_CODES.INVALID_LABOURS,
    ]);
    expect(
      (await service.list(principal(1), 2026)).map((v) => [v.order.uuid, v.labours.map((l) => l.labour.uuid)]),
    ).toEqual([['w1', ['a1']]]);
    expect(await service.list(principal(1), 2025)).toEqual([]);
    expect(await service.list(principal(2), 2026)).toEqual([]);
  });

  it("lets the owner of a labour's field read (not change) the work order; its creator changes it", async () => {
    await service.create(principal(1), 'W3', input(['a1', 's1']));
    expect((await service.list(principal(3), 2026)).map((v) => [v.order.uuid, v.order.ownerId])).toEqual([
      ['w1', 1],
      ['w3', 1],
    ]);
    expect((await service.get(principal(3), 'W3')).order.ownerId).toBe(1);
    expect(await codeOf(service.replace(principal(3), 'W3', input(['a1'])))).toEqual([
      'Forbidden',
      WORK_ORDER_CODES.NOT_ALLOWED,
    ]);
    expect(await codeOf(service.remove(principal(3), 'W3'))).toEqual(['Forbidden', WORK_ORDER_CODES.NOT_ALLOWED]);
    // the field's owner cannot take a uuid it reads
    expect(await codeOf(service.create(principal(3), 'W3', input(['a1'])))).toEqual([
      'Conflict',
      WORK_ORDER_CODES.UUID_IN_USE,
    ]);
    // once the order no longer lists a labour of its fields, it reads it no more
    await service.replace(principal(1), 'W3', input(['s1'], { recommendations: null }));
    expect((await service.list(principal(3), 2026)).map((v) => v.order.uuid)).toEqual(['w1']);
    expect(await codeOf(service.get(principal(3), 'W3'))).toEqual(['NotFound', WORK_ORDER_CODES.NOT_FOUND]);
    await service.remove(principal(1), 'W3');
  });

  it('checks labours and recommendations on create and replace; replace stores what is not sent as null', async () => {
    await expect(service.create(principal(1), 'W2', input(['a1', 'zz']))).rejects.toThrow(/labours not found: zz/);
    await expect(service.create(principal(1), 'W2', input(['a1', 'old']))).rejects.toThrow(/another campaign/);
    await expect(service.create(principal(1), 'W2', input(['s1']))).rejects.toBeInstanceOf(Invalid);
    await expect(service.create(principal(2), 'W2', input(['a1']))).rejects.toThrow(/labours not found/);
    await service.create(principal(1), 'W2', input(['a1']));
    const replaced = await service.replace(principal(1), 'W2', {
      name: null,
      notes: null,
      date: '2026-11-26',
      yeargroup: 2026,
      labourUuids: ['s1'],
      recommendations: null,
    });
    expect([replaced.name, replaced.recommendations, replaced.labourUuids, replaced.createdAt]).toEqual([
      null,
      null,
      ['s1'],
      '2026-11-23T10:00:00.000Z',
    ]);
    await expect(service.replace(principal(2), 'W2', input(['a1']))).rejects.toBeInstanceOf(NotFound);
    await expect(service.remove(principal(2), 'W2')).rejects.toBeInstanceOf(NotFound);
    await service.remove(principal(1), 'W2');
    await expect(service.get(principal(1), 'W2')).rejects.toBeInstanceOf(NotFound);
  });
});
