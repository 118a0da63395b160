// Storage of sensor values (docs/sensors-storage.md): one item per variable and UTC day holding
// that day's values packed (codec.ts); a day with more than MAX_POINTS_PER_ITEM values, or more
// than ITEM_BUDGET_BYTES of them with their metadata, is split into 2, 4 or 8 equal time parts. Writes merge with what is stored (one value per timestamp,
// last write wins) under a version condition, so concurrent writers never lose each other's
// values: a single-part day is one conditional PutItem; a split day is one transaction.
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { NOT_EXISTS, putItem, queryAll, queryItems, transact, tx } from '../db/table';
import { Invalid } from '../errors';
import { decodePoints, encodePoints, mergePoints, type Point } from './codec';
import { SENSOR_CODES } from './codes';
import type { Series, SeriesStore, WriteStats } from './service';

export const DAY_SECONDS = 86_400;
export const MAX_POINTS_PER_ITEM = 30_000;
export const MAX_PARTS = 8;
export const MAX_POINTS_PER_DAY = MAX_POINTS_PER_ITEM * MAX_PARTS;
/** Bytes a part may hold (DynamoDB items are at most 400 KB; a split day's parts, one transaction, at most 4 MB). */
export const ITEM_BUDGET_BYTES = 340_000;

/** Upper bound of a point's stored bytes: timestamp delta and float64, its metadata as JSON with its index. */
const pointBytes = (point: Point): number => 10 + (point.m ? Buffer.byteLength(JSON.stringify(point.m)) + 10 : 0);

export const dayOf = (t: number): string =>
  new Date(Math.floor(t / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10);
const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

interface StoredDay {
  points: Point[];
  version: number;
  parts: number;
}

async function readDay(series: Series, day: string): Promise<StoredDay> {
  const items = await queryAll(keys.sensorChunksOfDay(series.groupId, series.variableUuid, day));
  const first = items.find((item) => String(item.sk).endsWith('#00'));
  return {
    points: items.flatMap((item) => decodePoints(item.d as Uint8Array, item.m as string | undefined)),
    version: Number(first?.version ?? 0),
    parts: items.length,
  };
}

/**
 * Splits a day's points into the fewest equal time parts that each hold at most
 * MAX_POINTS_PER_ITEM points and ITEM_BUDGET_BYTES bytes.
 */
export function partition(day: string, points: Point[]): Point[][] {
  const start = dayStart(day);
  for (let parts = 1; parts <= MAX_PARTS; parts *= 2) {
    const span = DAY_SECONDS / parts;
    const slices: Point[][] = Array.from({ length: parts }, () => []);
    const bytes = new Array<number>(parts).fill(0);
    for (const point of points) {
      const index = Math.min(parts - 1, Math.floor((point.t - start) / span));
      slices[index]!.push(point);
      bytes[index]! += pointBytes(point);
    }
    if (slices.every((slice, i) => slice.length <= MAX_POINTS_PER_ITEM && bytes[i]! <= ITEM_BUDGET_BYTES))
      return slices;
  }
  throw new Invalid(
    `at most ${MAX_POINTS_PER_DAY} values (and ${(MAX_PARTS * ITEM_BUDGET_BYTES) / 1_000_000} MB with their metadata) per variable per day are stored`,
    {
      code: SENSOR_CODES.PARAMETER_ERROR,
    },
  );
}

/** Approximate stored size of an item, as DynamoDB counts it (names and values). */
function itemBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += name.length;
    if (value instanceof Uint8Array) size += value.length;
    else if (typeof value === 'string') size += Buffer.byteLength(value);
    else if (typeof value === 'number') size += 8;
    else size += Buffer.byteLength(JSON.stringify(value ?? null));
  }
  return size;
}

async function writeDay(series: Series, day: string, points: Point[], stored: StoredDay): Promise<WriteStats> {
  const version = stored.version + 1;
  const slices = partition(day, points);
  const items = slices.map((slice, part) => {
    const { data, meta } = encodePoints(slice);
    return {
      ...keys.sensorChunk(series.groupId, series.variableUuid, day, part),
      kind: 'sensor_chunk',
      n: slice.length,
      d: data,
      ...(meta ? { m: meta } : {}),
      ...(slice.length ? { first: slice[0]!.t, last: slice[slice.length - 1]!.t } : {}),
      parts: slices.length,
      version,
    };
  });
  const condition = stored.version ? 'version = :version' : NOT_EXISTS;
  const values = stored.version ? { ':version': stored.version } : undefined;
  const lost = () => new LostRace('the day was written meanwhile');
  const units = items.reduce((sum, item) => sum + Math.ceil(itemBytes(item) / 1024), 0);
  if (items.length === 1 && stored.parts <= 1) {
    await putItem(items[0]!, { expression: condition, values, failure: lost });
    return { items: 1, writeUnits: units };
  }
  const stale = Array.from({ length: Math.max(0, stored.parts - items.length) }, (_, i) =>
    keys.sensorChunk(series.groupId, series.variableUuid, day, items.length + i),
  );
  await transact([
    tx.put(items[0]!, condition, lost, values),
    ...items.slice(1).map((item) => tx.put(item)),
    ...stale.map((key) => tx.delete(key)),
  ]);
  return { items: items.length, writeUnits: 2 * units + 2 * stale.length };
}

/** Stores points of one variable (any order, any days): merged with what is stored. */
async function storePoints(series: Series, points: Point[], concurrency = 16): Promise<WriteStats> {
  const byDay = new Map<string, Point[]>();
  for (const point of points) {
    const day = dayOf(point.t);
    const list = byDay.get(day);
    if (list) list.push(point);
    else byDay.set(day, [point]);
  }
  const totals: WriteStats = { items: 0, writeUnits: 0 };
  const days = [...byDay.entries()];
  const worker = async () => {
    for (let next = days.shift(); next; next = days.shift()) {
      const [day, incoming] = next;
      const stats = await retryLostRace(async () => {
        const stored = await readDay(series, day);
        return writeDay(series, day, mergePoints(stored.points, incoming), stored);
      });
      totals.items += stats.items;
      totals.writeUnits += stats.writeUnits;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, days.length) }, worker));
  return totals;
}

/** Stored points of a variable with from <= t <= to, in time order, read a few items at a time. */
async function* iteratePoints(series: Series, from: number, to: number): AsyncGenerator<Point> {
  if (to < from) return;
  // Parts of a day are disjoint time slices in key order, so items come in time order.
  for await (const item of queryItems({
    ...keys.sensorChunksBetween(series.groupId, series.variableUuid, dayOf(from), dayOf(to)),
    pageSize: 4,
  })) {
    for (const point of decodePoints(item.d as Uint8Array, item.m as string | undefined)) {
      if (point.t >= from && point.t <= to) yield point;
    }
  }
}

/** The series store of the functions: values in DynamoDB, one item per variable and day (or 2, 4, 8 parts). */
export const dynamoSeriesStore: SeriesStore = { store: storePoints, points: iteratePoints };
