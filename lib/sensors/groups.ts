// Variable groups and variables (spec 1, Sensors). A group belongs to one user and extension pair:
// an extension sees and changes only the groups it created for that user; the user in its own
// session sees the groups of every extension and changes none (only extensions create or edit).
// Uuids name groups and variables within their user and extension pair: another user's or
// extension's group with the same uuid is another group, never seen nor hinted at (NOT_FOUND, as
// for a uuid nobody used). Deletion is soft (deleted_at) and final: a deleted group or variable
// accepts no change and no values, and its uuid is not created again.
import { v4 as uuidV4 } from 'uuid';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { batchGet, getItem, itemKey, nextId, NOT_EXISTS, queryAll, transact, tx, type TxOp } from '../db/table';
import { Conflict, Forbidden, NotFound } from '../errors';
import type { Principal } from '../auth/principal';
import {
  nowSeconds,
  parameterError,
  Variable,
  VariableGroup,
} from './model';

export interface SensorCaller {
  userId: number;
  /** Absent: the user's own session. */
  extensionId?: string;
}

export const callerOf = (principal: Principal): SensorCaller => ({ userId: principal.user.id, extensionId: principal.extensionId });

const groupNotFound = (uuid: string) => new NotFound(`variable group ${uuid} not found`, { code: 'VARIABLEGROUP_NOT_FOUND' });
const variableNotFound = (uuid: string) => new NotFound(`variable ${uuid} not found`, { code: 'VARIABLE_NOT_FOUND' });
const stale = () => new LostRace('changed meanwhile');

/** Only extensions acting for a user create or edit groups, variables and values. */
export function requireExtension(caller: SensorCaller): string {
  if (!caller.extensionId) {
    throw new Forbidden('groups, variables and values are created and edited only by extensions', { code: 'PERMISSION_ERROR' });
  }
  return caller.extensionId;
}

export interface GroupWithVariables {
  group: VariableGroup;
  variables: Variable[];
}

async function variablesOf(group: VariableGroup): Promise<Variable[]> {
  return (await queryAll(keys.sensorVariablesPrefix(group.id))).map(Variable.fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.uuid.localeCompare(b.uuid));
}

/** The caller's group of this uuid (an extension's own; in the user's session, any of its extensions'). */
async function findGroup(caller: SensorCaller, uuid: string): Promise<VariableGroup | undefined> {
  if (caller.extensionId !== undefined) {
    const item = await getItem(keys.sensorGroup(caller.userId, caller.extensionId, uuid));
    return item ? VariableGroup.fromItem(item) : undefined;
  }
  const found = (await queryAll(keys.sensorGroupsPrefix(caller.userId))).map(VariableGroup.fromItem).filter((g) => g.uuid === uuid.toLowerCase());
  return found.sort((a, b) => a.id - b.id)[0];
}

export async function locateGroup(caller: SensorCaller, uuid: string): Promise<VariableGroup> {
  const group = await findGroup(caller, uuid);
  if (!group) throw groupNotFound(uuid);
  return group;
}

export interface LocatedVariable {
  variable: Variable;
  group: VariableGroup;
}

/** The caller's variables of these uuids (NOT_FOUND for the first one it does not have). */
export async function locateVariables(caller: SensorCaller, uuids: string[]): Promise<Map<string, LocatedVariable>> {
  const wanted = [...new Set(uuids.map((u) => u.toLowerCase()))];
  const refs = new Map<string, Record<string, unknown>>();
  if (caller.extensionId !== undefined) {
    const found = await batchGet(wanted.map((u) => keys.sensorVariableRef(caller.userId, caller.extensionId!, u)));
    for (const uuid of wanted) {
      const ref = found.get(itemKey(keys.sensorVariableRef(caller.userId, caller.extensionId, uuid)));
      if (ref) refs.set(uuid, ref);
    }
  } else {
    for (const uuid of wanted) {
      const [ref] = await queryAll(keys.sensorVariableRefs(caller.userId, uuid));
      if (ref) refs.set(uuid, ref);
    }
  }
  const missing = wanted.find((u) => !refs.has(u));
  if (missing) throw variableNotFound(missing);
  const groupKeys = [...refs.values()].map((r) => keys.sensorGroup(caller.userId, String(r.extension_id), String(r.group_uuid)));
  const variableKeys = wanted.map((u) => keys.sensorVariable(Number(refs.get(u)!.group_id), u));
  const [groups, variables] = await Promise.all([batchGet(groupKeys), batchGet(variableKeys)]);
  const located = new Map<string, LocatedVariable>();
  for (const uuid of wanted) {
    const ref = refs.get(uuid)!;
    const group = groups.get(itemKey(keys.sensorGroup(caller.userId, String(ref.extension_id), String(ref.group_uuid))));
    const variable = variables.get(itemKey(keys.sensorVariable(Number(ref.group_id), uuid)));
    if (!group || !variable) throw variableNotFound(uuid);
    located.set(uuid, { variable: Variable.fromItem(variable), group: VariableGroup.fromItem(group) });
  }
  return located;
}

export async function locateVariable(caller: SensorCaller, uuid: string): Promise<LocatedVariable> {
  return (await locateVariables(caller, [uuid])).get(uuid.toLowerCase())!;
}

export async function listGroups(caller: SensorCaller, groupUuid?: string): Promise<GroupWithVariables[]> {
  const groups = groupUuid ? [await locateGroup(caller, groupUuid)] : (await queryAll(keys.sensorGroupsPrefix(caller.userId, caller.extensionId))).map(VariableGroup.fromItem);
  const sorted = groups.sort((a, b) => a.id - b.id);
  return Promise.all(sorted.map(async (group) => ({ group, variables: await variablesOf(group) })));
}

// --- inputs (validated in shape by the routes' schemas: schemas/sensors.ts) ----------------------

export interface VariableInput {
  variable_uuid?: string;
  variable_name?: string;
  device?: string | null;
  metadata?: Record<string, unknown> | null;
  created_at?: string;
  deleted_at?: string | null;
  user_variable_name?: string | null;
}

export interface GroupInput {
  group_uuid?: string;
  created_at?: string;
  deleted_at?: string | null;
  group_name?: string;
  user_group_name?: string | null;
  device?: string | null;
  position?: string | null;
  user_position?: string | null;
  timezone_offset?: number;
  metadata?: Record<string, unknown> | null;
  variables?: VariableInput[];
}

function newVariable(group: VariableGroup, input: VariableInput): Variable {
  const name = input.variable_name?.trim() ? input.variable_name : undefined;
  if (name === undefined) throw parameterError('variable_name is required');
  return {
    uuid: (input.variable_uuid ?? uuidV4()).toLowerCase(),
    groupUuid: group.uuid,
    groupId: group.id,
    createdAt: input.created_at ?? nowSeconds(),
    deletedAt: input.deleted_at ?? null,
    variableName: name,
    userVariableName: input.user_variable_name ?? name,
    device: input.device ?? '',
    metadata: input.metadata ?? {},
    lastValue: null,
    lastValueTime: null,
    version: 1,
  };
}

/** A variable's item and its ref, both new: an existing uuid (even deleted) is not created again. */
const variableCreation = (caller: { userId: number; extensionId: string }, variable: Variable): TxOp[] => [
  tx.put({ ...keys.sensorVariable(variable.groupId, variable.uuid), ...Variable.toItem(variable) }, NOT_EXISTS),
  tx.put(
    { ...keys.sensorVariableRef(caller.userId, caller.extensionId, variable.uuid), kind: 'sensor_variable_ref', extension_id: caller.extensionId, group_uuid: variable.groupUuid, group_id: variable.groupId },
    NOT_EXISTS,
    () => new Conflict(`variable ${variable.uuid} already exists (a deleted variable's uuid is not created again)`, { code: 'VARIABLE_CREATE_ERROR' }),
  ),
];

function uniqueVariableUuids(inputs: VariableInput[]): void {
  const uuids = inputs.flatMap((v) => (v.variable_uuid ? [v.variable_uuid.toLowerCase()] : []));
  if (new Set(uuids).size !== uuids.length) throw parameterError('a variable_uuid is sent twice');
}

/**
 * Creates a group (defaults of spec 1, rule 1) with its variables. A group_uuid the caller already
 * has returns that group; a deleted group's uuid is refused (VARIABLEGROUP_CREATE_ERROR).
 */
export async function createGroup(caller: SensorCaller, input: GroupInput): Promise<GroupWithVariables> {
  const extensionId = requireExtension(caller);
  const uuid = (input.group_uuid ?? uuidV4()).toLowerCase();
  const inputs = input.variables ?? [];
  uniqueVariableUuids(inputs);
  return retryLostRace(async () => {
    const existing = await findGroup(caller, uuid);
    if (existing) {
      if (existing.deletedAt !== null) {
        throw new Conflict(`variable group ${uuid} was deleted; its uuid is not created again`, { code: 'VARIABLEGROUP_CREATE_ERROR' });
      }
      return (await listGroups(caller, uuid))[0]!;
    }
    const group: VariableGroup = {
      uuid,
      id: await nextId('sensor_group'),
      userId: caller.userId,
      extensionId,
      createdAt: input.created_at ?? nowSeconds(),
      deletedAt: input.deleted_at ?? null,
      groupName: input.group_name ?? '',
      userGroupName: input.user_group_name ?? null,
      device: input.device ?? '',
      position: input.position ?? null,
      userPosition: input.user_position ?? null,
      timezoneOffset: input.timezone_offset ?? 0,
      metadata: input.metadata ?? {},
      version: 1,
    };
    if (!group.groupName.trim()) throw parameterError('group_name is required');
    const variables = inputs.map((v) => newVariable(group, v));
    await transact([
      tx.put({ ...keys.sensorGroup(caller.userId, extensionId, uuid), ...VariableGroup.toItem(group) }, NOT_EXISTS, () => new LostRace('created meanwhile')),
      ...variables.flatMap((v) => variableCreation({ userId: caller.userId, extensionId }, v)),
    ]);
    return { group, variables };
  });
}

const groupWrite = (next: VariableGroup, previous: VariableGroup): TxOp =>
  tx.put({ ...keys.sensorGroup(next.userId, next.extensionId, next.uuid), ...VariableGroup.toItem({ ...next, version: previous.version + 1 }) }, 'version = :version', stale, {
    ':version': previous.version,
  });

const variableWrite = (next: Variable, previous: Variable): TxOp =>
  tx.put({ ...keys.sensorVariable(next.groupId, next.uuid), ...Variable.toItem({ ...next, version: previous.version + 1 }) }, 'version = :version', stale, {
    ':version': previous.version,
  });

/** Only variable_name, device and metadata change (spec 1, rule 3); other keys are not applied. */
function applyVariableChanges(variable: Variable, input: VariableInput): Variable {
  const next = { ...variable };
  if (input.variable_name !== undefined) {
    if (!input.variable_name.trim()) throw parameterError('variable_name cannot be empty');
    next.variableName = input.variable_name;
  }
  if (input.device !== undefined) next.device = input.device ?? '';
  if (input.metadata !== undefined) next.metadata = input.metadata ?? {};
  return next;
}

const deletedGroup = (uuid: string, code: string) => new Conflict(`variable group ${uuid} is deleted`, { code });

/**
 * Changes the fields sent (spec 1, rule 2: only the changed properties are sent): every group
 * field but user_group_name and user_position, which are ignored; `variables` items with a known
 * variable_uuid change those variables (name, device, metadata), the others are added. Setting
 * deleted_at deletes the group as DELETE does, its variables with it.
 */
export async function updateGroup(caller: SensorCaller, uuid: string, input: GroupInput): Promise<GroupWithVariables> {
  const extensionId = requireExtension(caller);
  uniqueVariableUuids(input.variables ?? []);
  if (input.deleted_at === null) {
    // a deleted group stays deleted; an undeleted one has nothing to clear
    const group = await locateGroup(caller, uuid);
    if (group.deletedAt !== null) throw deletedGroup(uuid, 'VARIABLEGROUP_UPDATE_ERROR');
  }
  await retryLostRace(async () => {
    const group = await locateGroup(caller, uuid);
    if (group.deletedAt !== null) throw deletedGroup(uuid, 'VARIABLEGROUP_UPDATE_ERROR');
    const next: VariableGroup = { ...group };
    if (input.created_at !== undefined) next.createdAt = input.created_at;
    if (input.group_name !== undefined) {
      if (!input.group_name.trim()) throw parameterError('group_name cannot be empty');
      next.groupName = input.group_name;
    }
    if (input.device !== undefined) next.device = input.device ?? '';
    if (input.position !== undefined) next.position = input.position;
    if (input.timezone_offset !== undefined) next.timezoneOffset = input.timezone_offset;
    if (input.metadata !== undefined) next.metadata = input.metadata ?? {};
    const stored = new Map((await variablesOf(group)).map((v) => [v.uuid, v]));
    // each variable touched: its new state, and its stored one (none for a new variable)
    const changes = new Map<string, { next: Variable; previous?: Variable }>();
    for (const item of input.variables ?? []) {
      const known = item.variable_uuid ? stored.get(item.variable_uuid.toLowerCase()) : undefined;
      if (known && known.deletedAt !== null) throw new Conflict(`variable ${known.uuid} is deleted`, { code: 'VARIABLE_UPDATE_ERROR' });
      const next = known ? applyVariableChanges(known, item) : newVariable(group, item);
      changes.set(next.uuid, { next, previous: known });
    }
    if (input.deleted_at) {
      next.deletedAt = input.deleted_at;
      for (const variable of stored.values()) if (!changes.has(variable.uuid)) changes.set(variable.uuid, { next: variable, previous: variable });
      for (const change of changes.values()) if (change.next.deletedAt === null) change.next = { ...change.next, deletedAt: input.deleted_at };
    }
    const ops: TxOp[] = [groupWrite(next, group)];
    for (const { next: variable, previous } of changes.values()) {
      ops.push(...(previous ? [variableWrite(variable, previous)] : variableCreation({ userId: caller.userId, extensionId }, variable)));
    }
    for (let i = 0; i < ops.length; i += 100) await transact(ops.slice(i, i + 100));
  });
  return (await listGroups(caller, uuid))[0]!;
}

/** Soft-deletes the group and its variables (a deleted group stays as it is). */
export async function deleteGroup(caller: SensorCaller, uuid: string): Promise<void> {
  requireExtension(caller);
  await retryLostRace(async () => {
    const group = await locateGroup(caller, uuid);
    const at = group.deletedAt ?? nowSeconds();
    const variables = (await variablesOf(group)).filter((v) => v.deletedAt === null);
    const ops: TxOp[] = [...(group.deletedAt === null ? [groupWrite({ ...group, deletedAt: at }, group)] : []), ...variables.map((v) => variableWrite({ ...v, deletedAt: at }, v))];
    for (let i = 0; i < ops.length; i += 100) await transact(ops.slice(i, i + 100));
  });
}

// --- variables ---------------------------------------------------------------------------------

export async function createVariable(caller: SensorCaller, groupUuid: string, input: VariableInput): Promise<Variable> {
  const extensionId = requireExtension(caller);
  const group = await locateGroup(caller, groupUuid);
  if (group.deletedAt !== null) throw deletedGroup(groupUuid, 'VARIABLE_CREATE_ERROR');
  const variable = newVariable(group, input);
  if (input.variable_uuid) {
    const existing = await getItem(keys.sensorVariableRef(caller.userId, extensionId, variable.uuid));
    if (existing) {
      const { variable: stored } = await locateVariable(caller, variable.uuid);
      if (existing.group_uuid !== group.uuid || stored.deletedAt !== null) {
        throw new Conflict(`variable ${variable.uuid} already exists (a deleted variable's uuid is not created again)`, { code: 'VARIABLE_CREATE_ERROR' });
      }
      return stored;
    }
  }
  await transact([
    ...variableCreation({ userId: caller.userId, extensionId }, variable),
    tx.check(keys.sensorGroup(caller.userId, extensionId, group.uuid), 'deleted_at = :null', () => deletedGroup(groupUuid, 'VARIABLE_CREATE_ERROR'), { ':null': null }),
  ]);
  return variable;
}

export async function updateVariable(caller: SensorCaller, uuid: string, input: VariableInput): Promise<Variable> {
  requireExtension(caller);
  return retryLostRace(async () => {
    const { variable } = await locateVariable(caller, uuid);
    if (variable.deletedAt !== null) throw new Conflict(`variable ${uuid} is deleted`, { code: 'VARIABLE_UPDATE_ERROR' });
    const next = applyVariableChanges(variable, input);
    await transact([variableWrite(next, variable)]);
    return { ...next, version: variable.version + 1 };
  });
}

export async function deleteVariable(caller: SensorCaller, uuid: string): Promise<void> {
  requireExtension(caller);
  await retryLostRace(async () => {
    const { variable } = await locateVariable(caller, uuid);
    if (variable.deletedAt !== null) return;
    await transact([variableWrite({ ...variable, deletedAt: nowSeconds() }, variable)]);
  });
}

