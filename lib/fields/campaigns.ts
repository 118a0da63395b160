// Campaigns (spec 2 rotations, spec 3 labours): a field has at most one campaign per yeargroup,
// shared by its rotations (`cicle_id`) and its labours. `biennial` tells whether the campaign
// spans two years (docs/decisions.md, "Labours"): set when the campaign is first made, changed
// when a labour sends it.

import { bool, type EntityOf, entity, num } from '../db/entity';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { EXISTS, getItem, NOT_EXISTS, nextId, putItem, type TxOp, tx } from '../db/table';

export const Campaign = entity('campaign', {
  id: num('cicle_id'),
  fieldId: num('field_id'),
  yeargroup: num('yeargroup'),
  biennial: bool('biennial'),
});
export type Campaign = EntityOf<typeof Campaign>;

/**
 * The campaign of a field and yeargroup, made on first use (a concurrent first use makes one).
 * A new campaign takes `biennial` (false when not given); an existing one keeps its value here:
 * the write that changes it adds biennialChange() to its own transaction.
 */
export async function campaignOf(fieldId: number, yeargroup: number, biennial?: boolean): Promise<Campaign> {
  const key = keys.campaign(fieldId, yeargroup);
  return retryLostRace(async () => {
    const existing = await getItem(key);
    if (existing) return Campaign.fromItem(existing);
    const made: Campaign = { id: await nextId('cycle'), fieldId, yeargroup, biennial: biennial ?? false };
    await putItem(
      { ...key, ...Campaign.toItem(made) },
      { expression: NOT_EXISTS, failure: () => new LostRace('campaign created meanwhile') },
    );
    return made;
  });
}

/** The transaction item that sets a campaign's `biennial`, or none when it already has that value. */
export function biennialChange(campaign: Campaign, biennial: boolean | undefined): TxOp[] {
  if (biennial === undefined || biennial === campaign.biennial) return [];
  return [
    tx.update(keys.campaign(campaign.fieldId, campaign.yeargroup), {
      expression: 'SET biennial = :b',
      condition: EXISTS,
      values: { ':b': biennial },
    }),
  ];
}
