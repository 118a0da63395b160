// A deleted field's spots carry tag counts and files: each spot is purged on its own (its texts,
// images and stored files, and the counts of its tags), not in the bulk deletion.
import type { FieldDeletedPart } from '../platform/field-deleted';
import { purgeSpot } from './repository';

export const spotsOnFieldDeleted: FieldDeletedPart = {
  removes: ['spot'],
  async before(items) {
    for (const spot of items.filter((item) => item.kind === 'spot')) await purgeSpot(spot);
  },
};
