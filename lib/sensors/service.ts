// Sensors (spec 1): variable groups, variables and their values, as one service built from its
// repository and its series store (services take them as parameters): the rules in groups.ts and
// values.ts run against DynamoDB in the functions (lib/sensors/repository.ts, timeseries.ts) and
// against memory in tests/unit/sensors.test.ts.
import type { DomainError } from '../errors';
import type { Point } from './codec';
import type { LocatedVariable } from './groups';
import { groupRules } from './groups';
import type { Variable, VariableGroup } from './model';
import { valueRules } from './values';

/**
 * Changes of groups and variables written together: new ones (a LostRace when the group's uuid was
 * taken meanwhile, `variableTaken` for a variable uuid the extension already used, even deleted)
 * and new versions of ones read (a LostRace when they changed meanwhile). Atomic up to 100 items;
 * larger changes (a group with many variables) are written in parts, in order, each retry-safe.
 */
export interface SensorChange {
  groupCreated?: VariableGroup;
  groups?: Array<{ next: VariableGroup; previous: VariableGroup }>;
  variablesCreated?: Variable[];
  variables?: Array<{ next: Variable; previous: Variable }>;
  /** The group must still be undeleted (`refuse` otherwise). */
  groupLive?: { group: VariableGroup; refuse: () => DomainError };
}

/** Where groups and variables are kept. */
export interface SensorRepository {
  nextGroupId(): Promise<number>;
  group(userId: number, extensionId: string, uuid: string): Promise<VariableGroup | undefined>;
  /** The user's groups (of one extension when given). */
  groups(userId: number, extensionId?: string): Promise<VariableGroup[]>;
  variablesOf(groupId: number): Promise<Variable[]>;
  /** The user's variables of these uuids that exist, with their groups (of one extension when given; else any extension's). */
  variablesByUuid(
    userId: number,
    extensionId: string | undefined,
    uuids: string[],
  ): Promise<Map<string, LocatedVariable>>;
  write(change: SensorChange, variableTaken: (uuid: string) => DomainError): Promise<void>;
  /** The variable's last value becomes `point` unless a later one is stored. */
  setLastValue(variable: Variable, point: Point): Promise<void>;
}

/** The values of one variable: its group's id and its uuid (a uuid names a variable within its user and extension). */
export interface Series {
  groupId: number;
  variableUuid: string;
}

export interface WriteStats {
  /** Items written (puts). */
  items: number;
  /** Write units, by DynamoDB's rule: 1 per started KB of item, twice in transactions. */
  writeUnits: number;
}

/** Where values are kept (lib/sensors/timeseries.ts in DynamoDB). */
export interface SeriesStore {
  /** Stores points (any order, any days), merged with what is stored: one value per timestamp, the last written wins. */
  store(series: Series, points: Point[], concurrency: number): Promise<WriteStats>;
  /** Stored points with from <= t <= to, in time order. */
  points(series: Series, from: number, to: number): AsyncIterable<Point>;
}

export interface SensorDeps {
  repository: SensorRepository;
  series: SeriesStore;
  now?: () => Date;
}

export function sensorsService(deps: SensorDeps) {
  const groups = groupRules(deps);
  return { ...groups, ...valueRules(deps, groups) };
}
