// Sensors (spec 1): variable groups and variables. A group belongs to one user and extension
// pair, and its uuid (and its variables' uuids) name records within that pair only; variables
// live in groups. Records are soft-deleted (deleted_at) and stay deleted.
import { as, type EntityOf, entity, mapped, nullable, num, numOr, str, strOr } from '../db/entity';
import { Invalid } from '../errors';
import { isoSeconds } from '../util/time';
import { isUuid } from '../util/uuid';
import { SENSOR_CODES } from './codes';

export const nowSeconds = () => isoSeconds();
export const toSeconds = (timestamp: string): number => Date.parse(timestamp) / 1000;
export const fromSeconds = (seconds: number): string => isoSeconds(seconds * 1000);

export const parameterError = (detail: string) => new Invalid(detail, { code: SENSOR_CODES.PARAMETER_ERROR });

/** Largest bulk upload of values (docs/sensors-storage.md). */
/** JSON bytes of one value's metadata (docs/decisions.md, Sensors). */
export const POINT_METADATA_MAX_BYTES = 1024;

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

export const Variable = entity(
  'sensor_variable',
  {
    uuid: str('variable_uuid'),
    groupUuid: str('group_uuid'),
    groupId: num('group_id'),
    /** Its group's user and extension, copied onto it (the change feed's worker reads them; null on items written before). */
    userId: nullable(num('user_id')),
    extensionId: nullable(str('extension_id')),
    createdAt: str('created_at'),
    deletedAt: nullable(str('deleted_at')),
    variableName: str('variable_name'),
    /** The user's name for it; the variable's name until the user gives one. */
    userVariableName: mapped(
      'user_variable_name',
      (v, item) => String(v ?? item.variable_name),
      (v: string) => v,
    ),
    device: strOr('device', ''),
    metadata: as<Record<string, unknown>>('metadata', {}),
    lastValue: nullable(num('last_value')),
    lastValueTime: nullable(str('last_value_time')),
    version: numOr('version', 1),
  },
  // the last value's time also in seconds, for reads that compare it
  { derived: (v) => (v.lastValueTime ? { last_value_ts: Date.parse(v.lastValueTime) / 1000 } : {}) },
);
export type Variable = EntityOf<typeof Variable>;
