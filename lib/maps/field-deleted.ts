// A deleted field's maps: their id ref and their owners' copies go with them.
import type { FieldDeletedPart } from '../platform/field-deleted';
import { mapPointers } from './repository';

export const mapsOnFieldDeleted: FieldDeletedPart = {
  pointers: (item) => (item.kind === 'map' ? mapPointers(item) : []),
};
