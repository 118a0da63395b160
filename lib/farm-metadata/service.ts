// Farm metadata (spec 3): a free-form JSON object per farm. PATCH merges the keys sent into the
// stored object (a key sent as null is removed); concurrent PATCHes never lose each other's keys
// (optimistic concurrency on a version number, retried).
//
// The service is built from its repositories (services take them as parameters): its rules run against
// DynamoDB in the functions (lib/farm-metadata/repository.ts) and against memory in tests/unit/farm-metadata.test.ts.

import type { Principal } from '../auth/principal';
import { Invalid } from '../errors';

export type Metadata = Record<string, unknown>;
export const METADATA_MAX_BYTES = 64 * 1024;

/** Where the metadata of farms is kept. */
export interface MetadataRepository {
  /** The metadata of each farm ({} when it has none). */
  read(farmIds: number[]): Promise<Map<number, Metadata>>;
  /** Replaces a farm's metadata by `change(current)` atomically (re-applied if another write came first); answers what was stored. */
  update(farmId: number, change: (current: Metadata) => Metadata, by: number): Promise<Metadata>;
}

/** Which farms a caller reaches. */
export interface FarmGate {
  /** Throws the area's refusal unless the caller may `action` the farm (a missing farm is refused alike). */
  require(principal: Principal, farmId: number, action: 'read' | 'write'): Promise<void>;
  /** Every farm the caller can read, by id. */
  readable(principal: Principal): Promise<number[]>;
}

/** Keys sent as null are removed; others are set. */
export function mergeMetadata(stored: Metadata, patch: Metadata): Metadata {
  const merged: Metadata = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export function farmMetadataService({ repository, farms }: { repository: MetadataRepository; farms: FarmGate }) {
  return {
    /** The metadata of the given farms (each must be readable), or of every farm the caller reads. */
    async metadataOf(principal: Principal, farmIds?: number[]): Promise<Map<number, Metadata>> {
      const ids = farmIds ? [...new Set(farmIds)] : (await farms.readable(principal)).sort((a, b) => a - b);
      if (farmIds) await Promise.all(ids.map((farmId) => farms.require(principal, farmId, 'read')));
      return repository.read(ids);
    },

    /** Merges `patch` into a farm's metadata (the caller must be able to write the farm). */
    async patchMetadata(principal: Principal, farmId: number, patch: Metadata): Promise<Metadata> {
      await farms.require(principal, farmId, 'write');
      return repository.update(
        farmId,
        (current) => {
          const merged = mergeMetadata(current, patch);
          if (Buffer.byteLength(JSON.stringify(merged)) > METADATA_MAX_BYTES) {
            throw new Invalid('Error could not update metadata', {
              extra: { detail: `metadata is limited to ${METADATA_MAX_BYTES} bytes` },
            });
          }
          return merged;
        },
        principal.user.id,
      );
    },
  };
}
