// What a write of the table means for the change feed: a stream record (the item's keys and its
// images before and after) becomes the change of a record, the gain or loss of a user's access
// through a share, or nothing (refs, indexes, counters, feeds, deliveries...). Rules only: no
// DynamoDB; the worker (lib/changes/repository.ts) works out who reads each change.

import type { Key } from '../db/keys';
import { BOOKKEEPING_ATTRIBUTES, REV, recordKindOf } from '../db/revision';
import { unpackWkt } from '../geo/packed';
import { CHANGE_LIMITS, type Change, type ChangeScope, type FeedKind, isFeedKind } from './model';

export type StreamEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/** A stream record, its images unmarshalled. */
export interface StreamChange {
  eventName: StreamEventName;
  keys: Key;
  oldImage?: Record<string, unknown>;
  newImage?: Record<string, unknown>;
  /** When the write happened, ISO. */
  at: string;
  /** Its position in the stream (the batch's failure is reported from it). */
  sequence?: string;
}

const idOf = (pk: string): number => Number(pk.slice(pk.indexOf('#') + 1));
const lastPart = (sk: string): string => sk.slice(sk.lastIndexOf('#') + 1);
const intOr = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : Number.NaN;
  return Number.isInteger(n) ? n : null;
};
const strOr = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Attributes that are the table's, not the record's. */
const INTERNAL = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'ttl',
  REV,
  'kind',
  'secret',
  ...BOOKKEEPING_ATTRIBUTES,
]);

/**
 * What a backfill sets on a record's item written before an index (scripts/backfill.ts), without
 * writing the record (no new revision): the index's keys, and the record's farm where it had none.
 */
const BACKFILLED = new Set(['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'farm_id']);

/**
 * A write that changed none of the record's own attributes: its bookkeeping only
 * (lib/db/revision.ts), or a backfill's index attributes under the same revision (the record, its
 * ETag included, is as it was: an integrator gets no change for it).
 */
function bookkeepingOnly(record: StreamChange): boolean {
  if (record.eventName !== 'MODIFY' || !record.oldImage || !record.newImage) return false;
  const { oldImage, newImage } = record;
  const sameRevision = sameValue(oldImage[REV], newImage[REV]);
  const names = new Set([...Object.keys(oldImage), ...Object.keys(newImage)]);
  let touched = false;
  for (const name of names) {
    if (sameValue(oldImage[name], newImage[name])) continue;
    const backfilled = sameRevision && BACKFILLED.has(name) && (name !== 'farm_id' || oldImage.farm_id === undefined);
    if (!BOOKKEEPING_ATTRIBUTES.has(name) && !backfilled) return false;
    touched = true;
  }
  return touched;
}

/** Two attribute values as the stream gives them (sets and bytes compared by their members). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((v) => b.has(v));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The record as the feed answers it: its item's own attributes (names as docs/data-model.md gives
 * them), without the table's keys and bookkeeping; a packed polygon as its WKT, a document kept as
 * JSON text (`<name>_json`) as `<name>`, sets as arrays, binary values left out. Undefined when its JSON would be larger than the feed carries.
 */
export function presentRecord(item: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) {
    if (INTERNAL.has(name)) continue;
    if (name === 'polygon_packed' && value instanceof Uint8Array) {
      out.polygon = unpackWkt(value);
      continue;
    }
    if (value instanceof Uint8Array) continue;
    // documents kept as JSON text (a storage value's data_json, a map's geojson_json): as JSON
    if (name.endsWith('_json') && typeof value === 'string') {
      try {
        out[name.slice(0, -'_json'.length)] = JSON.parse(value);
        continue;
      } catch {
        // not JSON after all: as it is
      }
    }
    out[name] = value instanceof Set ? [...value] : value;
  }
  return JSON.stringify(out).length > CHANGE_LIMITS.RECORD_BYTES ? undefined : out;
}

/** A spot's texts (`SPOTMSGS#<spot>` / `MSG#...`) and images (`SPOTIMG#<uuid>` / `SPOT#<spot>`). */
function spotContentKind(key: Key): FeedKind | undefined {
  if (key.pk.startsWith('SPOTMSGS#') && key.sk.startsWith('MSG#')) return 'spot_text';
  if (key.pk.startsWith('SPOTIMG#') && key.sk.startsWith('SPOT#')) return 'spot_image';
  return undefined;
}

/** The change of a record's write; undefined for items that are not a record of the feed. */
function recordChange(record: StreamChange): Change | undefined {
  if (bookkeepingOnly(record)) return undefined;
  const kind = spotContentKind(record.keys) ?? recordKindOf(record.keys);
  if (!isFeedKind(kind)) return undefined;
  const { pk, sk } = record.keys;
  const image = (record.newImage ?? record.oldImage ?? {}) as Record<string, unknown>;
  let change: Change['change'] =
    record.eventName === 'INSERT' ? 'created' : record.eventName === 'REMOVE' ? 'deleted' : 'changed';
  // records deleted softly (sensor groups and variables keep a tombstone of their own)
  if (change === 'changed' && record.newImage?.deleted_at && !record.oldImage?.deleted_at) change = 'deleted';
  if (change === 'created' && record.newImage?.deleted_at) return undefined;
  const scope = scopeOf(pk, image);
  if (!scope) return undefined;
  const base: Change = {
    kind,
    change,
    ...identityOf(kind, record.keys, image),
    rev: strOr(image[REV]),
    scope,
    ...('field' in scope ? { fieldId: scope.field } : {}),
    ...('farm' in scope ? { farmId: scope.farm } : {}),
    at: record.at,
    image,
  };
  const farmId = intOr(image.farm_id);
  if (farmId !== null && base.farmId === undefined) base.farmId = farmId;
  if (kind === 'storage_value' || kind === 'storage_file') {
    // KV#<extension, URI-encoded>#<key> (FILE# alike)
    const rest = sk.slice(sk.indexOf('#') + 1);
    const hash = rest.indexOf('#');
    base.extensionId = decodeURIComponent(rest.slice(0, hash));
    base.key = rest.slice(hash + 1);
  }
  if (kind === 'sensor_group' || kind === 'sensor_variable') base.extensionId = strOr(image.extension_id) ?? undefined;
  if (change !== 'deleted' && record.newImage) {
    const body = presentRecord(record.newImage);
    if (body) base.record = body;
  }
  return base;
}

function scopeOf(pk: string, image: Record<string, unknown>): ChangeScope | undefined {
  if (pk.startsWith('SPOTMSGS#') || pk.startsWith('SPOTIMG#')) {
    const spot = intOr(image.spot_id);
    return spot === null ? undefined : { spot };
  }
  if (pk.startsWith('FIELD#')) return { field: idOf(pk) };
  if (pk.startsWith('FARM#')) return { farm: idOf(pk) };
  if (pk.startsWith('USER#')) return { user: idOf(pk) };
  if (pk.startsWith('SENSORGROUPVARS#')) {
    // a variable names its group by id; the group's user and extension are copied onto it
    const user = intOr(image.user_id);
    const extension = strOr(image.extension_id);
    return user === null || extension === null ? undefined : { user, extension };
  }
  if (pk.startsWith('SENSORUSER#')) {
    const extension = strOr(image.extension_id);
    return { user: idOf(pk), ...(extension ? { extension } : {}) };
  }
  return undefined;
}

function identityOf(kind: FeedKind, key: Key, image: Record<string, unknown>): Pick<Change, 'id' | 'uuid'> {
  switch (kind) {
    case 'field':
    case 'farm':
      return { id: idOf(key.pk), uuid: strOr(image.uuid) };
    case 'season_shape':
      return { id: intOr(lastPart(key.sk)), uuid: null };
    case 'map':
      return { id: intOr(lastPart(key.sk)), uuid: null };
    case 'sensor_group':
      return { id: intOr(image.group_id), uuid: strOr(image.group_uuid) };
    case 'sensor_variable':
      return { id: null, uuid: strOr(image.variable_uuid) };
    case 'storage_value':
    case 'storage_file':
      return { id: idOf(key.pk), uuid: null };
    case 'spot_text':
    case 'spot_image':
      return { id: null, uuid: strOr(image.uuid) };
    default:
      return {
        id: intOr(image.id ?? image[`${kind}_id`]),
        uuid: lastPart(key.sk),
      };
  }
}

/** A share written or removed: the user it names gains or loses access to the field or farm. */
function shareChange(record: StreamChange): Change | undefined {
  const { pk, sk } = record.keys;
  if (!sk.startsWith('SHARE#') || record.eventName === 'MODIFY') return undefined;
  const to = Number(sk.slice('SHARE#'.length));
  if (!Number.isInteger(to)) return undefined;
  const change = record.eventName === 'INSERT' ? 'access_gained' : 'access_lost';
  if (pk.startsWith('FIELD#')) {
    const field = idOf(pk);
    return {
      kind: 'field',
      change,
      id: field,
      uuid: null,
      rev: null,
      scope: { field },
      fieldId: field,
      to,
      at: record.at,
    };
  }
  if (pk.startsWith('FARM#')) {
    const farm = idOf(pk);
    return { kind: 'farm', change, id: farm, uuid: null, rev: null, scope: { farm }, farmId: farm, to, at: record.at };
  }
  return undefined;
}

/** What a stream record means for the feed (nothing for most items). */
export function classify(record: StreamChange): Change | undefined {
  return shareChange(record) ?? recordChange(record);
}

/**
 * The changes of a batch, in order: a record whose key changed in one write (a spot text moved to
 * another time is deleted under its old key and written under its new one, in one transaction) is
 * one change of that record, where its new version is. Only such a pair is merged: the deletion
 * and the creation of one record under two different keys, next to each other among that record's
 * changes. A record created and then deleted under the same key (two writes that happened to land
 * in one batch) stays two changes.
 */
export function classifyBatch(records: StreamChange[]): Change[] {
  const changes = records.flatMap((record, source) => {
    const change = classify(record);
    return change ? [{ ...change, source }] : [];
  });
  const identity = (c: Change) => `${c.kind}|${c.uuid}`;
  const keyOf = (c: (typeof changes)[number]) => {
    const { pk, sk } = records[c.source]!.keys;
    return `${pk}|${sk}`;
  };
  const previous = new Map<string, number>();
  const dropped = new Set<number>();
  const merged = new Map<number, (typeof changes)[number]>();
  changes.forEach((c, i) => {
    if (!c.uuid) return;
    const id = identity(c);
    const before = previous.get(id);
    previous.set(id, i);
    if (before === undefined || dropped.has(before) || merged.has(before)) return;
    const b = changes[before]!;
    const pair = new Set([b.change, c.change]);
    if (!(pair.has('created') && pair.has('deleted')) || keyOf(b) === keyOf(c)) return;
    const created = c.change === 'created' ? c : b;
    // the record's one change, at the place of the pair's first write
    merged.set(before, { ...created, change: 'changed', source: b.source });
    dropped.add(i);
  });
  return changes.flatMap((c, i) => (dropped.has(i) ? [] : [merged.get(i) ?? c]));
}
