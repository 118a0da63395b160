// Personal inputs in memory, for the unit tests of the services that read or write them (inputs,
// labours): every save checks what the DynamoDB conditions check, then applies whole.
import { LostRace } from '../../../lib/db/retry';
import { PERSONAL_INPUT_ID_OFFSET } from '../../../lib/inputs/catalogue';
import type { InputRepository, InputWrite, PersonalInput } from '../../../lib/inputs/service';

export function memoryRepository(): InputRepository & {
  rows: Map<string, PersonalInput>;
  conflicts: number;
  reads: number;
} {
  const rows = new Map<string, PersonalInput>();
  const next = new Map<number, number>();
  const repository = {
    rows,
    conflicts: 0,
    /** Reads of a user's whole list of inputs. */
    reads: 0,
    async personalInputs(userId: number) {
      repository.reads++;
      return [...rows.values()].filter((r) => r.ownerId === userId).map((r) => ({ ...r }));
    },
    async holderOf(uuid: string) {
      return rows.get(uuid)?.ownerId;
    },
    /** One sequence per owner, as lib/inputs/repository.ts keeps them. */
    async newId(ownerId: number) {
      next.set(ownerId, (next.get(ownerId) ?? PERSONAL_INPUT_ID_OFFSET) + 1);
      return next.get(ownerId)!;
    },
    async save(writes: InputWrite[]) {
      for (const write of writes) {
        if ('create' in write && rows.has(write.create.uuid)) throw new LostRace();
        if ('change' in write && rows.get(write.change.uuid)?.version !== write.version) throw new LostRace();
      }
      for (const write of writes) {
        const input = 'create' in write ? write.create : write.change;
        rows.set(input.uuid, input);
      }
    },
  };
  return repository;
}
