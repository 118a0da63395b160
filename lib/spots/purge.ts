// Removing what hangs from a deleted spot (worker job SPOT_DELETED.V1) and deleting the spots of a
// deleted field. Idempotent: a repeated job finds nothing left to do.
import { keys } from '../db/keys';
import { batchDelete, EXISTS, queryAll, transact, tx, type Item } from '../db/table';
import type { Key } from '../db/keys';
import { DomainError } from '../errors';
import { deleteImageObjects } from './images';
import { SpotMessage, Spot } from './model';
import { spotDeletion } from './spots';

/** Deletes the messages, their refs, the image records and image files of a spot, and where it was. */
export async function purgeSpotContents(spotId: number): Promise<void> {
  const items = await queryAll<Item & Key>(keys.spotMessagesPrefix(spotId));
  const images: string[] = [];
  const toDelete: Key[] = [];
  for (const item of items) {
    const message = SpotMessage.fromItem(item);
    toDelete.push({ pk: item.pk, sk: item.sk }, keys.messageRef(message.uuid, spotId));
    for (const img of message.imgs) {
      images.push(img.uuid);
      toDelete.push(keys.spotImage(img.uuid, spotId));
    }
  }
  await deleteImageObjects(spotId, images);
  await batchDelete([...toDelete, keys.spotById(spotId)]);
}

/** Deletes a spot of a deleted field with its code, ref and tag counts, then its contents. */
export async function purgeSpot(spotItem: Item): Promise<void> {
  const spot = Spot.fromItem(spotItem);
  try {
    // Only if the spot is still there: a spot already deleted gave its tag counts back then.
    await transact(spotDeletion(spot, tx.delete(keys.spot(spot.fieldId, spot.uuid), EXISTS, () => new DomainError('not_found', 'gone'))));
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
  }
  await purgeSpotContents(spot.id);
}
