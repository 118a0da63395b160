// The change feed's storage (docs/data-model.md): one partition per user, `CHANGES#<user>` /
// `CHANGE#<seq>`, kept by TTL for the retention. The changes worker writes each change of the
// table's stream into the feed of every user who reads the record then (its audience); GET
// /api/changes reads a page of the caller's (lib/changes/service.ts).

import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { platformFieldGate } from '../authz/gate';
import { config } from '../config';
import { keys } from '../db/keys';
import { batchPut, getItem, type Item, queryAll } from '../db/table';
import { NotFound } from '../errors';
import { keyed, memo } from '../util/memo';
import { classifyBatch, presentRecord, type StreamChange } from './classify';
import { newSeq } from './cursor';
import type { Change } from './model';
import { type ChangeAccess, type ChangeStore, changeService, type FeedEntry } from './service';

/**
 * Lambda's event is JSON: binary values (B, BS) arrive base64-encoded; the item as the SDK reads it
 * has them as bytes (a packed polygon).
 */
function binaryOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(binaryOf);
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const attribute = value as Record<string, unknown>;
  if (typeof attribute.B === 'string') return { B: Buffer.from(attribute.B, 'base64') };
  if (Array.isArray(attribute.BS))
    return { BS: attribute.BS.map((b) => (typeof b === 'string' ? Buffer.from(b, 'base64') : b)) };
  return Object.fromEntries(Object.entries(attribute).map(([name, inner]) => [name, binaryOf(inner)]));
}

/** A stream record as the classifier reads it. */
export function streamChangeOf(record: DynamoDBRecord): StreamChange | undefined {
  const data = record.dynamodb;
  if (!data?.Keys || !record.eventName) return undefined;
  const image = (value: unknown) =>
    value
      ? // numbers as the table's reads give them (lib/aws/dynamodb.ts): Number() whatever their size,
        // never a BigInt, which JSON cannot write (one would stop the feed at that record)
        (unmarshall(binaryOf(value) as Parameters<typeof unmarshall>[0], { wrapNumbers: (n) => Number(n) }) as Record<
          string,
          unknown
        >)
      : undefined;
  const keyItem = image(data.Keys) as { pk?: unknown; sk?: unknown };
  if (typeof keyItem.pk !== 'string' || typeof keyItem.sk !== 'string') return undefined;
  const seconds = data.ApproximateCreationDateTime;
  return {
    eventName: record.eventName,
    keys: { pk: keyItem.pk, sk: keyItem.sk },
    oldImage: image(data.OldImage),
    newImage: image(data.NewImage),
    at: new Date(typeof seconds === 'number' ? seconds * 1000 : Date.now()).toISOString(),
    ...(data.SequenceNumber ? { sequence: data.SequenceNumber } : {}),
  };
}

// --- who reads a change (its audience), when the worker writes it -----------------------------

const idsOf = (items: Item[], of: (item: Item) => number | undefined): number[] =>
  items.map(of).filter((id): id is number => id !== undefined && Number.isInteger(id));

const shareUsers = async (query: { pk: string; skPrefix: string }) =>
  idsOf(await queryAll(query), (item) => keys.shareUserOf(String(item.sk)));

const supervisorsOf = async (userId: number) =>
  idsOf(await queryAll(keys.supervisorsOf(userId)), (item) => {
    const sk = String(item.gsi1sk ?? '');
    return sk ? Number(sk.slice(sk.lastIndexOf('#') + 1)) : undefined;
  });

/** The users who read records of a field, of a farm: memoized for one batch of the stream. */
function audiences() {
  const fieldItem = memo((fieldId: number) => getItem(keys.field(fieldId)));
  const farmItem = memo((farmId: number) => getItem(keys.farm(farmId)));
  // readers by field (or farm) and the owner (and farm) they were worked out for: a hint of one
  // change's item never answers for another's
  const fieldReadersOf = keyed<string, number[]>();
  const farmReadersOf = keyed<string, number[]>();

  /**
   * The users who read a field's records: its owner, the users it or its farm is shared with, the
   * owner's supervisors. A field that is gone: its own deletion goes to the readers its deleted item
   * names (`deleted`, its owner and farm), a record of it to nobody (it went with the field, whose
   * deletion says so).
   */
  const fieldReaders = async (fieldId: number, deleted?: { owner?: number; farm?: number }): Promise<number[]> => {
    const field = await fieldItem(fieldId);
    const owner = field ? Number(field.owner_id) : deleted?.owner;
    const farmId = field ? Number(field.farm_id) : deleted?.farm;
    if (owner === undefined || farmId === undefined || !Number.isInteger(owner)) return [];
    return fieldReadersOf(`${fieldId}|${owner}|${farmId}`, async () => {
      const [farmShares, fieldShares, supervisors] = await Promise.all([
        shareUsers(keys.farmSharesPrefix(farmId)),
        shareUsers(keys.fieldSharesPrefix(fieldId)),
        supervisorsOf(owner),
      ]);
      return [owner, ...farmShares, ...fieldShares, ...supervisors];
    });
  };

  /** The users who read a farm's records (and the farm); a farm that is gone: those of the owner its record names. */
  const farmReaders = async (farmId: number, ownerHint?: number): Promise<number[]> => {
    const farm = await farmItem(farmId);
    const owner = farm ? Number(farm.owner_id) : ownerHint;
    if (owner === undefined || !Number.isInteger(owner)) return [];
    return farmReadersOf(`${farmId}|${owner}`, async () => {
      // a share of one of its fields shows the farm too (read only)
      const memberships = await queryAll(keys.farmFieldsPrefix(farmId));
      const fieldIds = idsOf(memberships, (item) => Number(String(item.sk).slice(String(item.sk).indexOf('#') + 1)));
      const [farmShares, supervisors, ...fieldShares] = await Promise.all([
        shareUsers(keys.farmSharesPrefix(farmId)),
        supervisorsOf(owner),
        ...fieldIds.map((fieldId) => shareUsers(keys.fieldSharesPrefix(fieldId))),
      ]);
      return [owner, ...farmShares, ...supervisors, ...fieldShares.flat()];
    });
  };

  /** The field of a spot (its texts and images name it by id); undefined once the spot is gone. */
  const spotField = memo((spotId: number) =>
    getItem(keys.spotById(spotId)).then((item) => (item ? Number(item.field_id) : undefined)),
  );

  return {
    /** A spot's text or image: placed in its spot's field (false when the spot is gone with them). */
    async place(change: Change): Promise<boolean> {
      if (!('spot' in change.scope)) return true;
      const fieldId = await spotField(change.scope.spot);
      if (fieldId === undefined) return false;
      change.scope = { field: fieldId };
      change.fieldId = fieldId;
      return true;
    },
    async of(change: Change, image: Record<string, unknown> | undefined): Promise<number[]> {
      if (change.to !== undefined) return [change.to];
      const scope = change.scope;
      if ('spot' in scope) return [];
      const owner = typeof image?.owner_id === 'number' ? image.owner_id : undefined;
      const farm = typeof image?.farm_id === 'number' ? image.farm_id : undefined;
      const readers =
        'field' in scope
          ? await fieldReaders(scope.field, change.kind === 'field' ? { owner, farm } : undefined)
          : 'farm' in scope
            ? await farmReaders(scope.farm, owner)
            : [scope.user];
      // a work order is listed to the owners of the fields its labours are on too (their pointers);
      // a new array: `readers` may be the batch's memoized readers of a field or farm
      const fieldOwners =
        change.kind === 'work_order' && Array.isArray(image?.field_owner_ids)
          ? (image.field_owner_ids as unknown[]).filter((id): id is number => typeof id === 'number')
          : [];
      return [...new Set([...readers, ...fieldOwners])];
    },
  };
}

/** The record a user gained access to (its entry carries it, as a created record's does). */
async function gainedRecord(change: Change): Promise<Record<string, unknown> | undefined> {
  if (change.change !== 'access_gained' || change.id === null) return undefined;
  const item = await getItem(change.kind === 'field' ? keys.field(change.id) : keys.farm(change.id));
  return item ? presentRecord(item) : undefined;
}

// --- the feed's items ---------------------------------------------------------------------------

const ttlOf = (ms: number) => Math.floor(ms / 1000) + config().changes.retentionDays * 86_400;

function feedItem(userId: number, seq: string, change: Change, writtenAt: number): Item & { pk: string; sk: string } {
  const record = change.record;
  return {
    ...keys.change(userId, seq),
    entry_kind: change.kind,
    change: change.change,
    record_id: change.id,
    record_uuid: change.uuid,
    rev: change.rev,
    ...(change.fieldId !== undefined ? { field_id: change.fieldId } : {}),
    ...(change.farmId !== undefined ? { farm_id: change.farmId } : {}),
    ...(change.extensionId !== undefined ? { extension_id: change.extensionId } : {}),
    ...(change.key !== undefined ? { storage_key: change.key } : {}),
    ...(record ? { record_json: JSON.stringify(record) } : {}),
    ...(!record && ['created', 'changed', 'access_gained'].includes(change.change) ? { record_omitted: true } : {}),
    at: change.at,
    ttl: ttlOf(writtenAt),
  };
}

function entryOf(item: Item): FeedEntry {
  const sk = String(item.sk);
  return {
    seq: sk.slice(sk.indexOf('#') + 1),
    kind: item.entry_kind as FeedEntry['kind'],
    change: item.change as FeedEntry['change'],
    id: typeof item.record_id === 'number' ? item.record_id : null,
    uuid: typeof item.record_uuid === 'string' ? item.record_uuid : null,
    rev: typeof item.rev === 'string' ? item.rev : null,
    ...(typeof item.field_id === 'number' ? { fieldId: item.field_id } : {}),
    ...(typeof item.farm_id === 'number' ? { farmId: item.farm_id } : {}),
    ...(typeof item.extension_id === 'string' ? { extensionId: item.extension_id } : {}),
    ...(typeof item.storage_key === 'string' ? { key: item.storage_key } : {}),
    ...(typeof item.record_json === 'string' ? { record: JSON.parse(item.record_json) } : {}),
    ...(item.record_omitted === true ? { recordOmitted: true } : {}),
    at: String(item.at),
  };
}

/** What a batch of the stream came to: entries written, and the first record not done (a failure). */
export interface AppendOutcome {
  entries: number;
  /** The changes written, in order, each with the users whose feeds took it. */
  written: Array<{ change: Change; readers: number[] }>;
  /** Index (in the records given) of the first record whose changes are not all written. */
  failedAt?: number;
  error?: unknown;
}

/**
 * Writes the changes of a batch of stream records into their readers' feeds, in the stream's order
 * (one seq time for the batch, then the change's place in it), 25 entries to a request. A failure
 * stops the batch at the first record not completely written: the event source retries from there
 * (ReportBatchItemFailures), so what came before is not written twice.
 */
export async function appendChanges(records: StreamChange[]): Promise<AppendOutcome> {
  const audience = audiences();
  const writtenAt = Date.now();
  const groups: Array<{
    source: number;
    change: Change;
    readers: number[];
    items: Array<Item & { pk: string; sk: string }>;
  }> = [];
  const written: AppendOutcome['written'] = [];
  let failedAt: number | undefined;
  let error: unknown;
  let index = 0;
  for (const change of classifyBatch(records)) {
    const source = change.source ?? 0;
    try {
      if (!(await audience.place(change))) continue;
      if (change.change === 'access_gained') {
        const body = await gainedRecord(change);
        if (body) change.record = body;
      }
      const readers = await audience.of(change, change.image);
      const seq = newSeq(writtenAt, index++);
      // one seq per change: its readers' entries share it (each in its own partition)
      groups.push({
        source,
        change,
        readers,
        items: readers.map((userId) => feedItem(userId, seq, change, writtenAt)),
      });
    } catch (caught) {
      failedAt = source;
      error = caught;
      break;
    }
  }
  let entries = 0;
  let buffer: typeof groups = [];
  const flush = async () => {
    const items = buffer.flatMap((group) => group.items);
    try {
      await batchPut(items);
      entries += items.length;
      written.push(...buffer.map(({ change, readers }) => ({ change, readers })));
      buffer = [];
      return true;
    } catch (caught) {
      failedAt = Math.min(failedAt ?? Number.POSITIVE_INFINITY, buffer[0]!.source);
      error = caught;
      return false;
    }
  };
  let writeFailed = false;
  for (const group of groups) {
    buffer.push(group);
    if (buffer.reduce((n, g) => n + g.items.length, 0) >= 25 && !(await flush())) {
      writeFailed = true;
      break;
    }
  }
  // what was computed before a failure is written (it all comes before the failed record)
  if (!writeFailed && buffer.length) await flush();
  return { entries, written, ...(failedAt !== undefined ? { failedAt, error } : {}) };
}

// --- the functions' instance -------------------------------------------------------------------

const store: ChangeStore = {
  read: async (userId, afterSeq, untilSeq, limit) =>
    (await queryAll({ ...keys.changesBetween(userId, afterSeq, untilSeq), limit })).map(entryOf),
};

const unreadable = new NotFound('unreadable');
const refuse = { notFound: () => unreadable, forbidden: () => unreadable };

const access: ChangeAccess = {
  readableFields: async (principal, fieldIds) =>
    new Set((await platformFieldGate.readableOf(principal, fieldIds)).map((entry) => entry.field.id)),
  readableFarms: async (principal, farmIds) => {
    const readable = await Promise.all(
      farmIds.map((farmId) =>
        platformFieldGate.farm(principal, farmId, 'read', refuse).then(
          () => farmId,
          (error: unknown) => {
            if (error === unreadable) return undefined;
            throw error;
          },
        ),
      ),
    );
    return new Set(readable.filter((id): id is number => id !== undefined));
  },
};

export const changes = changeService(store, access, () => config().changes);
