// Sensors (spec 1): variable groups and variables. A group belongs to one user and extension
// pair, and its uuid (and its variables' uuids) name records within that pair only; variables
// live in groups. Records are soft-deleted (deleted_at) and stay deleted.
import { validate as isUuid } from 'uuid';
import { Invalid } from '../errors';
import { as, entity, nullable, num, numOr, str, strOr, type EntityOf } from '../db/entity';
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

/** A group of variables (a station, a device) of one user and extension. */
export const VariableGroup = entity('sensor_group', {
  uuid: str('group_uuid'),
  id: num('group_id'),
  userId: num('user_id'),
  extensionId: str('extension_id'),
  createdAt: str('created_at'),
  deletedAt: nullable(str('deleted_at')),
  groupName: str('group_name'),
  userGroupName: nullable(str('user_group_name')),
  device: strOr('device', ''),
  position: nullable(str('position')),
  userPosition: nullable(str('user_position')),
  timezoneOffset: numOr('timezone_offset', 0),
  metadata: as<Record<string, unknown>>('metadata', {}),
  version: numOr('version', 1),
});
export type VariableGroup = EntityOf<typeof VariableGroup>;

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

// A variable keeps its item mapping by hand: its user name falls back to its name and its last
// value time is also written as seconds (last_value_ts), which one definition per attribute cannot say.
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
