// A deleted field's paddocks and herds: their uuid refs, and each herd's history, kept apart.
import { keys } from '../db/keys';
import type { FieldDeletedPart } from '../platform/field-deleted';
import { deleteHistory } from './repository';

export const livestockOnFieldDeleted: FieldDeletedPart = {
  pointers: (item, fieldId) => {
    if (item.kind === 'paddock') return [keys.paddockRef(String(item.paddock_uuid), fieldId)];
    if (item.kind === 'herd') return [keys.herdRef(String(item.herd_uuid), fieldId)];
    return [];
  },
  async before(items) {
    for (const herd of items.filter((item) => item.kind === 'herd')) await deleteHistory(Number(herd.herd_id));
  },
};
