// Sensors (spec 1): variable groups and variables. A group belongs to one user and extension
// pair, and its uuid (and its variables' uuids) name records within that pair only; variables
// live in groups. Records are soft-deleted (deleted_at) and stay deleted.
import { validate as isUuid } from 'uuid';
import { Invalid } from '../errors';
import { isoSeconds } from '../util/time';

export const nowSeconds = () => isoSeconds();
export const toSeconds = (timestamp: string): number => Date.parse(timestamp) / 1000;
export const fromSeconds = (seconds: number): string => isoSeconds(seconds * 1000);

export const parameterError = (detail: string) => new Invalid(detail, { code: 'PARAMETER_ERROR' });

/** Largest bulk upload of values (docs/sensors-storage.md). */
export const BULK_MAX_BYTES = 512 * 1024 * 1024;

/** Bounds of what a client stores in groups and variables (docs/decisions.md, Sensors). */
export const SENSOR_LIMITS = {
  TEXT: 200,
  /** JSON bytes of a group's or a variable's metadata. */
  METADATA_BYTES: 16 * 1024,
  VARIABLES_PER_REQUEST: 45,
  TIMEZONE_MINUTES: 24 * 60,
} as const;

export function checkUuid(value: unknown, what: string): string {
  if (typeof value !== 'string' || !isUuid(value)) throw parameterError(`${what} must be a UUID`);
  return value.toLowerCase();
}

export interface VariableGroup {
  uuid: string;
  id: number;
  userId: number;
  extensionId: string;
  createdAt: string;
  deletedAt: string | null;
  groupName: string;
  userGroupName: string | null;
  device: string;
  position: string | null;
  userPosition: string | null;
  timezoneOffset: number;
  metadata: Record<string, unknown>;
  version: number;
}

export interface Variable {
  uuid: string;
  groupUuid: string;
  groupId: number;
  createdAt: string;
  deletedAt: string | null;
  variableName: string;
  userVariableName: string;
  device: string;
  metadata: Record<string, unknown>;
  lastValue: number | null;
  lastValueTime: string | null;
  version: number;
}

type Item = Record<string, unknown>;
const orNull = <T>(value: unknown, map: (v: unknown) => T): T | null => (value === null || value === undefined ? null : map(value));

export const groupFromItem = (item: Item): VariableGroup => ({
  uuid: String(item.group_uuid),
  id: Number(item.group_id),
  userId: Number(item.user_id),
  extensionId: String(item.extension_id),
  createdAt: String(item.created_at),
  deletedAt: orNull(item.deleted_at, String),
  groupName: String(item.group_name),
  userGroupName: orNull(item.user_group_name, String),
  device: String(item.device ?? ''),
  position: orNull(item.position, String),
  userPosition: orNull(item.user_position, String),
  timezoneOffset: Number(item.timezone_offset ?? 0),
  metadata: (item.metadata as Record<string, unknown> | undefined) ?? {},
  version: Number(item.version ?? 1),
});

export const groupToItem = (g: VariableGroup): Item => ({
  kind: 'sensor_group',
  group_uuid: g.uuid,
  group_id: g.id,
  user_id: g.userId,
  extension_id: g.extensionId,
  created_at: g.createdAt,
  deleted_at: g.deletedAt,
  group_name: g.groupName,
  user_group_name: g.userGroupName,
  device: g.device,
  position: g.position,
  user_position: g.userPosition,
  timezone_offset: g.timezoneOffset,
  metadata: g.metadata,
  version: g.version,
});

export const variableFromItem = (item: Item): Variable => ({
  uuid: String(item.variable_uuid),
  groupUuid: String(item.group_uuid),
  groupId: Number(item.group_id),
  createdAt: String(item.created_at),
  deletedAt: orNull(item.deleted_at, String),
  variableName: String(item.variable_name),
  userVariableName: String(item.user_variable_name ?? item.variable_name),
  device: String(item.device ?? ''),
  metadata: (item.metadata as Record<string, unknown> | undefined) ?? {},
  lastValue: orNull(item.last_value, Number),
  lastValueTime: orNull(item.last_value_time, String),
  version: Number(item.version ?? 1),
});

export const variableToItem = (v: Variable): Item => ({
  kind: 'sensor_variable',
  variable_uuid: v.uuid,
  group_uuid: v.groupUuid,
  group_id: v.groupId,
  created_at: v.createdAt,
  deleted_at: v.deletedAt,
  variable_name: v.variableName,
  user_variable_name: v.userVariableName,
  device: v.device,
  metadata: v.metadata,
  last_value: v.lastValue,
  last_value_time: v.lastValueTime,
  ...(v.lastValueTime ? { last_value_ts: Date.parse(v.lastValueTime) / 1000 } : {}),
  version: v.version,
});
