// A deleted field's shares: the grant kept on the user's side goes with the field's.
import { keys } from '../db/keys';
import type { FieldDeletedPart } from '../platform/field-deleted';

export const sharesOnFieldDeleted: FieldDeletedPart = {
  pointers: (item, fieldId) => (item.kind === 'share' ? [keys.userFieldAccess(Number(item.user_id), fieldId)] : []),
};
