// The imagery lanes (docs/imagery.md, "Lanes"): three queues, each with its own worker and
// concurrency, so that what a user waits for never queues behind a year of backfill.
// - urgent: a new field's first look (its newest scene) and layers from files and samplings;
// - bulk: the first looks of a tenant past its urgent share (a farm importing hundreds of fields):
//   newest scenes still, but they cannot hold another tenant's new field back;
// - backfill (the imagery queue): the rest of each field's period, scene by scene, newest first,
//   and the daily schedule's jobs; a new season shape's re-cut (its lock held) goes to bulk instead.
// The rules; lanes-repository.ts counts the share in DynamoDB and sends the job (field creation
// bundles only these two, not the ingestion code).

/** First looks a tenant (a field's owner) sends to the urgent lane per window; later ones go to bulk. */
export const URGENT_SHARE = 5;
/** The share's window, seconds. */
export const SHARE_WINDOW_S = 600;

export type FirstLookLane = 'imageryUrgent' | 'imageryBulk';

/** The lane of a tenant's `nth` first look of the window (1 for the first). */
export const firstLookLane = (nth: number): FirstLookLane => (nth <= URGENT_SHARE ? 'imageryUrgent' : 'imageryBulk');

/** The lane of a run's jobs: a new season shape's re-cut (the field's lock held) on bulk, the rest on backfill. */
export const runLane = (locked: boolean): 'imagery' | 'imageryBulk' => (locked ? 'imageryBulk' : 'imagery');
