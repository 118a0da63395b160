// Removes what hangs from a deleted field: every item of its partition and what points to them
// from elsewhere (users' grants, uuid refs, herd histories), read from each item's own attributes
// (kind, uuid, ids), never from its key. Idempotent, so a redelivered job is harmless.

import { deleteObjects } from '../aws/s3';
import type { Key } from '../db/keys';
import { keys } from '../db/keys';
import { batchDelete, type Item, queryAll } from '../db/table';
import { deleteHistory } from '../livestock/repository';
import { mapPointers } from '../maps/repository';
import { samplingPointers } from '../samplings/repository';
import { purgeSpot } from '../spots/repository';
import { objectKeysOf } from '../storage/repository';

/** Job put on the events queue when a field is deleted. */
export { FIELD_DELETED_JOB } from './jobs';

/** What points to an item of the field's partition from outside it. */
function pointersTo(item: Item, fieldId: number): Key[] {
  switch (item.kind) {
    case 'share':
      return [keys.userFieldAccess(Number(item.user_id), fieldId)];
    case 'rotation':
      return [keys.rotationRef(String(item.rotation_uuid), fieldId)];
    case 'paddock':
      return [keys.paddockRef(String(item.paddock_uuid), fieldId)];
    case 'herd':
      return [keys.herdRef(String(item.herd_uuid), fieldId)];
    case 'map':
      return mapPointers(item);
    case 'sampling':
      return samplingPointers(item);
    case 'labour':
      // its uuid is free again once the labour is gone (work orders list only labours that exist)
      return [keys.labourRef(String(item.labour_uuid), fieldId)];
    default:
      return [];
  }
}

export async function cleanUpDeletedField(fieldId: number): Promise<number> {
  const all = (await queryAll<Item & Key>(keys.fieldPartition(fieldId))).filter((item) => item.kind !== 'field');
  // Spots carry tag counts and files: each is purged on its own.
  for (const spot of all.filter((item) => item.kind === 'spot')) await purgeSpot(spot);
  const items = all.filter((item) => item.kind !== 'spot');
  for (const herd of items.filter((item) => item.kind === 'herd')) await deleteHistory(Number(herd.herd_id));
  const toDelete: Key[] = items.flatMap((item) => [{ pk: item.pk, sk: item.sk }, ...pointersTo(item, fieldId)]);
  // The field's extension files go before their records, so a failed attempt is retried whole.
  await deleteObjects(objectKeysOf(items));
  await batchDelete(toDelete);
  return toDelete.length;
}
