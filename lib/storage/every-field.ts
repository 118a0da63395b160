// The entries (values, file records) of every field a caller reads: a GET of the fields scope
// without ids. One query of the farm's index per farm the caller reads whole, whatever the fields it
// holds, then the fields shared with it alone one by one: the read grows with what it answers, not
// with the account's fields (docs/data-model.md).
import { mapLimit } from '../util/map-limit';
import type { FieldsByFarm } from './access';

export async function entriesOfEveryField<T extends { id: number }>(
  reach: FieldsByFarm,
  read: {
    /** A farm's entries, from its index: of every field of the farm, which the caller may not read. */
    ofFarm(farmId: number): Promise<T[]>;
    /** The entries of these fields (read one by one). */
    ofFields(fieldIds: readonly number[]): Promise<T[]>;
  },
): Promise<T[]> {
  const perFarm = await mapLimit(reach.wholeFarmIds, 8, async (farmId) =>
    (await read.ofFarm(farmId)).filter((entry) => reach.reads(entry.id, farmId)),
  );
  const single = reach.singleFieldIds.length ? await read.ofFields(reach.singleFieldIds) : [];
  return [...perFarm.flat(), ...single];
}
