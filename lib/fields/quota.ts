// Hectare accounting of users and workspaces: what a write charges (or gives back), and its
// transaction items.
import { keys } from '../db/keys';
import { EXISTS, type TxOp, tx } from '../db/table';
import type { Forbidden } from '../errors';

/** Adds hectares to a user's or a space's consumption, refusing to go past the ceiling. */
export function hectaresUpdate(
  key: { pk: string; sk: string },
  deltaHa: number,
  ceiling: number | null,
  failure: () => Forbidden,
): TxOp {
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

/** Hectares a write adds to (or, negative, gives back to) a user and its workspace, within their ceilings (null: no limit). */
export interface HectareCharge {
  userId: number;
  spaceId: number;
  deltaHa: number;
  userCeiling: number | null;
  spaceCeiling: number | null;
}

/** The items of a charge (none when it moves nothing). */
export function chargeOps(
  charge: HectareCharge | undefined,
  refuse: { user: () => Forbidden; space: () => Forbidden },
): TxOp[] {
  if (!charge || charge.deltaHa === 0) return [];
  return [
    hectaresUpdate(keys.user(charge.userId), charge.deltaHa, charge.userCeiling, refuse.user),
    hectaresUpdate(keys.space(charge.spaceId), charge.deltaHa, charge.spaceCeiling, refuse.space),
  ];
}
