// Livestock transactions (spec 1): moving a herd (or part of it) to another paddock, possibly in
// another field, and exits of animals (type 2 moves them into another herd). Each is one atomic
// change (LivestockRepository.commit): herds (versioned), paddock herd counts, the herds' histories
// and, when the request carries a transaction uuid, a record that makes a repeated request return
// the first result.
import type { Principal } from '../auth/principal';
import { retryLostRace } from '../db/retry';
import { Conflict, Invalid } from '../errors';
import { newUuid } from '../util/uuid';
import { joined, leaving, remaining, takesAll } from './arithmetic';
import { fieldNotFound, invalid, LIVESTOCK_CODES, refusals } from './codes';
import { checkCategory, checkName, type HerdRules, type HerdView } from './herds';
import { exitType, fromKg, HERD_TO_HERD, type Herd, laterDate, toKg, weightUnitOf } from './model';
import type { PaddockRules } from './paddocks';
import { normalizeDate, type TransactionRecord } from './records';
import type { HerdChange, LivestockDeps } from './service';

export interface TransactionResult {
  transaction: TransactionRecord;
  herds: HerdView[];
}

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

export function transactionRules(
  { repository, fields, emit, now = () => new Date(), uuid = newUuid }: LivestockDeps,
  herds: HerdRules,
  paddocks: PaddockRules,
) {
  const { locateHerd } = herds;

  /** A recorded transaction's events for webhooks: one per herd it left changed (a replayed one: none), sent at once. */
  async function herdEvents(
    name: 'HERD_MOVED.V1' | 'HERD_EXITED.V1',
    principal: Principal,
    result: TransactionResult,
  ): Promise<TransactionResult> {
    await Promise.all(
      result.herds.map((herd) =>
        emit?.(name, {
          userIds: [principal.user.id],
          fieldId: herd.field.id,
          data: {
            herd_uuid: herd.uuid,
            field_id: herd.field.id,
            paddock_uuid: herd.paddockUuid,
            transaction: result.transaction,
          },
        }),
      ),
    );
    return result;
  }

  /**
   * The result of a transaction already recorded under this uuid for this origin herd, with the
   * herds as they are now. Called once the caller is known to be able to change the origin herd.
   */
  async function replay(
    principal: Principal,
    originHerdId: number,
    transactionUuid: string | undefined,
  ): Promise<TransactionResult | undefined> {
    if (!transactionUuid) return undefined;
    const recorded = await repository.recorded(originHerdId, transactionUuid);
    if (!recorded) return undefined;
    const found = await Promise.all(
      recorded.herdUuids.map((herdUuid) => locateHerd(principal, herdUuid).catch(() => undefined)),
    );
    return { transaction: recorded.record, herds: found.filter((h): h is HerdView => Boolean(h)) };
  }

  async function movePaddock(principal: Principal, input: PaddockMoveInput): Promise<TransactionResult> {
    let fresh = false;
    const result = await retryLostRace(async () => {
      const herd = await locateHerd(principal, input.originHerdUuid, 'write');
      const done = await replay(principal, herd.id, input.transactionUuid);
      if (done) return done;
      const origin = input.originPaddockUuid === null ? null : input.originPaddockUuid.toLowerCase();
      if (herd.paddockUuid !== origin) {
        throw invalid(
          herd.paddockUuid
            ? `herd ${herd.uuid} is not in paddock ${input.originPaddockUuid}`
            : `herd ${herd.uuid} has no paddock: send origin_paddock_uuid null`,
        );
      }
      if (origin === input.destinationPaddockUuid.toLowerCase())
        throw invalid('the destination paddock is the origin paddock');
      const { paddock: destination } = await paddocks.locatePaddock(principal, input.destinationPaddockUuid, 'write');
      if (input.destinationField !== undefined && input.destinationField !== String(destination.fieldId)) {
        throw invalid(
          `paddock ${destination.uuid} is in field ${destination.fieldId}, not in ${input.destinationField}`,
        );
      }
      const target =
        destination.fieldId === herd.fieldId
          ? { field: herd.field, farm: herd.farm }
          : await fields.field(
              principal,
              destination.fieldId,
              'write',
              refusals(() => fieldNotFound(destination.fieldId)),
            );
      if (input.maxCount !== undefined && input.maxCount !== herd.animalCount) {
        throw new Conflict(`the herd has ${herd.animalCount} animals, not ${input.maxCount}`, {
          code: LIVESTOCK_CODES.STALE,
        });
      }
      if (input.animalCount !== undefined && input.animalCount < 1 && herd.animalCount > 0)
        throw invalid('animal_count must be at least 1');
      const part = leaving(
        herd,
        input.animalCount,
        input.weight !== undefined ? toKg(input.weight, input.weightUnit ?? herd.weightUnit) : undefined,
      );
      const { animalCount: count, weightKg: movedKg } = part;
      if (input.herdCategory !== undefined) checkCategory(input.herdCategory);
      const date = normalizeDate(input.transactionDate);
      const partial = !takesAll(herd, part);
      const record: TransactionRecord = {
        transaction_uuid: (input.transactionUuid ?? uuid()).toLowerCase(),
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
        created_at: now().toISOString(),
      };
      // The destination paddock gains a herd; the origin loses one only when the whole herd leaves.
      const change: Required<Pick<HerdChange, 'created' | 'updated' | 'paddockCounts' | 'history'>> & HerdChange = {
        created: [],
        updated: [],
        paddockCounts: [{ fieldId: destination.fieldId, paddockUuid: destination.uuid, delta: 1 }],
        history: [{ herdId: herd.id, record }],
      };
      if (!partial && herd.paddockUuid)
        change.paddockCounts.push({ fieldId: herd.fieldId, paddockUuid: herd.paddockUuid, delta: -1 });
      const results: HerdView[] = [];
      if (partial) {
        const stays: Herd = {
          ...herd,
          ...remaining(herd, part),
          lastTransactionDate: laterDate(herd.lastTransactionDate, date),
        };
        const split: Herd = {
          id: await repository.nextId('herd'),
          uuid: uuid(),
          name: input.herdName !== undefined ? checkName(input.herdName) : herd.name,
          typeId: input.herdCategory ?? herd.typeId,
          animalCount: count,
          weightKg: movedKg,
          weightUnit: herd.weightUnit,
          fieldId: destination.fieldId,
          paddockUuid: destination.uuid,
          paddockId: destination.id,
          lastTransactionDate: date,
          createdAt: now().toISOString(),
          version: 1,
        };
        record.destination_herd_uuid = split.uuid;
        change.updated.push({ next: stays, previous: herd });
        change.created.push(split);
        change.history.push({ herdId: split.id, record });
        results.push(withVersion({ ...stays, field: herd.field, farm: herd.farm }, herd.version + 1), {
          ...split,
          ...target,
        });
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
        change.updated.push({ next: moved, previous: herd });
        results.push(withVersion({ ...moved, ...target }, herd.version + 1));
      }
      if (input.transactionUuid)
        change.recorded = { originHerdId: herd.id, record, herdUuids: results.map((h) => h.uuid) };
      await repository.commit(change);
      fresh = true;
      return { transaction: record, herds: results };
    });
    return fresh ? herdEvents('HERD_MOVED.V1', principal, result) : result;
  }

  async function recordExit(principal: Principal, input: ExitInput): Promise<TransactionResult> {
    let fresh = false;
    const result = await retryLostRace(async () => {
      const type = exitType(input.destinationType);
      if (!type)
        throw new Invalid(`destination_type ${input.destinationType} is not an exit type (1 to 7)`, {
          code: LIVESTOCK_CODES.INVALID_PARAMETERS,
        });
      const herd = await locateHerd(principal, input.originHerdUuid, 'write');
      const done = await replay(principal, herd.id, input.transactionUuid);
      if (done) return done;
      const part = leaving(herd, input.animalCount, toKg(input.weight, input.weightUnit));
      const date = normalizeDate(input.transactionDate);
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
        created_at: now().toISOString(),
      };
      const origin: Herd = {
        ...herd,
        ...remaining(herd, part),
        lastTransactionDate: laterDate(herd.lastTransactionDate, date),
      };
      const updated = [{ next: origin, previous: herd as Herd }];
      const history = [{ herdId: herd.id, record }];
      const results: HerdView[] = [withVersion({ ...origin, field: herd.field, farm: herd.farm }, herd.version + 1)];
      if (input.destinationType === HERD_TO_HERD) {
        if (record.destination_herd_uuid === herd.uuid) throw invalid('the destination herd is the origin herd');
        const destination = await locateHerd(principal, input.destinationHerdUuid, 'write');
        record.destination_paddock_uuid = destination.paddockUuid;
        const received: Herd = {
          ...destination,
          ...joined(destination, part),
          lastTransactionDate: laterDate(destination.lastTransactionDate, date),
        };
        updated.push({ next: received, previous: destination });
        history.push({ herdId: destination.id, record });
        results.push(
          withVersion({ ...received, field: destination.field, farm: destination.farm }, destination.version + 1),
        );
      }
      await repository.commit({
        updated,
        history,
        recorded: { originHerdId: herd.id, record, herdUuids: results.map((h) => h.uuid) },
      });
      fresh = true;
      return { transaction: record, herds: results };
    });
    return fresh ? herdEvents('HERD_EXITED.V1', principal, result) : result;
  }

  return { movePaddock, recordExit };
}
