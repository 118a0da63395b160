// Index attributes that items written before the code that writes them lack (docs/data-model.md,
// "Backfills"). A write of such an item always sets them (the entity derives them); the backfill
// sets them on the items written before, touching nothing else and only where they are still
// missing, so that it races no write; its marker, written once every item carries them, tells the
// readers that the index lists everything. Until then a reader keeps its former path.
import { keys } from './keys';
import { getItem } from './table';

export const BACKFILLS = {
  /** gsi1 of rotations: a farm's rotations (and `farm_id` on each). */
  rotationsByFarm: 'rotations-by-farm',
  /**
   * gsi1 of labours (a field's labours of a campaign in the list's order) and each campaign's tally
   * of its labours: marked campaign by campaign (`labours_tallied`), which is what the list reads;
   * this marker only spares a later run its scan.
   */
  labourTallies: 'labour-tallies',
  /**
   * gsi2 of labours (a farm's labours of a campaign in the list's order) and each farm's tally of
   * its campaigns' labours (keys.farmLabourTally): each campaign counted in its farm's at once
   * (`farm_counted`, lib/fields/campaigns.ts). The list without field ids reads by farm once it is done.
   */
  laboursByFarm: 'labours-by-farm',
  /** gsi3 of spots: a farm's spots by creation time. The list without a field reads by farm once it is done. */
  spotsByFarm: 'spots-by-farm',
  /** gsi1 of samplings (and `farm_id` on each): a farm's samplings. A farm's analyses read by farm once it is done. */
  samplingsByFarm: 'samplings-by-farm',
  /**
   * gsi1 of the fields' key-value and file storage (and `farm_id` on each): an extension's entries in
   * a farm's fields. A GET of the fields scope without ids reads by farm once it is done.
   */
  storageByFarm: 'storage-by-farm',
  /**
   * The head of each map (keys.mapHead: the map without its GeoJSON, in the same partition), written
   * only where the map is as read. The lists of maps read heads once it is done.
   */
  mapHeads: 'map-heads',
} as const;
export type BackfillName = (typeof BACKFILLS)[keyof typeof BACKFILLS];

const done = new Set<BackfillName>();

/** Whether the backfill has reached every item (once it has, a container never asks again). */
export async function backfilled(name: BackfillName): Promise<boolean> {
  if (done.has(name)) return true;
  if (!(await getItem(keys.backfill(name)))) return false;
  done.add(name);
  return true;
}
