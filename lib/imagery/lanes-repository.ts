// A tenant's share of the urgent lane in DynamoDB, and a new field's first look on its lane
// (docs/imagery.md, "Lanes"; the rules in lanes.ts).
import { keys } from '../db/keys';
import { updateItem } from '../db/table';
import { publishEvent } from '../events/publish';
import { IMAGERY_FIELD_JOB } from './jobs';
import { type FirstLookLane, firstLookLane, SHARE_WINDOW_S } from './lanes';

/** Counts the first look against its owner's share of the window; the lane it goes to. */
export async function shareLane(ownerId: number, now = Date.now()): Promise<FirstLookLane> {
  const window = Math.floor(now / 1000 / SHARE_WINDOW_S);
  const item = await updateItem(keys.imageryShare(ownerId, window), {
    expression: 'SET kind = :kind, #ttl = :ttl ADD first_looks :one',
    names: { '#ttl': 'ttl' },
    values: { ':kind': 'imagery_share', ':ttl': (window + 2) * SHARE_WINDOW_S, ':one': 1 },
  });
  return firstLookLane(Number(item?.first_looks ?? 1));
}

/** A new field's first look: its newest scene at once, then its backfill (ingest.ts). */
export async function requestFirstLook(fieldId: number, ownerId: number): Promise<void> {
  const lane = await shareLane(ownerId);
  await publishEvent(IMAGERY_FIELD_JOB, { field_id: fieldId, newest: true }, { queue: lane });
}
