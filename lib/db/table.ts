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
  const out = await send<GetCommandOutput>(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
  return out.Item as T | undefined;
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
  try {
    await send<PutCommandOutput>(
      new PutCommand({
        TableName: table(),
        Item: item,
        ConditionExpression: condition?.expression,
        ExpressionAttributeValues: condition?.values,
      }),
    );
  } catch (error) {
    if (condition && error instanceof ConditionalCheckFailedException) throw condition.failure();
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
      }),
    );
    return out.Attributes as T;
  } catch (error) {
    if (update.condition && error instanceof ConditionalCheckFailedException) {
      if (onConditionFailed) throw onConditionFailed();
      return undefined;
    }
    throw error;
  }
}

/** Deletes an item; with a condition, returns false (and deletes nothing) when it does not hold. */
export async function deleteItem(
  key: Key,
  condition?: { expression: string; values: Record<string, unknown> },
): Promise<boolean> {
  try {
    await send<DeleteCommandOutput>(
      new DeleteCommand({
        TableName: table(),
        Key: key,
        ConditionExpression: condition?.expression,
        ExpressionAttributeValues: condition?.values,
      }),
    );
    return true;
  } catch (error) {
    if (condition && error instanceof ConditionalCheckFailedException) return false;
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
  const out = await send<DeleteCommandOutput>(
    new DeleteCommand({ TableName: table(), Key: key, ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes as T | undefined;
}

export interface QueryOptions {
  pk: string;
  skPrefix?: string;
  /** Sort keys from the first to the second, both included (instead of skPrefix). */
  skBetween?: readonly [string, string];
  index?: 'gsi1' | 'gsi2';
  limit?: number;
  descending?: boolean;
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
 * stop iterating to stop reading. Base-table reads are strongly consistent; index reads are not.
 */
export async function* queryItems<T extends Item = Item>(
  options: QueryOptions & { pageSize?: number },
): AsyncGenerator<T> {
  let startKey: Record<string, unknown> | undefined;
  const pkName = options.index ? `${options.index}pk` : 'pk';
  const skName = options.index ? `${options.index}sk` : 'sk';
  do {
    const out = await send<QueryCommandOutput>(
      new QueryCommand({
        TableName: table(),
        IndexName: options.index,
        ...keyCondition(options, pkName, skName),
        ConsistentRead: options.index ? undefined : true,
        ScanIndexForward: !options.descending,
        ExclusiveStartKey: startKey,
        Limit: options.pageSize,
      }),
    );
    for (const item of (out.Items ?? []) as T[]) yield item;
    startKey = out.LastEvaluatedKey;
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

/** Strongly consistent batch read; the result is keyed by `${pk}|${sk}`. */
export async function batchGet<T extends Item = Item>(keyList: Key[]): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const unique = [...new Map(keyList.map((k) => [`${k.pk}|${k.sk}`, k])).values()];
  for (const part of chunk(unique, 100)) {
    let pending: Key[] = part;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(backoffMs(attempt));
      const out = await send<BatchGetCommandOutput>(
        new BatchGetCommand({ RequestItems: { [table()]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of (out.Responses?.[table()] ?? []) as Array<T & Key>) {
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
};

export const NOT_EXISTS = 'attribute_not_exists(pk)';
export const EXISTS = 'attribute_exists(pk)';

const withTable = (op: TxItem): TransactItem => {
  const TableName = table();
  if (op.Put) return { Put: { ...op.Put, TableName } };
  if (op.Update) return { Update: { ...op.Update, TableName } };
  if (op.Delete) return { Delete: { ...op.Delete, TableName } };
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
  for (let attempt = 1; ; attempt++) {
    try {
      await send<TransactWriteCommandOutput>(
        new TransactWriteCommand({
          TransactItems: ops.map((op) => withTable(op.item)),
          ClientRequestToken: clientRequestToken,
        }),
      );
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failedIndex = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) {
        const failure = ops[failedIndex]?.onConditionFailed;
        if (failure) throw failure();
        throw error;
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
