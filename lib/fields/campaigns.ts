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
      // a new campaign has no labour: its tally starts here (labourTallyOf), and so does its part of
      // its farm's tally (farmCountedOf)
      { ...key, ...Campaign.toItem(made), labours_tallied: true, farm_counted: true },
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
  return tallyIn(item);
}

/** The counts of a tally's item, a campaign's or a farm's (keys.farmLabourTally: no item, no labour). */
export function tallyIn(item: Record<string, unknown> | undefined): LabourTally {
  const tally: LabourTally = new Map();
  if (!item) return tally;
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
 * Whether a campaign's labours are counted in its farm's tally (keys.farmLabourTally: the sum of the
 * tallies of the farm's campaigns of a yeargroup, which a page of every farm the caller reads
 * answers its total from). A campaign made since is (campaignOf); one made before is added to its
 * farm's by the backfill (scripts/backfill.ts), which sets `farm_counted` in the same transaction.
 */
export const farmCountedOf = (item: Record<string, unknown> | undefined): boolean => item?.farm_counted === true;

export interface LabourMove {
  added?: { status: number; typeId: number };
  removed?: { status: number; typeId: number };
}

/** The ADDs of a labour move on a tally's attributes (none when its status and type stay). */
function tallyAdds(change: LabourMove): {
  adds: string[];
  values: Record<string, unknown>;
  names: Record<string, string>;
} {
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
  return { adds, values, names };
}

/**
 * The transaction items a labour write makes on its campaign and its farm: the campaign's tally (a
 * labour added, removed or moved from one status to another) with `labour_writes` (the backfills'
 * condition), and `biennial` when it changes; when the campaign is counted in its farm's tally
 * (`farmCounted`, read before), the same move on the farm's tally, on condition that the campaign
 * still is as read (else a LostRace: the backfill counted it meanwhile, the write is redone). The
 * campaign exists (campaignOf made it before its first labour).
 */
export function campaignLabourChange(
  fieldId: number,
  yeargroup: number,
  change: LabourMove & { biennial?: boolean },
  farm?: { farmId: number; counted: boolean },
): TxOp[] {
  const { adds, values, names } = tallyAdds(change);
  const sets: string[] = [];
  if (change.biennial !== undefined) {
    values[':b'] = change.biennial;
    sets.push('biennial = :b');
  }
  if (farm?.counted) {
    // the farm the field-deleted job takes the campaign's labours back from
    values[':farm'] = farm.farmId;
    values[':true'] = true;
    sets.push('farm_id = :farm');
  }
  const campaign = tx.update(
    keys.campaign(fieldId, yeargroup),
    {
      expression: `${sets.length ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')}`,
      ...(farm ? { condition: farm.counted ? 'farm_counted = :true' : 'attribute_not_exists(farm_counted)' } : {}),
      values,
      ...(Object.keys(names).length ? { names } : {}),
    },
    () => new LostRace('the campaign was counted in its farm meanwhile'),
  );
  if (!farm?.counted) return [campaign];
  const moved = tallyAdds(change);
  return [
    campaign,
    tx.update(keys.farmLabourTally(farm.farmId, yeargroup), {
      expression: `ADD ${moved.adds.join(', ')}`,
      values: moved.values,
      ...(Object.keys(moved.names).length ? { names: moved.names } : {}),
    }),
  ];
}

/**
 * Takes a campaign's labours out of its farm's tally and deletes it, at once (the field-deleted job,
 * once its field is gone: no labour is written to it any more, lib/labours/repository.ts); on
 * condition that it is as read, so that a job run again takes nothing twice.
 */
export function campaignWithdrawal(campaign: Record<string, unknown>): TxOp[] {
  const key = { pk: String(campaign.pk), sk: String(campaign.sk) };
  const tally = labourTallyOf(campaign);
  const farmId = campaign.farm_id;
  if (!farmCountedOf(campaign) || !tally?.size || typeof farmId !== 'number') return [tx.delete(key)];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = [...tally].map(([name, count], i) => {
    names[`#t${i}`] = `${TALLY_PREFIX}${name}`;
    values[`:t${i}`] = -count;
    return `#t${i} :t${i}`;
  });
  const writes = campaign.labour_writes;
  return [
    writes === undefined
      ? tx.delete(key, 'attribute_exists(pk) AND attribute_not_exists(labour_writes)')
      : tx.delete(key, 'labour_writes = :writes', undefined, { ':writes': writes }),
    tx.update(keys.farmLabourTally(farmId, Number(campaign.yeargroup)), {
      expression: `ADD ${adds.join(', ')}`,
      values,
      names,
    }),
  ];
}
