// Livestock transactions (spec 1): moving a herd (or part of it) to another paddock, possibly in
// another field, and exits of animals (type 2 moves them into another herd). Each is one DynamoDB
// transaction: herds (versioned), paddock herd counts, the herds' histories and, when the request
// carries a transaction uuid, a record that makes a repeated request return the first result.
import { randomUUID } from 'node:crypto';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { getItem, nextId, NOT_EXISTS, transact, tx, type TxOp } from '../db/table';
import { Conflict, Invalid } from '../errors';
import type { Principal } from '../auth/principal';
import { fieldFor } from './access';
import {
  herdCreation,
  herdRelocation,
  herdUpdate,
  historyPut,
  invalid,
  locateHerd,
  paddockHerdCount,
  checkCategory,
  checkName,
  type HerdView,
} from './herds';
import { exitType, fromKg, HERD_TO_HERD, laterDate, toKg, weightUnitOf, type Herd } from './model';
import { joined, leaving, remaining, takesAll } from './arithmetic';
import { locatePaddock } from './paddocks';
import { normalizeDate, type TransactionRecord } from './records';
import { LIVESTOCK_CODES } from './codes';

export interface TransactionResult {
  transaction: TransactionRecord;
  herds: HerdView[];
}

/**
 * The result of a transaction already recorded under this uuid for this origin herd, with the herds
 * as they are now. Called once the caller is known to be able to change the origin herd.
 */
async function replay(principal: Principal, originHerdId: number, transactionUuid: string | undefined): Promise<TransactionResult | undefined> {
  if (!transactionUuid) return undefined;
  const item = await getItem(keys.livestockTransaction(originHerdId, transactionUuid));
  if (!item) return undefined;
  const herds = await Promise.all((item.herd_uuids as string[]).map((uuid) => locateHerd(principal, uuid).catch(() => undefined)));
  return { transaction: item.record as TransactionRecord, herds: herds.filter((h): h is HerdView => Boolean(h)) };
}

const recordOnce = (originHerdId: number, record: TransactionRecord, herdUuids: string[]): TxOp =>
  tx.put(
    {
      ...keys.livestockTransaction(originHerdId, record.transaction_uuid),
      kind: 'livestock_transaction',
      record,
      herd_uuids: herdUuids,
    },
    NOT_EXISTS,
    () => new LostRace('transaction recorded meanwhile'),
  );

const withVersion = (h: HerdView, version: number): HerdView => ({ ...h, version });

// --- move to another paddock -----------------------------------------------------------------

export interface PaddockMoveInput {
  originHerdUuid: string;
  /** null: the herd has no paddock yet (a herd created with paddock_uuid null gets one this way). */
  originPaddockUuid: string | null;
  destinationPaddockUuid: string;
  transactionDate: string;
  herdName?: string;
  herdCategory?: number;
  /** The head count of the origin herd as the client saw it; refused if it changed. */
  maxCount?: number;
  /** Animals to move; all when absent. A part moves as a new herd. */
  animalCount?: number;
  weight?: number;
  weightUnit?: string;
  note?: string;
  destinationField?: string;
  transactionUuid?: string;
}

export function movePaddock(principal: Principal, input: PaddockMoveInput): Promise<TransactionResult> {
  return retryLostRace(async () => {
    const herd = await locateHerd(principal, input.originHerdUuid, 'write');
    const done = await replay(principal, herd.id, input.transactionUuid);
    if (done) return done;
    const origin = input.originPaddockUuid === null ? null : input.originPaddockUuid.toLowerCase();
    if (herd.paddockUuid !== origin) {
      throw invalid(herd.paddockUuid ? `herd ${herd.uuid} is not in paddock ${input.originPaddockUuid}` : `herd ${herd.uuid} has no paddock: send origin_paddock_uuid null`);
    }
    if (origin === input.destinationPaddockUuid.toLowerCase()) throw invalid('the destination paddock is the origin paddock');
    const { paddock: destination } = await locatePaddock(principal, input.destinationPaddockUuid, 'write');
    if (input.destinationField !== undefined && input.destinationField !== String(destination.fieldId)) {
      throw invalid(`paddock ${destination.uuid} is in field ${destination.fieldId}, not in ${input.destinationField}`);
    }
    const target = destination.fieldId === herd.fieldId ? { field: herd.field, farm: herd.farm } : await fieldFor(principal, destination.fieldId, 'write');
    if (input.maxCount !== undefined && input.maxCount !== herd.animalCount) {
      throw new Conflict(`the herd has ${herd.animalCount} animals, not ${input.maxCount}`, { code: LIVESTOCK_CODES.STALE });
    }
    if (input.animalCount !== undefined && input.animalCount < 1 && herd.animalCount > 0) throw invalid('animal_count must be at least 1');
    const part = leaving(herd, input.animalCount, input.weight !== undefined ? toKg(input.weight, input.weightUnit ?? herd.weightUnit) : undefined);
    const { animalCount: count, weightKg: movedKg } = part;
    if (input.herdCategory !== undefined) checkCategory(input.herdCategory);
    const date = normalizeDate(input.transactionDate);
    const partial = !takesAll(herd, part);
    const record: TransactionRecord = {
      transaction_uuid: (input.transactionUuid ?? randomUUID()).toLowerCase(),
      kind: 'paddock',
      transaction_date: date,
      animal_count: count,
      weight: fromKg(movedKg, herd.weightUnit),
      weight_unit: herd.weightUnit,
      origin_herd_uuid: herd.uuid,
      destination_herd_uuid: herd.uuid,
      origin_paddock_uuid: herd.paddockUuid,
      destination_paddock_uuid: destination.uuid,
      destination_type: null,
      destination_type_name: null,
      note: input.note ?? null,
      created_at: new Date().toISOString(),
    };
    // The destination paddock gains a herd; the origin loses one only when the whole herd leaves.
    const ops: TxOp[] = [paddockHerdCount(destination.fieldId, destination.uuid, 1)];
    if (!partial && herd.paddockUuid) ops.push(paddockHerdCount(herd.fieldId, herd.paddockUuid, -1));
    const results: HerdView[] = [];
    if (partial) {
      const stays: Herd = { ...herd, ...remaining(herd, part), lastTransactionDate: laterDate(herd.lastTransactionDate, date) };
      const split: Herd = {
        id: await nextId('herd'),
        uuid: randomUUID(),
        name: input.herdName !== undefined ? checkName(input.herdName) : herd.name,
        typeId: input.herdCategory ?? herd.typeId,
        animalCount: count,
        weightKg: movedKg,
        weightUnit: herd.weightUnit,
        fieldId: destination.fieldId,
        paddockUuid: destination.uuid,
        paddockId: destination.id,
        lastTransactionDate: date,
        createdAt: new Date().toISOString(),
        version: 1,
      };
      record.destination_herd_uuid = split.uuid;
      ops.push(herdUpdate(stays, herd), ...herdCreation(split), historyPut(herd.id, record), historyPut(split.id, record));
      results.push(withVersion({ ...stays, field: herd.field, farm: herd.farm }, herd.version + 1), { ...split, ...target });
    } else {
      const moved: Herd = {
        ...herd,
        name: input.herdName !== undefined ? checkName(input.herdName) : herd.name,
        typeId: input.herdCategory ?? herd.typeId,
        fieldId: destination.fieldId,
        paddockUuid: destination.uuid,
        paddockId: destination.id,
        lastTransactionDate: laterDate(herd.lastTransactionDate, date),
      };
      ops.push(...(moved.fieldId === herd.fieldId ? [herdUpdate(moved, herd)] : herdRelocation(moved, herd)), historyPut(herd.id, record));
      results.push(withVersion({ ...moved, ...target }, herd.version + 1));
    }
    if (input.transactionUuid) ops.push(recordOnce(herd.id, record, results.map((h) => h.uuid)));
    await transact(ops);
    return { transaction: record, herds: results };
  });
}

// --- exits -----------------------------------------------------------------------------------

export interface ExitInput {
  destinationType: number;
  animalCount: number;
  weight: number;
  weightUnit: string;
  originHerdUuid: string;
  destinationHerdUuid: string;
  transactionUuid: string;
  transactionDate: string;
}

export function recordExit(principal: Principal, input: ExitInput): Promise<TransactionResult> {
  return retryLostRace(async () => {
    const type = exitType(input.destinationType);
    if (!type) throw new Invalid(`destination_type ${input.destinationType} is not an exit type (1 to 7)`, { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
    const herd = await locateHerd(principal, input.originHerdUuid, 'write');
    const done = await replay(principal, herd.id, input.transactionUuid);
    if (done) return done;
    const part = leaving(herd, input.animalCount, toKg(input.weight, input.weightUnit));
    const date = normalizeDate(input.transactionDate);
    const herdToHerd = input.destinationType === HERD_TO_HERD;
    const record: TransactionRecord = {
      transaction_uuid: input.transactionUuid.toLowerCase(),
      kind: 'exit',
      transaction_date: date,
      animal_count: input.animalCount,
      weight: input.weight,
      weight_unit: weightUnitOf(input.weightUnit),
      origin_herd_uuid: herd.uuid,
      destination_herd_uuid: input.destinationHerdUuid.toLowerCase(),
      origin_paddock_uuid: herd.paddockUuid,
      destination_paddock_uuid: null,
      destination_type: type.id,
      destination_type_name: type.type,
      note: null,
      created_at: new Date().toISOString(),
    };
    const origin: Herd = { ...herd, ...remaining(herd, part), lastTransactionDate: laterDate(herd.lastTransactionDate, date) };
    const ops: TxOp[] = [herdUpdate(origin, herd), historyPut(herd.id, record)];
    const results: HerdView[] = [withVersion({ ...origin, field: herd.field, farm: herd.farm }, herd.version + 1)];
    if (herdToHerd) {
      if (record.destination_herd_uuid === herd.uuid) throw invalid('the destination herd is the origin herd');
      const destination = await locateHerd(principal, input.destinationHerdUuid, 'write');
      record.destination_paddock_uuid = destination.paddockUuid;
      const received: Herd = { ...destination, ...joined(destination, part), lastTransactionDate: laterDate(destination.lastTransactionDate, date) };
      ops.push(herdUpdate(received, destination), historyPut(destination.id, record));
      results.push(withVersion({ ...received, field: destination.field, farm: destination.farm }, destination.version + 1));
    }
    ops.push(recordOnce(herd.id, record, results.map((h) => h.uuid)));
    await transact(ops);
    return { transaction: record, herds: results };
  });
}

