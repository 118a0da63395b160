// Herds (spec 1, Livestock): a group of animals of one category with head count and total weight,
// located in a paddock of a field (or in no paddock). Every change is a versioned write; the
// paddock's herd count moves in the same transaction.
import type { Principal } from '../auth/principal';
import { LostRace, retryLostRace } from '../db/retry';
import { Conflict } from '../errors';
import type { Farm, Field } from '../platform/model';
import { characters } from '../util/text';
import { isoSeconds } from '../util/time';
import { newUuid } from '../util/uuid';
import { joined } from './arithmetic';
import { fieldNotFound, herdNotFound, invalid, LIVESTOCK_CODES, refusals } from './codes';
import { type Herd, isHerdCategory, laterDate, toKg, weightUnitOf } from './model';
import type { PaddockRules } from './paddocks';
import type { TransactionRecord } from './records';
import type { LivestockDeps } from './service';

export interface HerdView extends Herd {
  field: Field;
  farm: Farm;
}

export function checkCategory(typeId: number): void {
  if (!isHerdCategory(typeId)) throw invalid(`type_id ${typeId} is not a herd category (1 to 8)`);
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || characters(trimmed) > 100) throw invalid('herd_name must have 1 to 100 characters');
  return trimmed;
}

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

export interface UpdateHerdInput {
  typeId: number;
  name: string;
  newAnimals: { count: number; weight: number; weightUnit: string };
}

export function herdRules(
  { repository, fields, now = () => new Date(), uuid = newUuid }: LivestockDeps,
  paddocks: PaddockRules,
) {
  /** A herd and its field for a caller who can read (or change) the field; 404 otherwise. */
  async function locateHerd(
    principal: Principal,
    herdUuid: string,
    action: 'read' | 'write' = 'read',
  ): Promise<HerdView> {
    const { field, farm } = await fields.among(
      principal,
      await repository.herdFields(herdUuid),
      action,
      refusals(() => herdNotFound(herdUuid)),
    );
    const herd = await repository.herd(field.id, herdUuid);
    if (!herd) throw herdNotFound(herdUuid);
    return { ...herd, field, farm };
  }

  return {
    locateHerd,

    async listHerds(principal: Principal): Promise<HerdView[]> {
      const readable = await fields.readable(principal);
      const perField = await Promise.all(
        readable.map(async (f) =>
          (await repository.herdsOf(f.field.id)).map((h) => ({ ...h, field: f.field, farm: f.farm })),
        ),
      );
      return perField.flat().sort((a, b) => a.id - b.id);
    },

    async createHerd(principal: Principal, input: CreateHerdInput): Promise<HerdView> {
      const scope = await fields.field(
        principal,
        input.fieldId,
        'write',
        refusals(() => fieldNotFound(input.fieldId)),
      );
      if (input.uuid) {
        // a uuid names one herd per field: sent again to this field, it is the herd made the first
        // time; a herd of this uuid the caller can see in another field conflicts
        const holders = await repository.herdFields(input.uuid);
        if (holders.includes(scope.field.id)) return locateHerd(principal, input.uuid);
        if (await fields.readsAny(principal, holders)) {
          throw new Conflict(`herd ${input.uuid} exists in another field`, {
            code: LIVESTOCK_CODES.INVALID_PARAMETERS,
          });
        }
      }
      checkCategory(input.typeId);
      const name = checkName(input.name);
      const weightKg = toKg(input.weight, input.weightUnit);
      let paddockId: number | null = null;
      if (input.paddockUuid) {
        const { paddock } = await paddocks.locatePaddock(principal, input.paddockUuid);
        if (paddock.fieldId !== scope.field.id)
          throw invalid(`paddock ${input.paddockUuid} is not in field ${scope.field.id}`);
        paddockId = paddock.id;
      }
      const herd: Herd = {
        id: await repository.nextId('herd'),
        uuid: (input.uuid ?? uuid()).toLowerCase(),
        name,
        typeId: input.typeId,
        animalCount: input.animalCount,
        weightKg,
        weightUnit: weightUnitOf(input.weightUnit),
        fieldId: scope.field.id,
        paddockUuid: input.paddockUuid ? input.paddockUuid.toLowerCase() : null,
        paddockId,
        lastTransactionDate: null,
        createdAt: now().toISOString(),
        version: 1,
      };
      try {
        await repository.commit({
          created: [herd],
          fieldExists: scope.field.id,
          paddockCounts: herd.paddockUuid ? [{ fieldId: scope.field.id, paddockUuid: herd.paddockUuid, delta: 1 }] : [],
        });
      } catch (error) {
        if (input.uuid && error instanceof LostRace) return locateHerd(principal, herd.uuid);
        throw error;
      }
      return { ...herd, field: scope.field, farm: scope.farm };
    },

    /**
     * Renames, recategorises and adds new animals. Adding animals is an entry in the herd's history
     * and moves date_of_last_transaction; a change without animals (new_animals_count 0) is not a
     * transaction: no entry, and the date stays.
     */
    async updateHerd(principal: Principal, herdUuid: string, input: UpdateHerdInput): Promise<HerdView> {
      checkCategory(input.typeId);
      const name = checkName(input.name);
      const addedKg = toKg(input.newAnimals.weight, input.newAnimals.weightUnit);
      const weightUnit = weightUnitOf(input.newAnimals.weightUnit);
      return retryLostRace(async () => {
        const herd = await locateHerd(principal, herdUuid, 'write');
        if (input.newAnimals.count === 0) {
          if (addedKg !== 0) throw invalid('new_animals_weight must be 0 when new_animals_count is 0');
          const renamed: Herd = { ...herd, name, typeId: input.typeId };
          await repository.commit({ updated: [{ next: renamed, previous: herd }] });
          return { ...renamed, version: herd.version + 1, field: herd.field, farm: herd.farm };
        }
        const at = isoSeconds(now());
        const record: TransactionRecord = {
          transaction_uuid: uuid(),
          kind: 'entry',
          transaction_date: at,
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
          created_at: now().toISOString(),
        };
        const next: Herd = {
          ...herd,
          name,
          typeId: input.typeId,
          ...joined(herd, { animalCount: input.newAnimals.count, weightKg: addedKg }),
          lastTransactionDate: laterDate(herd.lastTransactionDate, at),
        };
        await repository.commit({ updated: [{ next, previous: herd }], history: [{ herdId: herd.id, record }] });
        return { ...next, version: herd.version + 1, field: herd.field, farm: herd.farm };
      });
    },

    async deleteHerd(principal: Principal, herdUuid: string): Promise<void> {
      const herd = await retryLostRace(async () => {
        const found = await locateHerd(principal, herdUuid, 'write');
        await repository.commit({
          deleted: [found],
          paddockCounts: found.paddockUuid
            ? [{ fieldId: found.fieldId, paddockUuid: found.paddockUuid, delta: -1 }]
            : [],
        });
        return found;
      });
      // After the herd: a retried deletion finds no herd and no history.
      await repository.deleteHistory(herd.id);
    },

    async historyOf(principal: Principal, herdUuid: string): Promise<TransactionRecord[]> {
      const herd = await locateHerd(principal, herdUuid);
      return repository.history(herd.id);
    },
  };
}

export type HerdRules = ReturnType<typeof herdRules>;
