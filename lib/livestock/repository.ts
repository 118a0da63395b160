// Livestock in DynamoDB (docs/data-model.md): paddocks and herds in their field's partition, each
// with a ref by uuid (PADDOCKREF#/HERDREF#, one per field holding the uuid) and paddock names
// kept unique by a name item; herd histories by herd id; a transaction recorded once under its
// uuid. Every change is one DynamoDB transaction.

import { platformFieldGate } from '../authz/gate';
import type { Key } from '../db/keys';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import {
  batchDelete,
  EXISTS,
  type Item,
  NOT_EXISTS,
  nextId,
  queryAll,
  readItem,
  type TxOp,
  transact,
  tx,
} from '../db/table';
import { Conflict } from '../errors';
import { emitWebhookEvent } from '../webhooks/emit';
import {
  fieldNotFound,
  LIVESTOCK_CODES,
  nameTaken,
  paddockNotEmpty,
  paddockNotFound,
  staleHerd,
  stalePaddock,
} from './codes';
import { Herd, Paddock } from './model';
import { renamed } from './paddocks';
import { historyEntry, type TransactionRecord } from './records';
import { type HerdChange, type LivestockRepository, livestockService } from './service';

const herdItem = (herd: Herd) => ({ ...keys.herd(herd.fieldId, herd.uuid), ...Herd.toItem(herd) });
const herdRefItem = (herd: Herd) => ({
  ...keys.herdRef(herd.uuid, herd.fieldId),
  kind: 'herd_ref',
  field_id: herd.fieldId,
  herd_id: herd.id,
});
const herdTaken = (herd: Herd) => () => new LostRace(`herd ${herd.uuid} already exists`);
const fieldsOf = async (refs: { pk: string; skPrefix: string }) =>
  (await queryAll(refs)).map((r) => Number(r.field_id));

/** The items of a herd's next state over the one read (moved to another field's partition when its field changed). */
function herdUpdate(next: Herd, previous: Herd): TxOp[] {
  const stored = { ...next, version: previous.version + 1 };
  const version = { ':version': previous.version };
  if (next.fieldId === previous.fieldId) return [tx.put(herdItem(stored), 'version = :version', staleHerd, version)];
  return [
    tx.delete(keys.herd(previous.fieldId, previous.uuid), 'version = :version', staleHerd, version),
    tx.put(
      herdItem(stored),
      NOT_EXISTS,
      () =>
        new Conflict(`a herd ${next.uuid} already exists in field ${next.fieldId}`, {
          code: LIVESTOCK_CODES.INVALID_PARAMETERS,
        }),
    ),
    tx.delete(keys.herdRef(previous.uuid, previous.fieldId)),
    tx.put(herdRefItem(next)),
  ];
}

function changeOps(change: HerdChange): TxOp[] {
  return [
    ...(change.created ?? []).flatMap((herd) => [
      tx.put(herdItem(herd), NOT_EXISTS, herdTaken(herd)),
      tx.put(herdRefItem(herd), NOT_EXISTS, herdTaken(herd)),
    ]),
    ...(change.fieldExists !== undefined
      ? [tx.check(keys.field(change.fieldExists), EXISTS, () => fieldNotFound(change.fieldExists!))]
      : []),
    ...(change.updated ?? []).flatMap(({ next, previous }) => herdUpdate(next, previous)),
    ...(change.deleted ?? []).flatMap((herd) => [
      tx.delete(keys.herd(herd.fieldId, herd.uuid), 'version = :version', staleHerd, { ':version': herd.version }),
      tx.delete(keys.herdRef(herd.uuid, herd.fieldId)),
    ]),
    ...(change.paddockCounts ?? []).map(({ fieldId, paddockUuid, delta }) =>
      tx.update(
        keys.paddock(fieldId, paddockUuid),
        { expression: 'ADD herd_count :delta', condition: EXISTS, values: { ':delta': delta } },
        () => paddockNotFound(paddockUuid),
      ),
    ),
    ...(change.history ?? []).map(({ herdId, record }) =>
      tx.put({ ...keys.herdLog(herdId, record.transaction_date, record.transaction_uuid), ...historyEntry(record) }),
    ),
    ...(change.recorded
      ? [
          tx.put(
            {
              ...keys.livestockTransaction(change.recorded.originHerdId, change.recorded.record.transaction_uuid),
              kind: 'livestock_transaction',
              record: change.recorded.record,
              herd_uuids: change.recorded.herdUuids,
            },
            NOT_EXISTS,
            () => new LostRace('transaction recorded meanwhile'),
          ),
        ]
      : []),
  ];
}

export const dynamoLivestockRepository: LivestockRepository = {
  nextId: (sequence) => nextId(sequence),
  async herd(fieldId, uuid) {
    return readItem(keys.herd(fieldId, uuid), Herd.fromItem);
  },
  async herdsOf(fieldId) {
    return (await queryAll(keys.herdsPrefix(fieldId))).map(Herd.fromItem);
  },
  herdFields: (uuid) => fieldsOf(keys.herdRefs(uuid)),
  async paddock(fieldId, uuid) {
    return readItem(keys.paddock(fieldId, uuid), Paddock.fromItem);
  },
  async paddocksOf(fieldId) {
    return (await queryAll(keys.paddocksPrefix(fieldId))).map(Paddock.fromItem).sort((a, b) => a.id - b.id);
  },
  paddockFields: (uuid) => fieldsOf(keys.paddockRefs(uuid)),
  async recorded(originHerdId, transactionUuid) {
    return readItem(keys.livestockTransaction(originHerdId, transactionUuid), (item) => ({
      originHerdId,
      record: item.record as TransactionRecord,
      herdUuids: item.herd_uuids as string[],
    }));
  },
  async history(herdId) {
    return (await queryAll({ ...keys.herdLogPrefix(herdId), descending: true })).map(
      (item) => item.record as TransactionRecord,
    );
  },
  deleteHistory,
  commit: (change) => transact(changeOps(change)),
  async createPaddock(paddock) {
    await transact([
      tx.put(
        { ...keys.paddock(paddock.fieldId, paddock.uuid), ...Paddock.toItem(paddock) },
        NOT_EXISTS,
        () => new LostRace(`paddock ${paddock.uuid} already exists`),
      ),
      tx.put(
        { ...keys.paddockRef(paddock.uuid, paddock.fieldId), kind: 'paddock_ref', field_id: paddock.fieldId },
        NOT_EXISTS,
        () => new LostRace(`paddock ${paddock.uuid} already exists`),
      ),
      tx.put(
        { ...keys.paddockName(paddock.fieldId, paddock.name), kind: 'paddock_name', paddock_uuid: paddock.uuid },
        NOT_EXISTS,
        () => nameTaken(paddock.name),
      ),
      tx.check(keys.field(paddock.fieldId), EXISTS, () => fieldNotFound(paddock.fieldId)),
    ]);
  },
  async updatePaddock(next, previous) {
    const ops: TxOp[] = [];
    if (renamed(next, previous)) {
      ops.push(
        tx.put(
          { ...keys.paddockName(next.fieldId, next.name), kind: 'paddock_name', paddock_uuid: next.uuid },
          NOT_EXISTS,
          () => nameTaken(next.name),
        ),
        tx.delete(keys.paddockName(previous.fieldId, previous.name)),
      );
    }
    // The herd count is not written: herds arriving or leaving meanwhile keep theirs.
    ops.push(
      tx.update(
        keys.paddock(next.fieldId, next.uuid),
        {
          expression: 'SET #name = :name, shape = :shape, area_ha = :area, version = :next',
          condition: 'version = :version',
          names: { '#name': 'name' },
          values: {
            ':name': next.name,
            ':shape': next.shape,
            ':area': next.areaHa,
            ':next': next.version,
            ':version': previous.version,
          },
        },
        stalePaddock,
      ),
    );
    await transact(ops);
  },
  async deletePaddock(paddock) {
    await transact([
      tx.delete(keys.paddock(paddock.fieldId, paddock.uuid), 'herd_count = :zero', paddockNotEmpty, { ':zero': 0 }),
      tx.delete(keys.paddockRef(paddock.uuid, paddock.fieldId)),
      tx.delete(keys.paddockName(paddock.fieldId, paddock.name)),
    ]);
  },
};

/** Deletes a herd's history (also when its field is deleted, lib/livestock/field-deleted.ts). */
export async function deleteHistory(herdId: number): Promise<void> {
  await batchDelete((await queryAll<Item & Key>(keys.herdLogPrefix(herdId))).map(({ pk, sk }) => ({ pk, sk })));
}

/** The livestock service of the functions: DynamoDB and the platform's field access. */
export const livestock = /* @__PURE__ */ livestockService({
  repository: dynamoLivestockRepository,
  fields: platformFieldGate,
  emit: emitWebhookEvent,
});
