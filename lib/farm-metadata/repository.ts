// Farm metadata in DynamoDB (docs/data-model.md): one versioned item per farm; and the service of
// the functions, with the platform's farm access.

import { farmFor } from '../authz/guard';
import { accessibleFarms } from '../authz/reach';
import { keys } from '../db/keys';
import { batchGet, itemKey, putVersioned } from '../db/table';
import { Forbidden } from '../errors';
import { type FarmGate, farmMetadataService, type Metadata, type MetadataRepository } from './service';

export const dynamoMetadataRepository: MetadataRepository = {
  async read(farmIds) {
    const found = await batchGet(farmIds.map((id) => keys.farmMetadata(id)));
    return new Map(
      farmIds.map((id) => [id, (found.get(itemKey(keys.farmMetadata(id)))?.metadata as Metadata | undefined) ?? {}]),
    );
  },
  async update(farmId, change, by) {
    let stored: Metadata = {};
    await putVersioned(keys.farmMetadata(farmId), (current) => {
      stored = change((current?.metadata as Metadata | undefined) ?? {});
      return {
        kind: 'farm_metadata',
        farm_id: farmId,
        metadata: stored,
        updated_at: new Date().toISOString(),
        updated_by: by,
      };
    });
    return stored;
  },
};

const accessDenied = (farmId: number) => new Forbidden(`the user cannot access farm ${farmId}`);

export const farmGate: FarmGate = {
  async require(principal, farmId, action) {
    await farmFor(principal, farmId, action, {
      notFound: () => accessDenied(farmId),
      forbidden: () => accessDenied(farmId),
    });
  },
  async readable(principal) {
    return [...(await accessibleFarms(principal.user.id)).keys()];
  },
};

/** The farm-metadata service of the functions: DynamoDB and the platform's farm access. */
export const farmMetadata = /* @__PURE__ */ farmMetadataService({
  repository: dynamoMetadataRepository,
  farms: farmGate,
});
