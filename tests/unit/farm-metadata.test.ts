// lib/farm-metadata/service.ts against memory: the service's rules without DynamoDB (its repositories are
// parameters; tests/crops-and-farm-metadata.test.ts runs the same rules through the API).
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { Forbidden, Invalid } from '../../lib/errors';
import {
  type FarmGate,
  farmMetadataService,
  METADATA_MAX_BYTES,
  type Metadata,
  type MetadataRepository,
} from '../../lib/farm-metadata/service';

function memory(initial: Record<number, Metadata> = {}) {
  const stored = new Map(Object.entries(initial).map(([id, value]) => [Number(id), value]));
  const writes: number[] = [];
  const repository: MetadataRepository = {
    read: async (ids) => new Map(ids.map((id) => [id, stored.get(id) ?? {}])),
    update: async (farmId, change) => {
      const next = change(stored.get(farmId) ?? {});
      stored.set(farmId, next);
      writes.push(farmId);
      return next;
    },
  };
  return { repository, stored, writes };
}

/** The caller reads farms 1 and 2 and writes farm 1. */
const farms: FarmGate = {
  require: async (_principal, farmId, action) => {
    if (!(farmId === 1 || (farmId === 2 && action === 'read')))
      throw new Forbidden(`the user cannot access farm ${farmId}`);
  },
  readable: async () => [2, 1],
};
const caller = { user: { id: 9 } } as Principal;

describe('farm metadata rules', () => {
  it('merges the keys sent; a key sent as null is removed', async () => {
    const { repository, stored } = memory({ 1: { a: 1, b: { deep: true }, c: 'x' } });
    const service = farmMetadataService({ repository, farms });
    expect(await service.patchMetadata(caller, 1, { b: null, c: 'y', d: [1, 2] })).toEqual({ a: 1, c: 'y', d: [1, 2] });
    expect(stored.get(1)).toEqual({ a: 1, c: 'y', d: [1, 2] });
  });

  it(`refuses metadata over ${METADATA_MAX_BYTES} bytes and keeps what was stored`, async () => {
    const { repository, stored } = memory({ 1: { a: 1 } });
    const service = farmMetadataService({ repository, farms });
    await expect(service.patchMetadata(caller, 1, { big: 'x'.repeat(METADATA_MAX_BYTES) })).rejects.toBeInstanceOf(
      Invalid,
    );
    expect(stored.get(1)).toEqual({ a: 1 });
  });

  it('checks the farm before touching anything: a farm the caller only reads cannot be changed', async () => {
    const { repository, writes } = memory();
    const service = farmMetadataService({ repository, farms });
    await expect(service.patchMetadata(caller, 2, { a: 1 })).rejects.toBeInstanceOf(Forbidden);
    await expect(service.patchMetadata(caller, 3, { a: 1 })).rejects.toBeInstanceOf(Forbidden);
    expect(writes).toEqual([]);
  });

  it('reads the farms asked for (each readable) or every readable farm in id order', async () => {
    const { repository } = memory({ 2: { z: true } });
    const service = farmMetadataService({ repository, farms });
    expect([...(await service.metadataOf(caller))]).toEqual([
      [1, {}],
      [2, { z: true }],
    ]);
    expect([...(await service.metadataOf(caller, [2, 2]))]).toEqual([[2, { z: true }]]);
    await expect(service.metadataOf(caller, [1, 3])).rejects.toBeInstanceOf(Forbidden);
  });
});
