// FIELD_DELETED.V1 (put on the events queue when a field is deleted, lib/fields/service.ts):
// removes what hangs from the field, every item of its partition and what each area says points to
// them from elsewhere (lib/<area>/field-deleted.ts), read from each item's own attributes (kind,
// uuid, ids), never from its key. Idempotent, so a redelivered job is harmless.
import type { Key } from '../db/keys';
import { keys } from '../db/keys';
import { FARM_DELETING_FIELDS } from '../db/revision';
import { batchDelete, type Item, queryAll, updateBookkeeping } from '../db/table';
import { laboursOnFieldDeleted } from '../labours/field-deleted';
import { livestockOnFieldDeleted } from '../livestock/field-deleted';
import { mapsOnFieldDeleted } from '../maps/field-deleted';
import type { FieldDeletedPart } from '../platform/field-deleted';
import { rotationsOnFieldDeleted } from '../rotations/field-deleted';
import { samplingsOnFieldDeleted } from '../samplings/field-deleted';
import { sharesOnFieldDeleted } from '../shares/field-deleted';
import { spotsOnFieldDeleted } from '../spots/field-deleted';
import { storageOnFieldDeleted } from '../storage/field-deleted';

/** Every area's part, in the order their work runs: spots first (they purge themselves), stored objects last. */
export const FIELD_DELETED_PARTS: readonly FieldDeletedPart[] = [
  spotsOnFieldDeleted,
  sharesOnFieldDeleted,
  rotationsOnFieldDeleted,
  livestockOnFieldDeleted,
  mapsOnFieldDeleted,
  samplingsOnFieldDeleted,
  laboursOnFieldDeleted,
  storageOnFieldDeleted,
];

/**
 * Removes what hangs from a deleted field; then, when the job names the field's farm, takes the
 * field off the farm's fields being deleted (its listings leave them out until then: lib/authz/
 * by-farm.ts). Answers how many items it deleted.
 */
export async function cleanUpDeletedField(
  fieldId: number,
  farmId?: number,
  parts: readonly FieldDeletedPart[] = FIELD_DELETED_PARTS,
): Promise<number> {
  let items = (await queryAll<Item & Key>(keys.fieldPartition(fieldId))).filter((item) => item.kind !== 'field');
  for (const part of parts) {
    await part.before?.(items);
    if (part.removes) items = items.filter((item) => !part.removes!.includes(String(item.kind)));
  }
  const toDelete: Key[] = items.flatMap((item) => [
    { pk: item.pk, sk: item.sk },
    ...parts.flatMap((part) => part.pointers?.(item, fieldId) ?? []),
  ]);
  await batchDelete(toDelete);
  if (farmId !== undefined)
    await updateBookkeeping(keys.farm(farmId), {
      expression: 'DELETE #deleting :field',
      names: { '#deleting': FARM_DELETING_FIELDS },
      values: { ':field': new Set([fieldId]) },
    });
  return toDelete.length;
}
