// Removes what hangs from a deleted field: every item of its partition and the grants that point
// to it from users' partitions. Idempotent, so a redelivered job is harmless.
import { keys, parseIdFromSk } from '../db/keys';
import { batchDelete, queryAll, type Item } from '../db/table';
import type { Key } from '../db/keys';
import { purgeSpot } from '../spots/purge';
import { deleteObjects, objectKeysOf } from '../storage/files';

/** Job put on the events queue when a field is deleted. */
export const FIELD_DELETED_JOB = 'FIELD_DELETED.V1';

export async function cleanUpDeletedField(fieldId: number): Promise<number> {
  const { pk } = keys.fieldPartition(fieldId);
  const all = (await queryAll<Item & Key>({ pk })).filter((item) => item.sk !== 'PROFILE');
  // Spots carry tag counts and files: each is purged on its own.
  for (const spot of all.filter((item) => item.sk.startsWith('SPOT#'))) await purgeSpot(spot);
  const items = all.filter((item) => !item.sk.startsWith('SPOT#'));
  const toDelete: Key[] = items.map(({ pk: itemPk, sk }) => ({ pk: itemPk, sk }));
  for (const item of items) {
    if (item.sk.startsWith('SHARE#')) toDelete.push(keys.userFieldAccess(parseIdFromSk(item.sk), fieldId));
    if (item.sk.startsWith('ROTATION#')) toDelete.push(keys.rotationRef(item.sk.slice('ROTATION#'.length)));
    if (item.sk.startsWith('PADDOCK#')) toDelete.push(keys.paddockRef(item.sk.slice('PADDOCK#'.length)));
    if (item.sk.startsWith('HERD#')) {
      const herdUuid = item.sk.slice('HERD#'.length);
      toDelete.push(keys.herdRef(herdUuid));
      const { pk: logPk, skPrefix } = keys.herdLogPrefix(herdUuid);
      for (const entry of await queryAll<Item & Key>({ pk: logPk, skPrefix })) toDelete.push({ pk: entry.pk, sk: entry.sk });
    }
  }
  // The field's extension files go before their records, so a failed attempt is retried whole.
  await deleteObjects(objectKeysOf(items));
  await batchDelete(toDelete);
  return toDelete.length;
}
