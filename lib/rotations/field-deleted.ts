// A deleted field's rotations: each uuid's ref to the field goes with them.
import { keys } from '../db/keys';
import type { FieldDeletedPart } from '../platform/field-deleted';

export const rotationsOnFieldDeleted: FieldDeletedPart = {
  pointers: (item, fieldId) =>
    item.kind === 'rotation' ? [keys.rotationRef(String(item.rotation_uuid), fieldId)] : [],
};
