// Thin helpers over the DynamoDB document client for the main table. Repositories use these;
// nothing outside lib/ talks to DynamoDB.

import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  DeleteCommand,
  type DeleteCommandOutput,
  GetCommand,
  type GetCommandOutput,
  PutCommand,
  type PutCommandOutput,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  type TransactWriteCommandOutput,
  UpdateCommand,
  type UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { ddb } from '../aws/dynamodb';
import { config } from '../config';
import { type DomainError, Invalid, TooLarge } from '../errors';
import { type Key, keys } from './keys';
import { backoffMs, LostRace, RETRY_ATTEMPTS, retryLostRace, sleep } from './retry';
import {
  breaksPrecondition,
  guarded,
  newRev,
  noteRead,
  noteWrite,
  PreconditionFailed,
  preconditionOf,
  REV,
  recordKindOf,
  stampUpdate,
} from './revision';

export type Item = Record<string, unknown>;

const table = () => config().table;

/**
 * Sends a command, turning DynamoDB's refusals of what a client sent into the client's error: a
 * record over the 400 KB item limit (413) or a number outside the range DynamoDB stores (400).
 * Each area bounds what it accepts before writing; this is the net under those bounds.
 */
async function send<T>(command: object): Promise<T> {
  try {
    return (await ddb().send(command as never)) as T;
  } catch (error) {
    const reasons =
      error instanceof TransactionCanceledException
        ? (error.CancellationReasons ?? []).map((r) => r.Message ?? '')
        : [];
    const message = [(error as Error | null)?.message ?? '', ...reasons].join(' ');
    if ((error as Error | null)?.name === 'ValidationException' || error instanceof TransactionCanceledException) {
      if (/item size.*exceeded|size.*exceeded the maximum/i.test(message)) {
        throw new TooLarge('the record would be larger than the 400 KB a record may hold');
      }
      if (/number (overflow|underflow)|magnitude/i.test(message)) {
        throw new Invalid('a number is outside the range that can be stored (magnitudes from 1e-130 to 1e125)');
      }
      if (/levels of nesting|nesting levels|empty attribute name|empty key|attribute name.*empty/i.test(message)) {
        throw new Invalid('an object nests too deep or has an empty key (docs/decisions.md, Bounds)');
      }
    }
    throw error;
  }
}

export async function getItem<T extends Item = Item>(key: Key): Promise<T | undefined> {
  const item = await rawGet<T>(key);
  noteRead(item, key);
  return item;
}

async function rawGet<T extends Item = Item>(key: Key): Promise<T | undefined> {
  const out = await send<GetCommandOutput>(
    new GetCommand({ TableName: table(), Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true }),
  );
  return out.Item as T | undefined;
}

// --- revisions (lib/db/revision.ts): every write of a record's item stamps a new `rev`; a
// conditional request's precondition is ANDed to the write's own condition ------------------------

interface Conditioned {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

const nonEmpty = <T extends object>(value: T | undefined): T | undefined =>
  value && Object.keys(value).length ? value : undefined;

/** The write's parameters with the request's precondition on `key` added to its condition. */
function withPrecondition<T extends Conditioned>(key: Key, params: T): T {
  const pre = preconditionOf(key);
  if (!pre) return params;
  return {
    ...params,
    ConditionExpression: params.ConditionExpression
      ? `(${params.ConditionExpression}) AND ${pre.expression}`
      : pre.expression,
    ExpressionAttributeNames: nonEmpty({ ...params.ExpressionAttributeNames, ...pre.names }),
    ExpressionAttributeValues: nonEmpty({ ...params.ExpressionAttributeValues, ...pre.values }),
  };
}

/** A record's item with a new revision (other items as they are). */
function stampItem<T extends Item & Key>(item: T): T {
  if (!recordKindOf(item)) return item;
  const rev = newRev();
  noteWrite(item, rev);
  return { ...item, [REV]: rev };
}

/** An update of a record's item that also sets a new revision. */
function stampUpdateParams<
  T extends {
    UpdateExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  },
>(key: Key, params: T): T {
  if (!recordKindOf(key) || !params.UpdateExpression) return params;
  const rev = newRev();
  noteWrite(key, rev);
  return {
    ...params,
    UpdateExpression: stampUpdate(params.UpdateExpression),
    ExpressionAttributeNames: { ...params.ExpressionAttributeNames, '#surco_rev_set': REV },
    ExpressionAttributeValues: { ...params.ExpressionAttributeValues, ':surco_rev_set': rev },
  };
}

/**
 * A conditional write of `key` failed: a PreconditionFailed when the request's precondition is what
 * the item now breaks (read again, consistently), else the write's own failure.
 */
async function conditionFailure(key: Key, own: () => Error): Promise<Error> {
  if (guarded(key) && breaksPrecondition(key, await rawGet(key))) return new PreconditionFailed();
  return own();
}

/** The item of a key, read into what `read` makes of it; undefined when there is none. */
export async function readItem<T>(key: Key, read: (item: Item) => T): Promise<T | undefined> {
  const item = await getItem(key);
  return item ? read(item) : undefined;
}

export async function putItem(
  item: Item & Key,
  condition?: { expression: string; values?: Record<string, unknown>; failure: () => DomainError },
): Promise<void> {
  const params = withPrecondition(item, {
    ConditionExpression: condition?.expression,
    ExpressionAttributeValues: condition?.values,
  });
  try {
    await send<PutCommandOutput>(new PutCommand({ TableName: table(), Item: stampItem(item), ...params }));
  } catch (error) {
    if (params.ConditionExpression && error instanceof ConditionalCheckFailedException)
      throw await conditionFailure(item, () => condition?.failure() ?? (error as Error));
    throw error;
  }
}

export interface UpdateSpec {
  expression: string;
  condition?: string;
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

/**
 * Updates one item and returns its new attributes. When the condition fails: throws the given
 * domain error, or returns undefined without one.
 */
export async function updateItem<T extends Item = Item>(
  key: Key,
  update: UpdateSpec,
  onConditionFailed?: () => DomainError,
): Promise<T | undefined> {
  const params = withPrecondition(
    key,
    stampUpdateParams(key, {
      UpdateExpression: update.expression,
      ConditionExpression: update.condition,
      ExpressionAttributeValues: update.values,
      ExpressionAttributeNames: update.names,
    }),
  );
  try {
    const out = await send<UpdateCommandOutput>(
      new UpdateCommand({ TableName: table(), Key: key, ...params, ReturnValues: 'ALL_NEW' }),
    );
    return out.Attributes as T;
  } catch (error) {
    if (params.ConditionExpression && error instanceof ConditionalCheckFailedException) {
      const failure = await conditionFailure(key, () => onConditionFailed?.() ?? (error as Error));
      if (failure instanceof PreconditionFailed || onConditionFailed) throw failure;
      return undefined;
    }
    throw error;
  }
}

/**
 * A conditional update that answers rather than throws, for items that are counters, not records
 * (no revision, no precondition): the item as it now is, or, when the condition does not hold, the
 * number attributes `read` names as they were (DynamoDB gives them back with the refusal: no read).
 */
export async function updateCounter(
  key: Key,
  update: UpdateSpec,
  read: readonly string[],
): Promise<{ updated: true; item: Item } | { updated: false; old: Record<string, number | undefined> }> {
  try {
    const out = await send<UpdateCommandOutput>(
      new UpdateCommand({
        TableName: table(),
        Key: key,
        UpdateExpression: update.expression,
        ConditionExpression: update.condition,
        ExpressionAttributeValues: update.values,
        ExpressionAttributeNames: update.names,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { updated: true, item: out.Attributes ?? {} };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // the refusal's item is in DynamoDB's own form ({N: '...'}): the document client leaves it so
    const item = (error.Item ?? {}) as Record<string, { N?: string } | undefined>;
    return {
      updated: false,
      old: Object.fromEntries(
        read.map((name) => [name, item[name]?.N === undefined ? undefined : Number(item[name]!.N)]),
      ),
    };
  }
}

/**
 * Updates an item's bookkeeping attributes only (lib/db/revision.ts BOOKKEEPING_ATTRIBUTES), as
 * `tx.bookkeeping` does in a transaction: no new revision, no precondition. Answers false, writing
 * nothing, when the item does not exist.
 */
export async function updateBookkeeping(
  key: Key,
  update: { expression: string; values?: Record<string, unknown>; names?: Record<string, string> },
): Promise<boolean> {
  try {
    await send<UpdateCommandOutput>(
      new UpdateCommand({
        TableName: table(),
        Key: key,
        UpdateExpression: update.expression,
        ConditionExpression: EXISTS,
        ExpressionAttributeValues: update.values,
        ExpressionAttributeNames: update.names,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Deletes an item; with a condition, returns false (and deletes nothing) when it does not hold. */
export async function deleteItem(
  key: Key,
  condition?: { expression: string; values: Record<string, unknown> },
): Promise<boolean> {
  const params = withPrecondition(key, {
    ConditionExpression: condition?.expression,
    ExpressionAttributeValues: condition?.values,
  });
  try {
    await send<DeleteCommandOutput>(new DeleteCommand({ TableName: table(), Key: key, ...params }));
    noteWrite(key, undefined);
    return true;
  } catch (error) {
    if (params.ConditionExpression && error instanceof ConditionalCheckFailedException) {
      const failure = await conditionFailure(key, () => error as Error);
      if (failure instanceof PreconditionFailed) throw failure;
      return false;
    }
    throw error;
  }
}

/**
 * Read-modify-write of one item under optimistic concurrency on its `version` attribute: `build`
 * gets the stored item (undefined when absent) and returns the new one, or throws a domain error;
 * a write that lost a race is rebuilt from the newer item (lib/db/retry.ts). Returns what was written.
 */
export async function putVersioned<T extends Item>(
  key: Key,
  build: (current: T | undefined) => Item,
): Promise<Item & Key> {
  return retryLostRace(async () => {
    const current = await getItem<T>(key);
    const version = Number(current?.version ?? 0);
    const item = { ...build(current), ...key, version: version + 1 };
    await putItem(item, {
      expression: current ? 'version = :version' : NOT_EXISTS,
      values: current ? { ':version': version } : undefined,
      failure: () => new LostRace(),
    });
    return item;
  });
}

/** Deletes an item and returns what it held (undefined when there was none). */
export async function takeItem<T extends Item = Item>(key: Key): Promise<T | undefined> {
  const params = withPrecondition<Conditioned>(key, {});
  try {
    const out = await send<DeleteCommandOutput>(
      new DeleteCommand({ TableName: table(), Key: key, ReturnValues: 'ALL_OLD', ...params }),
    );
    if (out.Attributes) noteWrite(key, undefined);
    return out.Attributes as T | undefined;
  } catch (error) {
    if (params.ConditionExpression && error instanceof ConditionalCheckFailedException)
      throw await conditionFailure(key, () => error as Error);
    throw error;
  }
}

export interface QueryOptions {
  pk: string;
  skPrefix?: string;
  /** Sort keys from the first to the second, both included (instead of skPrefix). */
  skBetween?: readonly [string, string];
  index?: 'gsi1' | 'gsi2' | 'gsi3';
  limit?: number;
  descending?: boolean;
  /**
   * A base-table read strongly consistent (the default) or not (`false`: half the read units, for a
   * listing's page, which may lag a write by about a second as an index does; docs/data-model.md).
   * Index reads are eventually consistent whatever this says.
   */
  consistent?: boolean;
}

function keyCondition(
  options: QueryOptions,
  pkName: string,
  skName: string,
): {
  KeyConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  if (options.skBetween) {
    return {
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
      ExpressionAttributeValues: { ':pk': options.pk, ':from': options.skBetween[0], ':to': options.skBetween[1] },
    };
  }
  if (options.skPrefix) {
    return {
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
      ExpressionAttributeValues: { ':pk': options.pk, ':prefix': options.skPrefix },
    };
  }
  return {
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': pkName },
    ExpressionAttributeValues: { ':pk': options.pk },
  };
}

/**
 * The items of a partition (or of an index partition) whose sort key starts with skPrefix (or is in
 * skBetween), in key order (reversed when descending), read one page (`pageSize` items) at a time:
 * stop iterating to stop reading. Base-table reads are strongly consistent unless `consistent: false`;
 * index reads are not.
 */
export async function* queryItems<T extends Item = Item>(
  options: QueryOptions & {
    pageSize?: number;
    /**
     * Each page after the first twice the one before (at most 1,000 items): a source of a merged
     * list reads its share of the page first, and the one that holds most of it in few more calls.
     */
    growing?: boolean;
  },
): AsyncGenerator<T> {
  let startKey: Record<string, unknown> | undefined;
  let limit = options.pageSize;
  const pkName = options.index ? `${options.index}pk` : 'pk';
  const skName = options.index ? `${options.index}sk` : 'sk';
  do {
    const out = await send<QueryCommandOutput>(
      new QueryCommand({
        TableName: table(),
        IndexName: options.index,
        ...keyCondition(options, pkName, skName),
        ConsistentRead: options.index ? undefined : (options.consistent ?? true),
        ScanIndexForward: !options.descending,
        ExclusiveStartKey: startKey,
        Limit: limit,
      }),
    );
    for (const item of (out.Items ?? []) as T[]) {
      noteRead(item, item as unknown as Key);
      yield item;
    }
    startKey = out.LastEvaluatedKey;
    if (options.growing && limit) limit = Math.min(limit * 2, Math.max(limit, 1000));
  } while (startKey);
}

/** Every item of a query (at most `limit`). */
export async function queryAll<T extends Item = Item>(options: QueryOptions): Promise<T[]> {
  const items: T[] = [];
  for await (const item of queryItems<T>({ ...options, pageSize: options.limit })) {
    items.push(item);
    if (options.limit && items.length >= options.limit) break;
  }
  return items;
}

const chunk = <T>(list: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

/**
 * Batch read, strongly consistent unless `consistent: false` (half the read units: for what reads
 * from an index anyway, which is eventually consistent); the result is keyed by `${pk}|${sk}`.
 */
export async function batchGet<T extends Item = Item>(
  keyList: Key[],
  { consistent = true }: { consistent?: boolean } = {},
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const unique = [...new Map(keyList.map((k) => [`${k.pk}|${k.sk}`, k])).values()];
  for (const part of chunk(unique, 100)) {
    let pending: Key[] = part;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(backoffMs(attempt));
      const out = await send<BatchGetCommandOutput>(
        new BatchGetCommand({ RequestItems: { [table()]: { Keys: pending, ConsistentRead: consistent } } }),
      );
      for (const item of (out.Responses?.[table()] ?? []) as Array<T & Key>) {
        noteRead(item, item);
        found.set(`${item.pk}|${item.sk}`, item);
      }
      pending = (out.UnprocessedKeys?.[table()]?.Keys ?? []) as Key[];
      if (attempt >= RETRY_ATTEMPTS && pending.length) throw new Error('batchGet: unprocessed keys remain');
    }
  }
  return found;
}

export const itemKey = (key: Key): string => `${key.pk}|${key.sk}`;

/** Deletes many items, idempotently (deleting an absent item is not an error). */
export async function batchDelete(keyList: Key[]): Promise<void> {
  // a record a conditional request names is deleted on its own, under its precondition
  const conditional = keyList.filter(guarded);
  for (const key of conditional) await takeItem(key);
  if (conditional.length) keyList = keyList.filter((key) => !guarded(key));
  for (const key of keyList) if (recordKindOf(key)) noteWrite(key, undefined);
  for (const part of chunk(keyList, 25)) {
    let pending = part.map((key) => ({ DeleteRequest: { Key: key } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(backoffMs(attempt));
      const out = await send<BatchWriteCommandOutput>(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
      pending = (out.UnprocessedItems?.[table()] ?? []) as typeof pending;
      if (attempt >= RETRY_ATTEMPTS && pending.length) throw new Error('batchDelete: unprocessed items remain');
    }
  }
}

/**
 * Writes many items that are not records (no revision, no precondition: logs and feeds), 25 to a
 * request, retrying what DynamoDB leaves unprocessed.
 */
export async function batchPut(items: Array<Item & Key>): Promise<void> {
  for (const item of items) {
    if (recordKindOf(item)) throw new Error(`batchPut writes no records (${item.pk} / ${item.sk})`);
  }
  for (const part of chunk(items, 25)) {
    let pending = part.map((item) => ({ PutRequest: { Item: item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(backoffMs(attempt));
      const out = await send<BatchWriteCommandOutput>(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
      pending = (out.UnprocessedItems?.[table()] ?? []) as typeof pending;
      if (attempt >= RETRY_ATTEMPTS && pending.length) throw new Error('batchPut: unprocessed items remain');
    }
  }
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type NoTable<T> = Omit<NonNullable<T>, 'TableName'>;

/** A transaction item of the main table (the table name is added when sent). */
export interface TxItem {
  Put?: NoTable<TransactItem['Put']>;
  Update?: NoTable<TransactItem['Update']>;
  Delete?: NoTable<TransactItem['Delete']>;
  ConditionCheck?: NoTable<TransactItem['ConditionCheck']>;
}

export interface TxOp {
  item: TxItem;
  /** The domain error to throw when this item's condition fails. */
  onConditionFailed?: () => DomainError;
  /** An update of bookkeeping attributes only: sent as it is (no revision, no precondition). */
  bookkeeping?: true;
}

type Values = Record<string, unknown>;

/** Builders of transaction items. */
export const tx = {
  put: (item: Item & Key, condition?: string, onConditionFailed?: () => DomainError, values?: Values): TxOp => ({
    item: {
      Put: {
        Item: item,
        ...(condition ? { ConditionExpression: condition } : {}),
        ...(values ? { ExpressionAttributeValues: values } : {}),
      },
    },
    onConditionFailed,
  }),
  delete: (key: Key, condition?: string, onConditionFailed?: () => DomainError, values?: Values): TxOp => ({
    item: {
      Delete: {
        Key: key,
        ...(condition ? { ConditionExpression: condition } : {}),
        ...(values ? { ExpressionAttributeValues: values } : {}),
      },
    },
    onConditionFailed,
  }),
  check: (key: Key, condition: string, onConditionFailed?: () => DomainError, values?: Values): TxOp => ({
    item: {
      ConditionCheck: {
        Key: key,
        ConditionExpression: condition,
        ...(values ? { ExpressionAttributeValues: values } : {}),
      },
    },
    onConditionFailed,
  }),
  update: (
    key: Key,
    update: { expression: string; condition?: string; values?: Values; names?: Record<string, string> },
    onConditionFailed?: () => DomainError,
  ): TxOp => ({
    item: {
      Update: {
        Key: key,
        UpdateExpression: update.expression,
        ...(update.condition ? { ConditionExpression: update.condition } : {}),
        ...(update.values ? { ExpressionAttributeValues: update.values } : {}),
        ...(update.names ? { ExpressionAttributeNames: update.names } : {}),
      },
    },
    onConditionFailed,
  }),
  /**
   * An update of an item's bookkeeping attributes only (lib/db/revision.ts BOOKKEEPING_ATTRIBUTES): a
   * record's item keeps its revision, and the request's precondition is not made its condition.
   */
  bookkeeping: (
    key: Key,
    update: { expression: string; condition?: string; values?: Values; names?: Record<string, string> },
  ): TxOp => ({
    ...tx.update(key, update),
    bookkeeping: true,
  }),
};

export const NOT_EXISTS = 'attribute_not_exists(pk)';
export const EXISTS = 'attribute_exists(pk)';

/** The key a transaction item writes or checks. */
const keyOfTx = (op: TxItem): Key | undefined =>
  (op.Put?.Item as (Item & Key) | undefined) ??
  (op.Update?.Key as Key | undefined) ??
  (op.Delete?.Key as Key | undefined) ??
  (op.ConditionCheck?.Key as Key | undefined);

/** A transaction item as sent: with its table, a record's new revision and the request's precondition. */
const withTable = (op: TxItem): TransactItem => {
  const TableName = table();
  if (op.Put) {
    const Item = stampItem(op.Put.Item as Item & Key);
    return { Put: { ...withPrecondition(Item, op.Put), Item, TableName } };
  }
  if (op.Update) {
    const key = op.Update.Key as Key;
    return { Update: { ...withPrecondition(key, stampUpdateParams(key, op.Update)), TableName } };
  }
  if (op.Delete) {
    noteWrite(op.Delete.Key as Key, undefined);
    return { Delete: { ...withPrecondition(op.Delete.Key as Key, op.Delete), TableName } };
  }
  if (op.ConditionCheck) return { ConditionCheck: { ...op.ConditionCheck, TableName } };
  throw new Error('empty transaction item');
};

/**
 * All-or-nothing write of up to 100 items. When a condition fails, the first failing item's
 * domain error is thrown (a LostRace where the item was read before: the caller's
 * retryLostRace redoes the whole operation); cancellations by a conflicting concurrent
 * transaction or throttling are retried here, the same request again.
 */
export async function transact(ops: TxOp[], clientRequestToken?: string): Promise<void> {
  // built once: a retry sends the same items (and revisions) under the same request token
  const items = ops.map((op) =>
    op.bookkeeping
      ? { Update: { ...op.item.Update!, TableName: table() } as TransactItem['Update'] }
      : withTable(op.item),
  );
  for (let attempt = 1; ; attempt++) {
    try {
      await send<TransactWriteCommandOutput>(
        new TransactWriteCommand({
          TransactItems: items,
          ClientRequestToken: clientRequestToken,
        }),
      );
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failedIndex = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) {
        const op = ops[failedIndex];
        const key = op && keyOfTx(op.item);
        const own = () => op?.onConditionFailed?.() ?? error;
        throw key ? await conditionFailure(key, own) : own();
      }
      const retryable = reasons.some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');
      if (!retryable || attempt >= RETRY_ATTEMPTS) throw error;
      await sleep(backoffMs(attempt));
    }
  }
}

/**
 * Atomically allocates the next integer of a named sequence (ids start at 1, or after `after` when
 * the sequence does not exist yet: a new sequence that continues numbers given before it).
 */
export async function nextId(sequence: string, after = 0): Promise<number> {
  const out = await send<UpdateCommandOutput>(
    new UpdateCommand({
      TableName: table(),
      Key: keys.counter(sequence),
      ...(after
        ? {
            UpdateExpression: 'SET #v = if_not_exists(#v, :after) + :one',
            ExpressionAttributeValues: { ':one': 1, ':after': after },
          }
        : { UpdateExpression: 'ADD #v :one', ExpressionAttributeValues: { ':one': 1 } }),
      ExpressionAttributeNames: { '#v': 'value' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.value);
}
