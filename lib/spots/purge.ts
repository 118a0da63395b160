// Removing what hangs from a deleted spot (worker job SPOT_DELETED.V1) and deleting the spots of a
// deleted field. Idempotent: a repeated job finds nothing left to do.
import { keys } from '../db/keys';
import { batchDelete, EXISTS, queryAll, transact, tx, type Item } from '../db/table';
import type { Key } from '../db/keys';
import { Conflict } from '../errors';
import { deleteImageObjects } from './images';
import { messageFromItem, spotFromItem } from './model';
import { tagCountChanges } from './tags';

/** Deletes the messages, message references, image records and image files of a spot. */
export async function purgeSpotContents(spotUuid: string): Promise<void> {
  const { pk, skPrefix } = keys.spotMessagesPrefix(spotUuid);
  const items = await queryAll<Item & Key>({ pk, skPrefix });
  const images: string[] = [];
  const toDelete: Key[] = [];
  for (const item of items) {
    const message = messageFromItem(item);
    toDelete.push({ pk: item.pk, sk: item.sk }, keys.messageRef(message.uuid));
    for (const img of message.imgs) {
      images.push(img.uuid);
      toDelete.push(keys.spotImage(img.uuid));
    }
  }
  await deleteImageObjects(spotUuid, images);
  await batchDelete(toDelete);
}

/** Deletes a spot of a deleted field with its code, reference and tag counts, then its contents. */
export async function purgeSpot(spotItem: Item): Promise<void> {
  const spot = spotFromItem(spotItem);
  try {
    await transact([
      tx.delete(keys.spot(spot.fieldId, spot.uuid), EXISTS, () => new Conflict('gone')),
      tx.delete(keys.spotRef(spot.uuid)),
      tx.delete(keys.spotCode(spot.code)),
      ...tagCountChanges(spot.tagUuids, []),
    ]);
  } catch (error) {
    if (!(error instanceof Conflict)) throw error; // already deleted: its tag counts were given back then
  }
  await purgeSpotContents(spot.uuid);
}
