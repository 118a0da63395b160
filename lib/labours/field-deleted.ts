// A deleted field's labours: each uuid is free again once its labour is gone (work orders list only
// labours that exist).
import { keys } from '../db/keys';
import type { FieldDeletedPart } from '../platform/field-deleted';

export const laboursOnFieldDeleted: FieldDeletedPart = {
  pointers: (item, fieldId) => (item.kind === 'labour' ? [keys.labourRef(String(item.labour_uuid), fieldId)] : []),
};
