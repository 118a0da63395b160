// A field's deletion as each area sees it (FIELD_DELETED.V1, handled by the events worker,
// lib/workers/field-deleted.ts): every item of the field's partition goes, and each area that keeps
// items there says what else goes with them. An area's part is in lib/<area>/field-deleted.ts.
import type { Key } from '../db/keys';
import type { Item } from '../db/table';

export interface FieldDeletedPart {
  /** Keys outside the field's partition that point to one of the area's items (grants, uuid refs, copies). */
  pointers?(item: Item, fieldId: number): Key[];
  /** Kinds of item the area removes itself in `before` (they are then left out of the bulk deletion). */
  removes?: readonly string[];
  /** What goes before the items (a spot's files and tag counts, a herd's history, stored objects); idempotent. */
  before?(items: readonly Item[]): Promise<void>;
}
