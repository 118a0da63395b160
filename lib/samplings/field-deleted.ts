// A deleted field's samplings: each uuid's ref goes with them.
import type { FieldDeletedPart } from '../platform/field-deleted';
import { samplingPointers } from './repository';

export const samplingsOnFieldDeleted: FieldDeletedPart = {
  pointers: (item) => (item.kind === 'sampling' ? samplingPointers(item) : []),
};
