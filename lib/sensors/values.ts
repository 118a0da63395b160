// Sensor values (spec 1, rule 4): ingestion (validated first, then stored per variable) and
// reading (paged, optionally downsampled). A variable's last_value / last_value_time follow the
// latest timestamp ever stored: batches arriving late do not move them back, and a repeated
// timestamp takes the value written last.
import { Invalid } from '../errors';
import { isDateTimeZ } from '../util/time';
import type { Point } from './codec';
import { SENSOR_CODES } from './codes';
import { type GroupRules, requireExtension, type SensorCaller } from './groups';
import type { Variable } from './model';
import { checkUuid, fromSeconds, POINT_METADATA_MAX_BYTES, parameterError, toSeconds } from './model';
import type { SensorDeps, Series, WriteStats } from './service';

export const MAX_VALUES_PER_REQUEST = 2_000_000;
/** Entries of `data` and distinct variables in one request (docs/decisions.md, Sensors). */
export const MAX_ENTRIES_PER_REQUEST = 10_000;
export const MAX_VARIABLES_PER_REQUEST = 1_000;
export const VALUES_LIMIT_MESSAGE = 'Total number of values to insert must not exceed 2,000,000';
export const NO_VALUES_MESSAGE = 'no values were inserted';

export interface ParsedValues {
  byVariable: Map<string, Point[]>;
  total: number;
}

/** Validates a values body `{data: [{variable_uuid, values, timestamps, metadata}]}` completely. */
export function parseValues(body: unknown): ParsedValues {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data))
    throw parameterError('data must be an array of {variable_uuid, values, timestamps, metadata}');
  if (data.length > MAX_ENTRIES_PER_REQUEST)
    throw parameterError(`data has at most ${MAX_ENTRIES_PER_REQUEST} entries`);
  let total = 0;
  for (const entry of data)
    if (entry && Array.isArray((entry as { values?: unknown }).values))
      total += (entry as { values: unknown[] }).values.length;
  if (total > MAX_VALUES_PER_REQUEST) {
    throw new Invalid(`${total} values were sent`, {
      code: SENSOR_CODES.PARAMETER_ERROR,
      extra: { info: VALUES_LIMIT_MESSAGE },
    });
  }
  const byVariable = new Map<string, Point[]>();
  data.forEach((raw, index) => {
    const entry = (raw ?? {}) as {
      variable_uuid?: unknown;
      values?: unknown;
      timestamps?: unknown;
      metadata?: unknown;
    };
    const where = `data[${index}]`;
    const uuid = checkUuid(entry.variable_uuid, `${where}.variable_uuid`);
    if (!Array.isArray(entry.values) || !Array.isArray(entry.timestamps))
      throw parameterError(`${where}: values and timestamps are required arrays`);
    const { values, timestamps } = entry as { values: unknown[]; timestamps: unknown[] };
    const metadata = entry.metadata === undefined || entry.metadata === null ? undefined : entry.metadata;
    if (metadata !== undefined && !Array.isArray(metadata)) throw parameterError(`${where}.metadata must be an array`);
    if (values.length !== timestamps.length || (metadata && metadata.length !== values.length)) {
      throw parameterError(`${where}: values, timestamps and metadata must have the same length`);
    }
    const points = byVariable.get(uuid) ?? [];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const t = timestamps[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw parameterError(`${where}.values[${i}] is not a number`);
      if (!isDateTimeZ(t))
        throw parameterError(`${where}.timestamps[${i}] must be a real date-time YYYY-MM-DDTHH:MM:SSZ`);
      const seconds = toSeconds(t);
      const m = metadata?.[i];
      if (m !== undefined && m !== null && (typeof m !== 'object' || Array.isArray(m)))
        throw parameterError(`${where}.metadata[${i}] must be an object`);
      if (m && Buffer.byteLength(JSON.stringify(m)) > POINT_METADATA_MAX_BYTES) {
        throw parameterError(`${where}.metadata[${i}] is larger than ${POINT_METADATA_MAX_BYTES} bytes as JSON`);
      }
      points.push(
        m && Object.keys(m as object).length ? { t: seconds, v, m: m as Record<string, unknown> } : { t: seconds, v },
      );
    }
    byVariable.set(uuid, points);
    if (byVariable.size > MAX_VARIABLES_PER_REQUEST)
      throw parameterError(`values of at most ${MAX_VARIABLES_PER_REQUEST} variables are sent in one request`);
  });
  return { byVariable, total };
}

export interface InsertStats extends WriteStats {
  values: number;
  variables: number;
}

// --- reading ------------------------------------------------------------------------------------

export const READ_LIMIT_DEFAULT = 1000;
export const READ_LIMIT_MAX = 10_000;

export interface ReadRequest {
  variableUuid: string;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
  /** Seconds: aggregate into buckets of this size (min, max, mean, count). */
  interval?: number;
}

const encodeCursor = (t: number) => Buffer.from(JSON.stringify({ t })).toString('base64url');
function decodeCursor(cursor: string): number {
  try {
    const { t } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t?: unknown };
    if (typeof t === 'number' && Number.isFinite(t)) return t;
  } catch {
    /* fall through */
  }
  throw parameterError('cursor is not one this service gave');
}

/** The value at the latest timestamp of a batch (a repeated timestamp: the later entry wins). */
export function latestOf(points: Point[]): Point {
  let latest = points[0]!;
  for (const point of points) if (point.t >= latest.t) latest = point;
  return latest;
}

export function valueRules(
  { repository, series: store, now = () => new Date() }: SensorDeps,
  { locateVariable, locateVariables }: GroupRules,
) {
  return {
    /**
     * Stores validated values: every variable is checked (the caller's, not deleted) before any is
     * written; then the variables are written side by side (their items are independent).
     */
    async insertValues(caller: SensorCaller, parsed: ParsedValues, concurrency = 32): Promise<InsertStats> {
      requireExtension(caller);
      const wanted = [...parsed.byVariable].filter(([, points]) => points.length);
      const located = await locateVariables(
        caller,
        wanted.map(([uuid]) => uuid),
      );
      const targets: Array<{ variable: Variable; series: Series; points: Point[] }> = [];
      for (const [uuid, points] of wanted) {
        const { variable, group } = located.get(uuid)!;
        if (variable.deletedAt !== null || group.deletedAt !== null) {
          throw new Invalid(`variable ${uuid} is deleted and accepts no values`, {
            code: SENSOR_CODES.VARIABLE_NOT_FOUND,
            status: 404,
          });
        }
        targets.push({ variable, series: { groupId: variable.groupId, variableUuid: variable.uuid }, points });
      }
      const stats: InsertStats = { items: 0, writeUnits: 0, values: 0, variables: targets.length };
      // Many variables: each stores its days one after the other; few variables: their days side by side.
      const daysConcurrency = Math.max(1, Math.floor(concurrency / Math.max(1, targets.length)));
      const queue = [...targets];
      const worker = async () => {
        for (let target = queue.shift(); target; target = queue.shift()) {
          const written = await store.store(target.series, target.points, daysConcurrency);
          stats.items += written.items;
          stats.writeUnits += written.writeUnits;
          stats.values += target.points.length;
          await repository.setLastValue(target.variable, latestOf(target.points));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
      return stats;
    },

    async readValues(caller: SensorCaller, request: ReadRequest) {
      const { variable } = await locateVariable(caller, request.variableUuid);
      const limit = Math.min(request.limit ?? READ_LIMIT_DEFAULT, READ_LIMIT_MAX);
      let from = request.from ? toSeconds(request.from) : 0;
      const to = request.to ? toSeconds(request.to) : Math.floor(now().getTime() / 1000);
      if (request.cursor) from = decodeCursor(request.cursor) + 1;
      if (!request.interval) {
        const points: Point[] = [];
        let more = false;
        for await (const point of store.points({ groupId: variable.groupId, variableUuid: variable.uuid }, from, to)) {
          if (points.length === limit) {
            more = true;
            break;
          }
          points.push(point);
        }
        const last = points[points.length - 1];
        return {
          variable_uuid: variable.uuid,
          timestamps: points.map((p) => fromSeconds(p.t)),
          values: points.map((p) => p.v),
          metadata: points.map((p) => p.m ?? {}),
          next_cursor: more && last ? encodeCursor(last.t) : null,
        };
      }
      // Downsampled: buckets aligned on multiples of `interval` seconds since the epoch.
      const interval = request.interval;
      const buckets: Array<{ start: number; min: number; max: number; sum: number; count: number }> = [];
      let more = false;
      for await (const point of store.points({ groupId: variable.groupId, variableUuid: variable.uuid }, from, to)) {
        const start = Math.floor(point.t / interval) * interval;
        const current = buckets[buckets.length - 1];
        if (current && current.start === start) {
          current.min = Math.min(current.min, point.v);
          current.max = Math.max(current.max, point.v);
          current.sum += point.v;
          current.count++;
          continue;
        }
        if (buckets.length === limit) {
          more = true;
          break;
        }
        buckets.push({ start, min: point.v, max: point.v, sum: point.v, count: 1 });
      }
      const last = buckets[buckets.length - 1];
      return {
        variable_uuid: variable.uuid,
        interval,
        timestamps: buckets.map((b) => fromSeconds(b.start)),
        min: buckets.map((b) => b.min),
        max: buckets.map((b) => b.max),
        mean: buckets.map((b) => b.sum / b.count),
        count: buckets.map((b) => b.count),
        next_cursor: more && last ? encodeCursor(last.start + interval - 1) : null,
      };
    },
  };
}
