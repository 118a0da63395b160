// Variable groups and variables (spec 1, Sensors). A group belongs to one user and extension pair:
// an extension sees and changes only the groups it created for that user (ACCESS_ERROR for
// others'); the user in its own session sees the groups of every extension and changes none
// (only extensions create or edit). Deletion is soft (deleted_at).
import { v4 as uuidV4 } from 'uuid';
import { keys } from '../db/keys';
import { EXISTS, getItem, nextId, NOT_EXISTS, queryAll, transact, tx, type TxOp } from '../db/table';
import { Conflict, Forbidden, NotFound } from '../errors';
import type { Principal } from '../auth/principal';
import {
  checkTimestamp,
  checkUuid,
  groupFromItem,
  groupToItem,
  nowSeconds,
  parameterError,
  variableFromItem,
  variableToItem,
  type Variable,
  type VariableGroup,
} from './model';

export interface SensorCaller {
  userId: number;
  /** Absent: the user's own session. */
  extensionId?: string;
}

export const callerOf = (principal: Principal): SensorCaller => ({ userId: principal.user.id, extensionId: principal.extensionId });

const groupNotFound = (uuid: string) => new NotFound(`variable group ${uuid} not found`, { code: 'VARIABLEGROUP_NOT_FOUND' });
const variableNotFound = (uuid: string) => new NotFound(`variable ${uuid} not found`, { code: 'VARIABLE_NOT_FOUND' });
const accessError = (what: string) => new Forbidden(`${what} belongs to another user or extension`, { code: 'ACCESS_ERROR' });
const stale = () => new Conflict('changed meanwhile', { code: 'RETRY' });

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

async function variablesOf(groupUuid: string): Promise<Variable[]> {
  const { pk, skPrefix } = keys.sensorVariablesPrefix(groupUuid);
  return (await queryAll({ pk, skPrefix })).map(variableFromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.uuid.localeCompare(b.uuid));
}

export async function locateGroup(caller: SensorCaller, uuid: string): Promise<VariableGroup> {
  const ref = await getItem(keys.sensorGroupRef(uuid));
  if (!ref) throw groupNotFound(uuid);
  if (Number(ref.user_id) !== caller.userId || (caller.extensionId !== undefined && ref.extension_id !== caller.extensionId)) {
    throw accessError(`variable group ${uuid}`);
  }
  const item = await getItem(keys.sensorGroup(Number(ref.user_id), String(ref.extension_id), uuid));
  if (!item) throw groupNotFound(uuid);
  return groupFromItem(item);
}

export async function locateVariable(caller: SensorCaller, uuid: string): Promise<{ variable: Variable; group: VariableGroup }> {
  const ref = await getItem(keys.sensorVariableRef(uuid));
  if (!ref) throw variableNotFound(uuid);
  let group: VariableGroup;
  try {
    group = await locateGroup(caller, String(ref.group_uuid));
  } catch (error) {
    if (error instanceof Forbidden) throw accessError(`variable ${uuid}`);
    if (error instanceof NotFound) throw variableNotFound(uuid);
    throw error;
  }
  const item = await getItem(keys.sensorVariable(group.uuid, uuid));
  if (!item) throw variableNotFound(uuid);
  return { variable: variableFromItem(item), group };
}

export async function listGroups(caller: SensorCaller, groupUuid?: string): Promise<GroupWithVariables[]> {
  const groups = groupUuid
    ? [await locateGroup(caller, groupUuid)]
    : (await queryAll(keys.sensorGroupsPrefix(caller.userId, caller.extensionId))).map(groupFromItem);
  const sorted = groups.sort((a, b) => a.id - b.id);
  return Promise.all(sorted.map(async (group) => ({ group, variables: await variablesOf(group.uuid) })));
}

// --- inputs ------------------------------------------------------------------------------------

export interface VariableInput {
  variable_uuid?: string;
  variable_name?: unknown;
  device?: unknown;
  metadata?: unknown;
  created_at?: unknown;
  deleted_at?: unknown;
  user_variable_name?: unknown;
}

const text = (value: unknown, what: string, max = 200): string => {
  if (typeof value !== 'string' || value.length > max) throw parameterError(`${what} must be a string of at most ${max} characters`);
  return value;
};
const optionalText = (value: unknown, what: string): string | null => (value === null || value === undefined ? null : text(value, what));
const object = (value: unknown, what: string): Record<string, unknown> => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw parameterError(`${what} must be an object`);
  return value as Record<string, unknown>;
};

function newVariable(group: VariableGroup, input: VariableInput): Variable {
  const name = text(input.variable_name, 'variable_name');
  if (!name.trim()) throw parameterError('variable_name is required');
  return {
    uuid: input.variable_uuid ? checkUuid(input.variable_uuid, 'variable_uuid') : uuidV4(),
    groupUuid: group.uuid,
    groupId: group.id,
    createdAt: input.created_at === undefined ? nowSeconds() : checkTimestamp(input.created_at, 'created_at'),
    deletedAt: input.deleted_at === undefined || input.deleted_at === null ? null : checkTimestamp(input.deleted_at, 'deleted_at'),
    variableName: name,
    userVariableName: input.user_variable_name === undefined || input.user_variable_name === null ? name : text(input.user_variable_name, 'user_variable_name'),
    device: input.device === undefined || input.device === null ? '' : text(input.device, 'device'),
    metadata: input.metadata === undefined || input.metadata === null ? {} : object(input.metadata, 'metadata'),
    lastValue: null,
    lastValueTime: null,
    version: 1,
  };
}

const variableCreation = (variable: Variable): TxOp[] => [
  tx.put({ ...keys.sensorVariable(variable.groupUuid, variable.uuid), ...variableToItem(variable) }, NOT_EXISTS),
  tx.put({ ...keys.sensorVariableRef(variable.uuid), kind: 'sensor_variable_ref', group_uuid: variable.groupUuid }, NOT_EXISTS, () =>
    new Conflict(`variable ${variable.uuid} already exists`, { code: 'VARIABLE_CREATE_ERROR' }),
  ),
];

export interface GroupInput {
  group_uuid?: unknown;
  created_at?: unknown;
  deleted_at?: unknown;
  group_name?: unknown;
  user_group_name?: unknown;
  device?: unknown;
  position?: unknown;
  user_position?: unknown;
  timezone_offset?: unknown;
  metadata?: unknown;
  variables?: VariableInput[];
}

function timezoneOffset(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 24 * 60) {
    throw parameterError('timezone_offset must be an integer number of minutes (it cannot be null)');
  }
  return value;
}

/** Creates a group (defaults of spec 1, rule 1) with its variables; a repeated group_uuid returns the group. */
export async function createGroup(caller: SensorCaller, input: GroupInput): Promise<GroupWithVariables> {
  const extensionId = requireExtension(caller);
  const uuid = input.group_uuid === undefined ? uuidV4() : checkUuid(input.group_uuid, 'group_uuid');
  const existing = await getItem(keys.sensorGroupRef(uuid));
  if (existing) {
    if (Number(existing.user_id) !== caller.userId || existing.extension_id !== extensionId) {
      throw new Conflict(`variable group ${uuid} already exists`, { code: 'VARIABLEGROUP_CREATE_ERROR' });
    }
    return (await listGroups(caller, uuid))[0]!;
  }
  const name = text(input.group_name, 'group_name');
  if (!name.trim()) throw parameterError('group_name is required');
  const group: VariableGroup = {
    uuid,
    id: await nextId('sensor_group'),
    userId: caller.userId,
    extensionId,
    createdAt: input.created_at === undefined ? nowSeconds() : checkTimestamp(input.created_at, 'created_at'),
    deletedAt: input.deleted_at === undefined || input.deleted_at === null ? null : checkTimestamp(input.deleted_at, 'deleted_at'),
    groupName: name,
    userGroupName: optionalText(input.user_group_name, 'user_group_name'),
    device: input.device === undefined || input.device === null ? '' : text(input.device, 'device'),
    position: optionalText(input.position, 'position'),
    userPosition: optionalText(input.user_position, 'user_position'),
    timezoneOffset: input.timezone_offset === undefined ? 0 : timezoneOffset(input.timezone_offset),
    metadata: input.metadata === undefined ? {} : object(input.metadata, 'metadata'),
    version: 1,
  };
  const variables = (input.variables ?? []).map((v) => newVariable(group, v));
  if (variables.length > 45) throw parameterError('at most 45 variables can be created with a group; add more with POST /providers/variables');
  try {
    await transact([
      tx.put({ ...keys.sensorGroup(caller.userId, extensionId, uuid), ...groupToItem(group) }, NOT_EXISTS),
      tx.put({ ...keys.sensorGroupRef(uuid), kind: 'sensor_group_ref', user_id: caller.userId, extension_id: extensionId }, NOT_EXISTS, () =>
        new Conflict('created meanwhile', { code: 'RETRY' }),
      ),
      ...variables.flatMap(variableCreation),
    ]);
  } catch (error) {
    if (error instanceof Conflict && error.code === 'RETRY') return createGroup(caller, input);
    throw error;
  }
  return { group, variables };
}

const groupWrite = (next: VariableGroup, previous: VariableGroup): TxOp =>
  tx.put({ ...keys.sensorGroup(next.userId, next.extensionId, next.uuid), ...groupToItem({ ...next, version: previous.version + 1 }) }, 'version = :version', stale, {
    ':version': previous.version,
  });

/**
 * Changes the fields sent (spec 1, rule 2): every group field but user_group_name and
 * user_position, which are ignored; `variables` items with a known variable_uuid change those
 * variables (name, device, metadata), the others are added.
 */
export async function updateGroup(caller: SensorCaller, uuid: string, input: GroupInput): Promise<GroupWithVariables> {
  requireExtension(caller);
  for (let attempt = 0; ; attempt++) {
    const group = await locateGroup(caller, uuid);
    const next: VariableGroup = { ...group };
    if (input.created_at !== undefined) next.createdAt = checkTimestamp(input.created_at, 'created_at');
    if (input.deleted_at !== undefined) next.deletedAt = input.deleted_at === null ? null : checkTimestamp(input.deleted_at, 'deleted_at');
    if (input.group_name !== undefined) {
      next.groupName = text(input.group_name, 'group_name');
      if (!next.groupName.trim()) throw parameterError('group_name cannot be empty');
    }
    if (input.device !== undefined) next.device = input.device === null ? '' : text(input.device, 'device');
    if (input.position !== undefined) next.position = optionalText(input.position, 'position');
    if (input.timezone_offset !== undefined) next.timezoneOffset = timezoneOffset(input.timezone_offset);
    if (input.metadata !== undefined) next.metadata = object(input.metadata, 'metadata');
    const ops: TxOp[] = [groupWrite(next, group)];
    const current = new Map((await variablesOf(uuid)).map((v) => [v.uuid, v]));
    for (const item of input.variables ?? []) {
      const known = item.variable_uuid ? current.get(checkUuid(item.variable_uuid, 'variable_uuid')) : undefined;
      if (known) ops.push(variableWrite(applyVariableChanges(known, item), known));
      else ops.push(...variableCreation(newVariable(next, item)));
    }
    try {
      await transact(ops);
    } catch (error) {
      if (error instanceof Conflict && error.code === 'RETRY' && attempt < 5) continue;
      throw error;
    }
    return (await listGroups(caller, uuid))[0]!;
  }
}

/** Soft-deletes the group and its variables. */
export async function deleteGroup(caller: SensorCaller, uuid: string): Promise<void> {
  requireExtension(caller);
  const group = await locateGroup(caller, uuid);
  const at = nowSeconds();
  const variables = (await variablesOf(uuid)).filter((v) => v.deletedAt === null);
  const ops: TxOp[] = [
    ...(group.deletedAt === null ? [groupWrite({ ...group, deletedAt: at }, group)] : []),
    ...variables.map((v) => variableWrite({ ...v, deletedAt: at }, v)),
  ];
  for (let i = 0; i < ops.length; i += 100) await transact(ops.slice(i, i + 100));
}

// --- variables ---------------------------------------------------------------------------------

const variableWrite = (next: Variable, previous: Variable): TxOp =>
  tx.put({ ...keys.sensorVariable(next.groupUuid, next.uuid), ...variableToItem({ ...next, version: previous.version + 1 }) }, 'version = :version', stale, {
    ':version': previous.version,
  });

/** Only variable_name, device and metadata change (spec 1, rule 3); other keys are not applied. */
function applyVariableChanges(variable: Variable, input: VariableInput): Variable {
  const next = { ...variable };
  if (input.variable_name !== undefined) {
    next.variableName = text(input.variable_name, 'variable_name');
    if (!next.variableName.trim()) throw parameterError('variable_name cannot be empty');
  }
  if (input.device !== undefined) next.device = input.device === null ? '' : text(input.device, 'device');
  if (input.metadata !== undefined) next.metadata = input.metadata === null ? {} : object(input.metadata, 'metadata');
  return next;
}

export async function createVariable(caller: SensorCaller, groupUuid: string, input: VariableInput): Promise<Variable> {
  requireExtension(caller);
  const group = await locateGroup(caller, groupUuid);
  if (group.deletedAt !== null) throw new Conflict(`variable group ${groupUuid} is deleted`, { code: 'VARIABLE_CREATE_ERROR' });
  const variable = newVariable(group, input);
  const existing = await getItem(keys.sensorVariableRef(variable.uuid));
  if (existing) {
    if (existing.group_uuid !== group.uuid) throw new Conflict(`variable ${variable.uuid} already exists`, { code: 'VARIABLE_CREATE_ERROR' });
    return (await locateVariable(caller, variable.uuid)).variable;
  }
  await transact([...variableCreation(variable), tx.check(keys.sensorGroupRef(group.uuid), EXISTS)]);
  return variable;
}

export async function updateVariable(caller: SensorCaller, uuid: string, input: VariableInput): Promise<Variable> {
  requireExtension(caller);
  for (let attempt = 0; ; attempt++) {
    const { variable } = await locateVariable(caller, uuid);
    const next = applyVariableChanges(variable, input);
    try {
      await transact([variableWrite(next, variable)]);
      return { ...next, version: variable.version + 1 };
    } catch (error) {
      if (error instanceof Conflict && error.code === 'RETRY' && attempt < 5) continue;
      throw error;
    }
  }
}

export async function deleteVariable(caller: SensorCaller, uuid: string): Promise<void> {
  requireExtension(caller);
  for (let attempt = 0; ; attempt++) {
    const { variable } = await locateVariable(caller, uuid);
    if (variable.deletedAt !== null) return;
    try {
      await transact([variableWrite({ ...variable, deletedAt: nowSeconds() }, variable)]);
      return;
    } catch (error) {
      if (error instanceof Conflict && error.code === 'RETRY' && attempt < 5) continue;
      throw error;
    }
  }
}
