// Sensor groups and variables in DynamoDB (docs/data-model.md, docs/sensors-storage.md): groups in
// their user's partition per extension, variables in their group's, and a ref per user, extension
// and variable uuid naming the variable's group. Values: lib/sensors/timeseries.ts.

import type { Key } from '../db/keys';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import {
  batchGet,
  itemKey,
  NOT_EXISTS,
  nextId,
  queryAll,
  readItem,
  type TxOp,
  transact,
  tx,
  updateItem,
} from '../db/table';
import type { LocatedVariable } from './groups';
import { fromSeconds, Variable, VariableGroup } from './model';
import { type SensorRepository, sensorsService } from './service';
import { dynamoSeriesStore } from './timeseries';

const stale = () => new LostRace('changed meanwhile');
const versioned = (key: Key, item: Record<string, unknown>, previousVersion: number): TxOp =>
  tx.put({ ...key, ...item }, 'version = :version', stale, { ':version': previousVersion });

/** Transactions hold at most 100 items. */
const TRANSACTION_MAX = 100;

export const dynamoSensorRepository: SensorRepository = {
  nextGroupId: () => nextId('sensor_group'),
  async group(userId, extensionId, uuid) {
    return readItem(keys.sensorGroup(userId, extensionId, uuid), VariableGroup.fromItem);
  },
  async groups(userId, extensionId) {
    return (await queryAll(keys.sensorGroupsPrefix(userId, extensionId))).map(VariableGroup.fromItem);
  },
  async variablesOf(groupId) {
    return (await queryAll(keys.sensorVariablesPrefix(groupId))).map(Variable.fromItem);
  },
  async variablesByUuid(userId, extensionId, uuids) {
    const refs = new Map<string, Record<string, unknown>>();
    if (extensionId !== undefined) {
      const found = await batchGet(uuids.map((u) => keys.sensorVariableRef(userId, extensionId, u)));
      for (const uuid of uuids) {
        const ref = found.get(itemKey(keys.sensorVariableRef(userId, extensionId, uuid)));
        if (ref) refs.set(uuid, ref);
      }
    } else {
      for (const uuid of uuids) {
        const [ref] = await queryAll(keys.sensorVariableRefs(userId, uuid));
        if (ref) refs.set(uuid, ref);
      }
    }
    const groupKey = (ref: Record<string, unknown>) =>
      keys.sensorGroup(userId, String(ref.extension_id), String(ref.group_uuid));
    const variableKey = (uuid: string) => keys.sensorVariable(Number(refs.get(uuid)!.group_id), uuid);
    const [groups, variables] = await Promise.all([
      batchGet([...refs.values()].map(groupKey)),
      batchGet([...refs.keys()].map(variableKey)),
    ]);
    const located = new Map<string, LocatedVariable>();
    for (const [uuid, ref] of refs) {
      const group = groups.get(itemKey(groupKey(ref)));
      const variable = variables.get(itemKey(variableKey(uuid)));
      if (group && variable)
        located.set(uuid, { variable: Variable.fromItem(variable), group: VariableGroup.fromItem(group) });
    }
    return located;
  },
  async write(change, variableTaken) {
    const created = change.groupCreated;
    const groupOf = new Map(
      [
        ...(created ? [created] : []),
        ...(change.groups ?? []).map((g) => g.next),
        ...(change.groupLive ? [change.groupLive.group] : []),
      ].map((g) => [g.id, g]),
    );
    const ops: TxOp[] = [
      ...(created
        ? [
            tx.put(
              {
                ...keys.sensorGroup(created.userId, created.extensionId, created.uuid),
                ...VariableGroup.toItem(created),
              },
              NOT_EXISTS,
              () => new LostRace('created meanwhile'),
            ),
          ]
        : []),
      ...(change.groups ?? []).map(({ next, previous }) =>
        versioned(
          keys.sensorGroup(next.userId, next.extensionId, next.uuid),
          VariableGroup.toItem({ ...next, version: previous.version + 1 }),
          previous.version,
        ),
      ),
      // a variable's item and its ref, both new: an existing uuid (even deleted) is not created again
      ...(change.variablesCreated ?? []).flatMap((variable) => {
        const group = groupOf.get(variable.groupId)!;
        return [
          tx.put(
            { ...keys.sensorVariable(variable.groupId, variable.uuid), ...Variable.toItem(variable) },
            NOT_EXISTS,
            () => variableTaken(variable.uuid),
          ),
          tx.put(
            {
              ...keys.sensorVariableRef(group.userId, group.extensionId, variable.uuid),
              kind: 'sensor_variable_ref',
              extension_id: group.extensionId,
              group_uuid: variable.groupUuid,
              group_id: variable.groupId,
            },
            NOT_EXISTS,
            () => variableTaken(variable.uuid),
          ),
        ];
      }),
      ...(change.variables ?? []).map(({ next, previous }) =>
        versioned(
          keys.sensorVariable(next.groupId, next.uuid),
          Variable.toItem({ ...next, version: previous.version + 1 }),
          previous.version,
        ),
      ),
      ...(change.groupLive
        ? [
            tx.check(
              keys.sensorGroup(
                change.groupLive.group.userId,
                change.groupLive.group.extensionId,
                change.groupLive.group.uuid,
              ),
              'deleted_at = :null',
              change.groupLive.refuse,
              { ':null': null },
            ),
          ]
        : []),
    ];
    for (let i = 0; i < ops.length; i += TRANSACTION_MAX) await transact(ops.slice(i, i + TRANSACTION_MAX));
  },
  async setLastValue(variable, point) {
    await updateItem(keys.sensorVariable(variable.groupId, variable.uuid), {
      expression: 'SET last_value = :v, last_value_time = :time, last_value_ts = :t ADD version :one',
      condition: 'attribute_exists(pk) AND (attribute_not_exists(last_value_ts) OR last_value_ts <= :t)',
      values: { ':v': point.v, ':time': fromSeconds(point.t), ':t': point.t, ':one': 1 },
    });
  },
};

/** The sensors service of the functions and the bulk worker: DynamoDB for groups, variables and values. */
export const sensors = /* @__PURE__ */ sensorsService({
  repository: dynamoSensorRepository,
  series: dynamoSeriesStore,
});
