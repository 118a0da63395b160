// Farm metadata (spec 3): a free-form JSON object per farm. PATCH merges the keys sent into the
// stored object (a key sent as null is removed); concurrent PATCHes never lose each other's keys
// (optimistic concurrency on a version number, retried).
import { keys } from '../db/keys';
import { batchGet, itemKey, putVersioned } from '../db/table';
import { Forbidden, Invalid } from '../errors';
import type { Principal } from '../auth/principal';
import { accessibleFarms } from '../fields/list';
import { farmFor } from '../authz/guard';

export type Metadata = Record<string, unknown>;
export const METADATA_MAX_BYTES = 64 * 1024;

const accessDenied = (farmId: number) => new Forbidden(`the user cannot access farm ${farmId}`);

export async function metadataOf(principal: Principal, farmIds?: number[]): Promise<Map<number, Metadata>> {
  let ids: number[];
  if (farmIds) {
    ids = [...new Set(farmIds)];
    await Promise.all(
      ids.map(async (farmId) => {
        await farmFor(principal, farmId, 'read', { notFound: () => accessDenied(farmId), forbidden: () => accessDenied(farmId) });
      }),
    );
  } else {
    ids = [...(await accessibleFarms(principal.user.id)).keys()].sort((a, b) => a - b);
  }
  const found = await batchGet(ids.map((id) => keys.farmMetadata(id)));
  return new Map(ids.map((id) => [id, (found.get(itemKey(keys.farmMetadata(id)))?.metadata as Metadata | undefined) ?? {}]));
}

export function mergeMetadata(stored: Metadata, patch: Metadata): Metadata {
  const merged: Metadata = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export async function patchMetadata(principal: Principal, farmId: number, patch: Metadata): Promise<Metadata> {
  await farmFor(principal, farmId, 'write', { notFound: () => accessDenied(farmId), forbidden: () => accessDenied(farmId) });
  let merged: Metadata = {};
  await putVersioned(keys.farmMetadata(farmId), (current) => {
    merged = mergeMetadata((current?.metadata as Metadata | undefined) ?? {}, patch);
    if (Buffer.byteLength(JSON.stringify(merged)) > METADATA_MAX_BYTES) {
      throw new Invalid('Error could not update metadata', { extra: { detail: `metadata is limited to ${METADATA_MAX_BYTES} bytes` } });
    }
    return { kind: 'farm_metadata', farm_id: farmId, metadata: merged, updated_at: new Date().toISOString(), updated_by: principal.user.id };
  });
  return merged;
}
