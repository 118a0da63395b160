// lib/sensors against memory: groups, variables and values without DynamoDB (repository and series
// store are parameters; tests/sensors.test.ts runs the same rules through the API and DynamoDB Local).
import { describe, expect, it } from 'vitest';
import { LostRace } from '../../lib/db/retry';
import { DomainError } from '../../lib/errors';
import type { Point } from '../../lib/sensors/codec';
import { mergePoints } from '../../lib/sensors/codec';
import type { Variable, VariableGroup } from '../../lib/sensors/model';
import {
  type SensorChange,
  type SensorRepository,
  type Series,
  type SeriesStore,
  sensorsService,
} from '../../lib/sensors/service';
import { parseValues } from '../../lib/sensors/values';

function memory() {
  const groups = new Map<string, VariableGroup>(); // user|extension|uuid
  const variables = new Map<string, Variable>(); // groupId|uuid
  const refs = new Map<string, { groupId: number; extensionId: string }>(); // user|extension|uuid
  const values = new Map<string, Point[]>();
  let nextId = 0;
  let loseNextWrite = false;
  const groupAt = (g: VariableGroup) => `${g.userId}|${g.extensionId}|${g.uuid}`;
  const repository: SensorRepository = {
    nextGroupId: async () => ++nextId,
    group: async (userId, extensionId, uuid) => groups.get(`${userId}|${extensionId}|${uuid.toLowerCase()}`),
    groups: async (userId, extensionId) =>
      [...groups.values()].filter(
        (g) => g.userId === userId && (extensionId === undefined || g.extensionId === extensionId),
      ),
    variablesOf: async (groupId) => [...variables.values()].filter((v) => v.groupId === groupId),
    async variablesByUuid(userId, extensionId, uuids) {
      const found = new Map();
      for (const uuid of uuids) {
        const ref = [...refs.entries()].find(
          ([key]) =>
            key.startsWith(`${userId}|`) &&
            key.endsWith(`|${uuid}`) &&
            (extensionId === undefined || key === `${userId}|${extensionId}|${uuid}`),
        );
        if (!ref) continue;
        const variable = variables.get(`${ref[1].groupId}|${uuid}`)!;
        const group = [...groups.values()].find((g) => g.id === ref[1].groupId)!;
        found.set(uuid, { variable, group });
      }
      return found;
    },
    async write(change: SensorChange, variableTaken) {
      if (loseNextWrite) {
        loseNextWrite = false;
        throw new LostRace('changed');
      }
      const created = change.groupCreated;
      if (created && groups.has(groupAt(created))) throw new LostRace('created');
      for (const { previous } of change.groups ?? [])
        if (groups.get(groupAt(previous))?.version !== previous.version) throw new LostRace('stale');
      for (const { previous } of change.variables ?? [])
        if (variables.get(`${previous.groupId}|${previous.uuid}`)?.version !== previous.version)
          throw new LostRace('stale');
      const owner = (v: Variable) =>
        [...groups.values(), ...(created ? [created] : [])].find((g) => g.id === v.groupId)!;
      for (const v of change.variablesCreated ?? [])
        if (refs.has(`${owner(v).userId}|${owner(v).extensionId}|${v.uuid}`)) throw variableTaken(v.uuid);
      if (change.groupLive && groups.get(groupAt(change.groupLive.group))?.deletedAt !== null)
        throw change.groupLive.refuse();
      if (created) groups.set(groupAt(created), created);
      for (const { next, previous } of change.groups ?? [])
        groups.set(groupAt(next), { ...next, version: previous.version + 1 });
      for (const v of change.variablesCreated ?? []) {
        variables.set(`${v.groupId}|${v.uuid}`, v);
        refs.set(`${owner(v).userId}|${owner(v).extensionId}|${v.uuid}`, {
          groupId: v.groupId,
          extensionId: owner(v).extensionId,
        });
      }
      for (const { next, previous } of change.variables ?? [])
        variables.set(`${next.groupId}|${next.uuid}`, { ...next, version: previous.version + 1 });
    },
    async setLastValue(variable, point) {
      const stored = variables.get(`${variable.groupId}|${variable.uuid}`)!;
      if (stored.lastValueTime === null || Date.parse(stored.lastValueTime) / 1000 <= point.t) {
        variables.set(`${variable.groupId}|${variable.uuid}`, {
          ...stored,
          lastValue: point.v,
          lastValueTime: `${new Date(point.t * 1000).toISOString().slice(0, 19)}Z`,
        });
      }
    },
  };
  const series: SeriesStore = {
    async store(s: Series, points: Point[]) {
      const key = `${s.groupId}|${s.variableUuid}`;
      values.set(key, mergePoints(values.get(key) ?? [], points));
      return { items: 1, writeUnits: 1 };
    },
    async *points(s: Series, from: number, to: number) {
      for (const point of values.get(`${s.groupId}|${s.variableUuid}`) ?? [])
        if (point.t >= from && point.t <= to) yield point;
    },
  };
  return { repository, series, variables, groups, loseNext: () => (loseNextWrite = true) };
}

const extension = { userId: 9, extensionId: 'ext-a' };
const other = { userId: 9, extensionId: 'ext-b' };
const session = { userId: 9 };
const V1 = '0f0e0d0c-0000-4000-8000-000000000001';
const V2 = '0f0e0d0c-0000-4000-8000-000000000002';

function setup() {
  const store = memory();
  return {
    ...store,
    service: sensorsService({
      repository: store.repository,
      series: store.series,
      now: () => new Date('2026-06-01T00:00:00Z'),
    }),
  };
}

const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? error.code : error),
  );

describe('sensor rules (repository in memory)', () => {
  it('creates a group with its variables once; the user session sees every extension group and changes none', async () => {
    const { service } = setup();
    const created = await service.createGroup(extension, {
      group_uuid: 'AA000000-0000-4000-8000-000000000001',
      group_name: 'Station',
      variables: [{ variable_uuid: V1, variable_name: 'rain' }],
    });
    const again = await service.createGroup(extension, {
      group_uuid: 'aa000000-0000-4000-8000-000000000001',
      group_name: 'Other',
    });
    expect(again.group.id).toBe(created.group.id);
    expect(created.group).toMatchObject({ groupName: 'Station', device: '', timezoneOffset: 0, deletedAt: null });
    expect(created.variables.map((v) => [v.variableName, v.userVariableName])).toEqual([['rain', 'rain']]);
    expect(await service.listGroups(other)).toEqual([]);
    expect((await service.listGroups(session)).map((g) => g.group.uuid)).toEqual([
      'aa000000-0000-4000-8000-000000000001',
    ]);
    expect(await codeOf(service.createGroup(session, { group_name: 'x' }))).toBe('PERMISSION_ERROR');
    expect(
      await codeOf(
        service.createGroup(extension, { group_uuid: 'AA000000-0000-4000-8000-000000000002', group_name: ' ' }),
      ),
    ).toBe('PARAMETER_ERROR');
    expect(
      await codeOf(
        service.createGroup(extension, {
          group_name: 'x',
          variables: [
            { variable_uuid: V2, variable_name: 'a' },
            { variable_uuid: V2.toUpperCase(), variable_name: 'b' },
          ],
        }),
      ),
    ).toBe('PARAMETER_ERROR');
  });

  it("another extension's uuid is another group; a variable uuid is never created twice, even deleted", async () => {
    const { service } = setup();
    const { group } = await service.createGroup(extension, {
      group_name: 'A',
      variables: [{ variable_uuid: V1, variable_name: 'rain' }],
    });
    const theirs = await service.createGroup(other, { group_uuid: group.uuid, group_name: 'B' });
    expect(theirs.group.id).not.toBe(group.id);
    expect(
      await service.createVariable(extension, group.uuid, { variable_uuid: V1, variable_name: 'rain' }),
    ).toMatchObject({ uuid: V1 });
    await service.deleteVariable(extension, V1);
    expect(
      await codeOf(service.createVariable(extension, group.uuid, { variable_uuid: V1, variable_name: 'rain' })),
    ).toBe('VARIABLE_CREATE_ERROR');
    expect(await codeOf(service.locateVariable(other, V1))).toBe('VARIABLE_NOT_FOUND');
  });

  it('updates only what is sent, adds new variables, and deleting through deleted_at deletes the variables too', async () => {
    const { service, loseNext } = setup();
    const { group } = await service.createGroup(extension, {
      group_name: 'A',
      user_group_name: 'Mine',
      variables: [{ variable_uuid: V1, variable_name: 'rain' }],
    });
    loseNext();
    const updated = await service.updateGroup(extension, group.uuid, {
      device: 'D1',
      user_group_name: 'ignored',
      variables: [
        { variable_uuid: V1, device: 'probe' },
        { variable_uuid: V2, variable_name: 'wind' },
      ],
    });
    expect(updated.group).toMatchObject({ device: 'D1', userGroupName: 'Mine', groupName: 'A', version: 2 });
    expect(updated.variables.map((v) => [v.uuid, v.device])).toEqual([
      [V1, 'probe'],
      [V2, ''],
    ]);
    const deleted = await service.updateGroup(extension, group.uuid, { deleted_at: '2026-06-01T00:00:00Z' });
    expect(deleted.variables.every((v) => v.deletedAt === '2026-06-01T00:00:00Z')).toBe(true);
    expect(await codeOf(service.updateGroup(extension, group.uuid, { device: 'D2' }))).toBe(
      'VARIABLEGROUP_UPDATE_ERROR',
    );
    expect(await codeOf(service.createVariable(extension, group.uuid, { variable_name: 'x' }))).toBe(
      'VARIABLE_CREATE_ERROR',
    );
    expect(await codeOf(service.createGroup(extension, { group_uuid: group.uuid, group_name: 'again' }))).toBe(
      'VARIABLEGROUP_CREATE_ERROR',
    );
  });

  it('stores values after checking every variable; the last value follows the latest timestamp, not the latest batch', async () => {
    const { service, variables } = setup();
    const { group } = await service.createGroup(extension, {
      group_name: 'A',
      variables: [
        { variable_uuid: V1, variable_name: 'rain' },
        { variable_uuid: V2, variable_name: 'wind' },
      ],
    });
    const batch = (uuid: string, values: number[], timestamps: string[]) =>
      parseValues({ data: [{ variable_uuid: uuid, values, timestamps }] });
    await service.insertValues(
      extension,
      batch(V1, [1, 2, 3], ['2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', '2026-05-02T00:00:00Z']),
    );
    await service.insertValues(extension, batch(V1, [9], ['2026-04-01T00:00:00Z']));
    expect(variables.get(`${group.id}|${V1}`)).toMatchObject({ lastValue: 3, lastValueTime: '2026-05-02T00:00:00Z' });
    await service.deleteVariable(extension, V2);
    const mixed = parseValues({
      data: [
        { variable_uuid: V1, values: [5], timestamps: ['2026-05-03T00:00:00Z'] },
        { variable_uuid: V2, values: [1], timestamps: ['2026-05-03T00:00:00Z'] },
      ],
    });
    expect(await codeOf(service.insertValues(extension, mixed))).toBe('VARIABLE_NOT_FOUND');
    const read = await service.readValues(extension, { variableUuid: V1, from: '2026-05-01T00:00:00Z', limit: 2 });
    expect(read.values).toEqual([1, 2]);
    expect(read.next_cursor).not.toBeNull();
    const rest = await service.readValues(extension, {
      variableUuid: V1,
      from: '2026-05-01T00:00:00Z',
      cursor: read.next_cursor!,
    });
    expect(rest.values).toEqual([3]);
    const daily = await service.readValues(extension, {
      variableUuid: V1,
      from: '2026-04-01T00:00:00Z',
      interval: 86400,
    });
    expect(daily).toMatchObject({
      timestamps: ['2026-04-01T00:00:00Z', '2026-05-01T00:00:00Z', '2026-05-02T00:00:00Z'],
      mean: [9, 1.5, 3],
      count: [1, 2, 1],
    });
  });
});
