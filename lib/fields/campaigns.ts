// Campaigns (spec 2 rotations, spec 3 labours): a field has at most one campaign per yeargroup,
// shared by its rotations (`cicle_id`) and its labours. `biennial` tells whether the campaign
// spans two years (docs/decisions.md, "Labours"): set when the campaign is first made, changed
// when a labour sends it.

import { bool, type EntityOf, entity, num } from '../db/entity';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { getItem, NOT_EXISTS, nextId, putItem, type TxOp, tx } from '../db/table';
import { type LabourTally, tallyKey } from './labour-tally';

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
 * the labour write that changes it sets it in its own transaction (campaignLabourChange).
 */
export async function campaignOf(fieldId: number, yeargroup: number, biennial?: boolean): Promise<Campaign> {
  const key = keys.campaign(fieldId, yeargroup);
  return retryLostRace(async () => {
    const existing = await getItem(key);
    if (existing) return Campaign.fromItem(existing);
    const made: Campaign = { id: await nextId('cycle'), fieldId, yeargroup, biennial: biennial ?? false };
    await putItem(
      // a new campaign has no labour: its tally starts here (labourTallyOf)
      { ...key, ...Campaign.toItem(made), labours_tallied: true },
      { expression: NOT_EXISTS, failure: () => new LostRace('campaign created meanwhile') },
    );
    return made;
  });
}

/**
 * A campaign's tally of labours (lib/labours/model.ts), kept by every labour write in its own
 * transaction (campaignLabourChange) as attributes `labours_<status>_<type>`; undefined for a
 * campaign made before the tally whose backfill has not counted it yet (scripts/backfill.ts:
 * `labours_tallied`).
 */
const TALLY_PREFIX = 'labours_';

export function labourTallyOf(item: Record<string, unknown>): LabourTally | undefined {
  if (item.labours_tallied !== true) return undefined;
  const tally: LabourTally = new Map();
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(TALLY_PREFIX) && name !== 'labours_tallied' && typeof value === 'number' && value > 0)
      tally.set(name.slice(TALLY_PREFIX.length), value);
  }
  return tally;
}

/** The attributes of a tally as the backfill sets them (every count it found). */
export const tallyAttributes = (tally: LabourTally): Record<string, number> =>
  Object.fromEntries([...tally].map(([key, count]) => [`${TALLY_PREFIX}${key}`, count]));

/**
 * The transaction item a labour write makes on its campaign: the tally (a labour added, removed or
 * moved from one status to another) with `labour_writes` (the backfill's condition), and
 * `biennial` when it changes. The campaign exists (campaignOf made it before its first labour).
 */
export function campaignLabourChange(
  fieldId: number,
  yeargroup: number,
  change: {
    added?: { status: number; typeId: number };
    removed?: { status: number; typeId: number };
    biennial?: boolean;
  },
): TxOp {
  const adds: string[] = ['labour_writes :one'];
  const values: Record<string, unknown> = { ':one': 1 };
  const names: Record<string, string> = {};
  const { added, removed } = change;
  const same = added && removed && tallyKey(added.status, added.typeId) === tallyKey(removed.status, removed.typeId);
  if (added && !same) {
    names['#added'] = `${TALLY_PREFIX}${tallyKey(added.status, added.typeId)}`;
    adds.push('#added :one');
  }
  if (removed && !same) {
    names['#removed'] = `${TALLY_PREFIX}${tallyKey(removed.status, removed.typeId)}`;
    values[':minus'] = -1;
    adds.push('#removed :minus');
  }
  if (change.biennial !== undefined) values[':b'] = change.biennial;
  return tx.update(keys.campaign(fieldId, yeargroup), {
    expression: `${change.biennial !== undefined ? 'SET biennial = :b ' : ''}ADD ${adds.join(', ')}`,
    values,
    ...(Object.keys(names).length ? { names } : {}),
  });
}
