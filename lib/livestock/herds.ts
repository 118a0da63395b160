// Herds (spec 1, Livestock): a group of animals of one category with head count and total weight,
// located in a paddock of a field (or in no paddock). Every change is a versioned write; the
// paddock's herd count moves in the same transaction.
import { randomUUID } from 'node:crypto';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { batchDelete, EXISTS, getItem, nextId, NOT_EXISTS, queryAll, transact, tx, type Item, type TxOp } from '../db/table';
import type { Key } from '../db/keys';
import { Conflict, Invalid, NotFound } from '../errors';
import type { Principal } from '../auth/principal';
import type { Farm, Field } from '../platform/model';
import { readableFields } from '../fields/list';
import { fieldFor, fieldOfRefs, readableElsewhere, type FieldInScope } from './access';
import { Herd, isHerdCategory, laterDate, toKg, weightUnitOf } from './model';
import { locatePaddock } from './paddocks';
import { historyEntry, type TransactionRecord } from './records';
import { isoSeconds } from '../util/time';
import { joined } from './arithmetic';
import { LIVESTOCK_CODES } from './codes';
import { characters } from '../util/text';

export interface HerdView extends Herd {
  field: Field;
  farm: Farm;
}

export const herdNotFound = (uuid: string) => new NotFound(`herd ${uuid} not found`, { code: LIVESTOCK_CODES.HERD_NOT_FOUND });
export const staleHerd = () => new LostRace('the herd changed meanwhile; try again', { code: LIVESTOCK_CODES.STALE });
export const invalid = (message: string) => new Invalid(message, { code: LIVESTOCK_CODES.INVALID_PARAMETERS });

export function checkCategory(typeId: number): void {
  if (!isHerdCategory(typeId)) throw invalid(`type_id ${typeId} is not a herd category (1 to 8)`);
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || characters(trimmed) > 100) throw invalid('herd_name must have 1 to 100 characters');
  return trimmed;
}

export async function herdsOfField(fieldId: number): Promise<Herd[]> {
  const { pk, skPrefix } = keys.herdsPrefix(fieldId);
  return (await queryAll({ pk, skPrefix })).map(Herd.fromItem);
}

/** A herd and its field for a caller who can read (or change) the field; 404 otherwise. */
export async function locateHerd(principal: Principal, uuid: string, action: 'read' | 'write' = 'read'): Promise<HerdView> {
  const { field, farm } = await fieldOfRefs(principal, keys.herdRefs(uuid), action, () => herdNotFound(uuid));
  const item = await getItem(keys.herd(field.id, uuid));
  if (!item) throw herdNotFound(uuid);
  return { ...Herd.fromItem(item), field, farm };
}

export async function listHerds(principal: Principal): Promise<HerdView[]> {
  const fields = await readableFields(principal);
  const perField = await Promise.all(fields.map(async (f) => (await herdsOfField(f.field.id)).map((h) => ({ ...h, field: f.field, farm: f.farm }))));
  return perField.flat().sort((a, b) => a.id - b.id);
}

// --- writes shared with transactions ------------------------------------------------------------

/** Writes the herd's new state over `previous` (same field), failing if it changed meanwhile. */
export const herdUpdate = (next: Herd, previous: Herd): TxOp =>
  tx.put({ ...keys.herd(next.fieldId, next.uuid), ...Herd.toItem({ ...next, version: previous.version + 1 }) }, 'version = :version', staleHerd, {
    ':version': previous.version,
  });

/** Moves a herd item to another field's partition (herds are stored with their field). */
export const herdRelocation = (next: Herd, previous: Herd): TxOp[] => [
  tx.delete(keys.herd(previous.fieldId, previous.uuid), 'version = :version', staleHerd, { ':version': previous.version }),
  tx.put({ ...keys.herd(next.fieldId, next.uuid), ...Herd.toItem({ ...next, version: previous.version + 1 }) }, NOT_EXISTS, () =>
    new Conflict(`a herd ${next.uuid} already exists in field ${next.fieldId}`, { code: LIVESTOCK_CODES.INVALID_PARAMETERS }),
  ),
  tx.delete(keys.herdRef(previous.uuid, previous.fieldId)),
  tx.put({ ...keys.herdRef(next.uuid, next.fieldId), kind: 'herd_ref', field_id: next.fieldId, herd_id: next.id }),
];

export const herdCreation = (herd: Herd): TxOp[] => [
  tx.put({ ...keys.herd(herd.fieldId, herd.uuid), ...Herd.toItem(herd) }, NOT_EXISTS),
  tx.put({ ...keys.herdRef(herd.uuid, herd.fieldId), kind: 'herd_ref', field_id: herd.fieldId, herd_id: herd.id }, NOT_EXISTS, () =>
    new LostRace(`herd ${herd.uuid} already exists`),
  ),
];

/** Adds `delta` to the herd count of a paddock (which must exist). */
export const paddockHerdCount = (fieldId: number, paddockUuid: string, delta: number): TxOp =>
  tx.update(
    keys.paddock(fieldId, paddockUuid),
    { expression: 'ADD herd_count :delta', condition: EXISTS, values: { ':delta': delta } },
    () => new NotFound(`paddock ${paddockUuid} not found`, { code: LIVESTOCK_CODES.PADDOCK_NOT_FOUND }),
  );

export const historyPut = (herdId: number, record: TransactionRecord): TxOp =>
  tx.put({ ...keys.herdLog(herdId, record.transaction_date, record.transaction_uuid), ...historyEntry(record) });

// --- create, change, delete -----------------------------------------------------------------

export interface CreateHerdInput {
  fieldId: number;
  typeId: number;
  animalCount: number;
  weight: number;
  weightUnit: string;
  name: string;
  paddockUuid: string | null;
  uuid?: string;
}

export async function createHerd(principal: Principal, input: CreateHerdInput): Promise<HerdView> {
  const scope: FieldInScope = await fieldFor(principal, input.fieldId, 'write');
  if (input.uuid) {
    // a uuid names one herd per field: sent again to this field, it is the herd made the first
    // time; a herd of this uuid the caller can see in another field conflicts
    if (await getItem(keys.herdRef(input.uuid, scope.field.id))) return locateHerd(principal, input.uuid);
    if (await readableElsewhere(principal, keys.herdRefs(input.uuid), scope.field.id)) {
      throw new Conflict(`herd ${input.uuid} exists in another field`, { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
    }
  }
  checkCategory(input.typeId);
  const name = checkName(input.name);
  const weightKg = toKg(input.weight, input.weightUnit);
  let paddockId: number | null = null;
  if (input.paddockUuid) {
    const { paddock } = await locatePaddock(principal, input.paddockUuid);
    if (paddock.fieldId !== scope.field.id) throw invalid(`paddock ${input.paddockUuid} is not in field ${scope.field.id}`);
    paddockId = paddock.id;
  }
  const herd: Herd = {
    id: await nextId('herd'),
    uuid: (input.uuid ?? randomUUID()).toLowerCase(),
    name,
    typeId: input.typeId,
    animalCount: input.animalCount,
    weightKg,
    weightUnit: weightUnitOf(input.weightUnit),
    fieldId: scope.field.id,
    paddockUuid: input.paddockUuid ? input.paddockUuid.toLowerCase() : null,
    paddockId,
    lastTransactionDate: null,
    createdAt: new Date().toISOString(),
    version: 1,
  };
  const ops = [...herdCreation(herd), tx.check(keys.field(scope.field.id), EXISTS, () => new NotFound(`field ${scope.field.id} not found`, { code: LIVESTOCK_CODES.FIELD_NOT_FOUND }))];
  if (herd.paddockUuid) ops.push(paddockHerdCount(scope.field.id, herd.paddockUuid, 1));
  try {
    await transact(ops);
  } catch (error) {
    if (input.uuid && error instanceof LostRace) return locateHerd(principal, herd.uuid);
    throw error;
  }
  return { ...herd, ...scope };
}

export interface UpdateHerdInput {
  typeId: number;
  name: string;
  newAnimals: { count: number; weight: number; weightUnit: string };
}

/**
 * Renames, recategorises and adds new animals. Adding animals is an entry in the herd's history
 * and moves date_of_last_transaction; a change without animals (new_animals_count 0) is not a
 * transaction: no entry, and the date stays.
 */
export async function updateHerd(principal: Principal, uuid: string, input: UpdateHerdInput): Promise<HerdView> {
  checkCategory(input.typeId);
  const name = checkName(input.name);
  const addedKg = toKg(input.newAnimals.weight, input.newAnimals.weightUnit);
  const weightUnit = weightUnitOf(input.newAnimals.weightUnit);
  return retryLostRace(async () => {
    const herd = await locateHerd(principal, uuid, 'write');
    if (input.newAnimals.count === 0) {
      if (addedKg !== 0) throw invalid('new_animals_weight must be 0 when new_animals_count is 0');
      const renamed: Herd = { ...herd, name, typeId: input.typeId };
      await transact([herdUpdate(renamed, herd)]);
      return { ...renamed, version: herd.version + 1, field: herd.field, farm: herd.farm };
    }
    const now = isoSeconds();
    const record: TransactionRecord = {
      transaction_uuid: randomUUID(),
      kind: 'entry',
      transaction_date: now,
      animal_count: input.newAnimals.count,
      weight: input.newAnimals.weight,
      weight_unit: weightUnit,
      origin_herd_uuid: null,
      destination_herd_uuid: herd.uuid,
      origin_paddock_uuid: null,
      destination_paddock_uuid: herd.paddockUuid,
      destination_type: null,
      destination_type_name: null,
      note: null,
      created_at: new Date().toISOString(),
    };
    const next: Herd = {
      ...herd,
      name,
      typeId: input.typeId,
      ...joined(herd, { animalCount: input.newAnimals.count, weightKg: addedKg }),
      lastTransactionDate: laterDate(herd.lastTransactionDate, now),
    };
    await transact([herdUpdate(next, herd), historyPut(herd.id, record)]);
    return { ...next, version: herd.version + 1, field: herd.field, farm: herd.farm };
  });
}

export async function deleteHerd(principal: Principal, uuid: string): Promise<void> {
  await retryLostRace(async () => {
    const herd = await locateHerd(principal, uuid, 'write');
    const ops: TxOp[] = [
      tx.delete(keys.herd(herd.fieldId, herd.uuid), 'version = :version', staleHerd, { ':version': herd.version }),
      tx.delete(keys.herdRef(herd.uuid, herd.fieldId)),
    ];
    if (herd.paddockUuid) ops.push(paddockHerdCount(herd.fieldId, herd.paddockUuid, -1));
    await transact(ops);
    return herd;
  }).then((herd) => deleteHistory(herd.id));
}

/** Deletes a herd's history (after the herd: a retried deletion finds no herd and no history). */
export async function deleteHistory(herdId: number): Promise<void> {
  await batchDelete((await queryAll<Item & Key>(keys.herdLogPrefix(herdId))).map(({ pk, sk }) => ({ pk, sk })));
}

export async function historyOf(principal: Principal, uuid: string): Promise<TransactionRecord[]> {
  const herd = await locateHerd(principal, uuid);
  return (await queryAll({ ...keys.herdLogPrefix(herd.id), descending: true })).map((item) => item.record as TransactionRecord);
}
