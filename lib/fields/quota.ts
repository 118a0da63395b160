// Hectare accounting of users and workspaces, as transaction items.
import { EXISTS, tx, type TxOp } from '../db/table';
import type { Forbidden } from '../errors';

/** Adds hectares to a user's or a space's consumption, refusing to go past the ceiling. */
export function hectaresUpdate(key: { pk: string; sk: string }, deltaHa: number, ceiling: number | null, failure: () => Forbidden): TxOp {
  return tx.update(
    key,
    ceiling === null
      ? { expression: 'ADD hectares_used :delta', condition: EXISTS, values: { ':delta': deltaHa } }
      : {
          expression: 'ADD hectares_used :delta',
          condition: `${EXISTS} AND (attribute_not_exists(hectares_used) OR hectares_used <= :ceiling)`,
          values: { ':delta': deltaHa, ':ceiling': ceiling },
        },
    failure,
  );
}

