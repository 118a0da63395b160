// Variable groups and variables (spec 1, Sensors). A group belongs to one user and extension pair:
// an extension sees and changes only the groups it created for that user; the user in its own
// session sees the groups of every extension and changes none (only extensions create or edit).
// Uuids name groups and variables within their user and extension pair: another user's or
// extension's group with the same uuid is another group, never seen nor hinted at (NOT_FOUND, as
// for a uuid nobody used). Deletion is soft (deleted_at) and final: a deleted group or variable
// accepts no change and no values, and its uuid is not created again.
import type { Principal } from '../auth/principal';
import { retryLostRace } from '../db/retry';
import { Conflict, Forbidden, NotFound } from '../errors';
import { newUuid } from '../util/uuid';
import { SENSOR_CODES } from './codes';
import { nowSeconds, parameterError, type Variable, type VariableGroup } from './model';
import type { SensorChange, SensorDeps } from './service';

export interface SensorCaller {
  userId: number;
  /** Absent: the user's own session. */
  extensionId?: string;
}

export const callerOf = (principal: Principal): SensorCaller => ({
  userId: principal.user.id,
  extensionId: principal.extensionId,
});

const groupNotFound = (uuid: string) =>
  new NotFound(`variable group ${uuid} not found`, { code: SENSOR_CODES.VARIABLEGROUP_NOT_FOUND });
const variableNotFound = (uuid: string) =>
  new NotFound(`variable ${uuid} not found`, { code: SENSOR_CODES.VARIABLE_NOT_FOUND });

/** Only extensions acting for a user create or edit groups, variables and values. */
export function requireExtension(caller: SensorCaller): string {
  if (!caller.extensionId) {
    throw new Forbidden('groups, variables and values are created and edited only by extensions', {
      code: SENSOR_CODES.PERMISSION_ERROR,
    });
  }
  return caller.extensionId;
}

export interface GroupWithVariables {
  group: VariableGroup;
  variables: Variable[];
}

export interface LocatedVariable {
  variable: Variable;
  group: VariableGroup;
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
    uuid: (input.variable_uuid ?? newUuid()).toLowerCase(),
    groupUuid: group.uuid,
    groupId: group.id,
    userId: group.userId,
    extensionId: group.extensionId,
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

function uniqueVariableUuids(inputs: VariableInput[]): void {
  const uuids = inputs.flatMap((v) => (v.variable_uuid ? [v.variable_uuid.toLowerCase()] : []));
  if (new Set(uuids).size !== uuids.length) throw parameterError('a variable_uuid is sent twice');
}

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

const variableTaken = (uuid: string) =>
  new Conflict(`variable ${uuid} already exists (a deleted variable's uuid is not created again)`, {
    code: SENSOR_CODES.VARIABLE_CREATE_ERROR,
  });

const byCreation = (a: Variable, b: Variable) => a.createdAt.localeCompare(b.createdAt) || a.uuid.localeCompare(b.uuid);

export function groupRules({ repository }: SensorDeps) {
  const variablesOf = async (group: VariableGroup) => (await repository.variablesOf(group.id)).sort(byCreation);

  /** The caller's group of this uuid (an extension's own; in the user's session, any of its extensions'). */
  async function findGroup(caller: SensorCaller, uuid: string): Promise<VariableGroup | undefined> {
    if (caller.extensionId !== undefined) return repository.group(caller.userId, caller.extensionId, uuid);
    const found = (await repository.groups(caller.userId)).filter((g) => g.uuid === uuid.toLowerCase());
    return found.sort((a, b) => a.id - b.id)[0];
  }

  async function locateGroup(caller: SensorCaller, uuid: string): Promise<VariableGroup> {
    const group = await findGroup(caller, uuid);
    if (!group) throw groupNotFound(uuid);
    return group;
  }

  /** The caller's variables of these uuids (NOT_FOUND for the first one it does not have). */
  async function locateVariables(caller: SensorCaller, uuids: string[]): Promise<Map<string, LocatedVariable>> {
    const wanted = [...new Set(uuids.map((u) => u.toLowerCase()))];
    const located = await repository.variablesByUuid(caller.userId, caller.extensionId, wanted);
    const missing = wanted.find((u) => !located.has(u));
    if (missing) throw variableNotFound(missing);
    return located;
  }

  async function locateVariable(caller: SensorCaller, uuid: string): Promise<LocatedVariable> {
    return (await locateVariables(caller, [uuid])).get(uuid.toLowerCase())!;
  }

  async function listGroups(caller: SensorCaller, groupUuid?: string): Promise<GroupWithVariables[]> {
    const groups = groupUuid
      ? [await locateGroup(caller, groupUuid)]
      : await repository.groups(caller.userId, caller.extensionId);
    const sorted = groups.sort((a, b) => a.id - b.id);
    return Promise.all(sorted.map(async (group) => ({ group, variables: await variablesOf(group) })));
  }

  return {
    locateGroup,
    locateVariables,
    locateVariable,
    listGroups,

    /**
     * Creates a group (defaults of spec 1, rule 1) with its variables. A group_uuid the caller already
     * has returns that group; a deleted group's uuid is refused (VARIABLEGROUP_CREATE_ERROR).
     */
    async createGroup(caller: SensorCaller, input: GroupInput): Promise<GroupWithVariables> {
      const extensionId = requireExtension(caller);
      const uuid = (input.group_uuid ?? newUuid()).toLowerCase();
      const inputs = input.variables ?? [];
      uniqueVariableUuids(inputs);
      return retryLostRace(async () => {
        const existing = await findGroup(caller, uuid);
        if (existing) {
          if (existing.deletedAt !== null) {
            throw new Conflict(`variable group ${uuid} was deleted; its uuid is not created again`, {
              code: SENSOR_CODES.VARIABLEGROUP_CREATE_ERROR,
            });
          }
          return (await listGroups(caller, uuid))[0]!;
        }
        const group: VariableGroup = {
          uuid,
          id: await repository.nextGroupId(),
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
        await repository.write({ groupCreated: group, variablesCreated: variables }, variableTaken);
        return { group, variables };
      });
    },

    /**
     * Changes the fields sent (spec 1, rule 2: only the changed properties are sent): every group
     * field but user_group_name and user_position, which are ignored; `variables` items with a known
     * variable_uuid change those variables (name, device, metadata), the others are added. Setting
     * deleted_at deletes the group as DELETE does, its variables with it.
     */
    async updateGroup(caller: SensorCaller, uuid: string, input: GroupInput): Promise<GroupWithVariables> {
      requireExtension(caller);
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
          if (known && known.deletedAt !== null)
            throw new Conflict(`variable ${known.uuid} is deleted`, { code: SENSOR_CODES.VARIABLE_UPDATE_ERROR });
          const next = known ? applyVariableChanges(known, item) : newVariable(group, item);
          changes.set(next.uuid, { next, previous: known });
        }
        if (input.deleted_at) {
          next.deletedAt = input.deleted_at;
          for (const variable of stored.values())
            if (!changes.has(variable.uuid)) changes.set(variable.uuid, { next: variable, previous: variable });
          for (const change of changes.values())
            if (change.next.deletedAt === null) change.next = { ...change.next, deletedAt: input.deleted_at };
        }
        const change: Required<Pick<SensorChange, 'groups' | 'variables' | 'variablesCreated'>> = {
          groups: [{ next, previous: group }],
          variables: [],
          variablesCreated: [],
        };
        for (const { next: variable, previous } of changes.values()) {
          if (previous) change.variables.push({ next: variable, previous });
          else change.variablesCreated.push(variable);
        }
        await repository.write(change, variableTaken);
      });
      return (await listGroups(caller, uuid))[0]!;
    },

    /** Soft-deletes the group and its variables (a deleted group stays as it is). */
    async deleteGroup(caller: SensorCaller, uuid: string): Promise<void> {
      requireExtension(caller);
      await retryLostRace(async () => {
        const group = await locateGroup(caller, uuid);
        const at = group.deletedAt ?? nowSeconds();
        const variables = (await variablesOf(group)).filter((v) => v.deletedAt === null);
        await repository.write(
          {
            groups: group.deletedAt === null ? [{ next: { ...group, deletedAt: at }, previous: group }] : [],
            variables: variables.map((v) => ({ next: { ...v, deletedAt: at }, previous: v })),
          },
          variableTaken,
        );
      });
    },

    async createVariable(caller: SensorCaller, groupUuid: string, input: VariableInput): Promise<Variable> {
      const extensionId = requireExtension(caller);
      const group = await locateGroup(caller, groupUuid);
      if (group.deletedAt !== null) throw deletedGroup(groupUuid, 'VARIABLE_CREATE_ERROR');
      const variable = newVariable(group, input);
      if (input.variable_uuid) {
        const existing = (await repository.variablesByUuid(caller.userId, extensionId, [variable.uuid])).get(
          variable.uuid,
        );
        if (existing) {
          if (existing.group.uuid !== group.uuid || existing.variable.deletedAt !== null)
            throw variableTaken(variable.uuid);
          return existing.variable;
        }
      }
      await repository.write(
        {
          variablesCreated: [variable],
          groupLive: { group, refuse: () => deletedGroup(groupUuid, 'VARIABLE_CREATE_ERROR') },
        },
        variableTaken,
      );
      return variable;
    },

    async updateVariable(caller: SensorCaller, uuid: string, input: VariableInput): Promise<Variable> {
      requireExtension(caller);
      return retryLostRace(async () => {
        const { variable } = await locateVariable(caller, uuid);
        if (variable.deletedAt !== null)
          throw new Conflict(`variable ${uuid} is deleted`, { code: SENSOR_CODES.VARIABLE_UPDATE_ERROR });
        const next = applyVariableChanges(variable, input);
        await repository.write({ variables: [{ next, previous: variable }] }, variableTaken);
        return { ...next, version: variable.version + 1 };
      });
    },

    async deleteVariable(caller: SensorCaller, uuid: string): Promise<void> {
      requireExtension(caller);
      await retryLostRace(async () => {
        const { variable } = await locateVariable(caller, uuid);
        if (variable.deletedAt !== null) return;
        await repository.write(
          { variables: [{ next: { ...variable, deletedAt: nowSeconds() }, previous: variable }] },
          variableTaken,
        );
      });
    },
  };
}

export type GroupRules = ReturnType<typeof groupRules>;
