// lib/crops/service.ts against memory: the platform's crops plus each user's own, without DynamoDB.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { type Crop, PLATFORM_CROPS, USER_CROP_ID_OFFSET } from '../../lib/crops/catalogue';
import { CROP_NAME_MAX, type CropRepository, cropsService } from '../../lib/crops/service';
import { DomainError } from '../../lib/errors';

function memory() {
  const rows = new Map<number, Array<Crop>>();
  let sequence = 0;
  const repository: CropRepository = {
    nextNumber: async () => ++sequence,
    userCrops: async (userId) => rows.get(userId) ?? [],
    userCrop: async (userId, cropId) => rows.get(userId)?.find((c) => c.id === cropId),
    async create(userId, crop, taken) {
      if ((rows.get(userId) ?? []).some((c) => c.name.toLowerCase() === crop.name.toLowerCase())) throw taken();
      rows.set(userId, [...(rows.get(userId) ?? []), crop]);
    },
  };
  return cropsService({ repository });
}

const user = (id: number) => ({ user: { id } }) as Principal;
const kindOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? error.kind : error),
  );

describe('crop rules (repository in memory)', () => {
  it("lists the platform's crops and the user's own; a user's crop is invisible to others", async () => {
    const service = memory();
    const crop = await service.registerCrop(user(1), '  Quinoa ');
    expect(crop).toEqual({ id: USER_CROP_ID_OFFSET + 1, name: 'Quinoa', varieties: [], userCrop: true });
    expect((await service.cropsFor(1)).length).toBe(PLATFORM_CROPS.length + 1);
    expect(await service.cropById(1, crop.id)).toEqual(crop);
    expect(await service.cropById(2, crop.id)).toBeUndefined();
    expect(await service.cropById(2, PLATFORM_CROPS[0]!.id)).toEqual(PLATFORM_CROPS[0]);
  });

  it("refuses a platform crop's name, a name the user already has, and empty or long names", async () => {
    const service = memory();
    await service.registerCrop(user(1), 'Quinoa');
    expect(await kindOf(service.registerCrop(user(1), PLATFORM_CROPS[0]!.name.toUpperCase()))).toBe('conflict');
    expect(await kindOf(service.registerCrop(user(1), 'QUINOA'))).toBe('conflict');
    expect(await kindOf(service.registerCrop(user(2), 'Quinoa'))).toBeUndefined();
    expect(await kindOf(service.registerCrop(user(1), ' '))).toBe('invalid');
    expect(await kindOf(service.registerCrop(user(1), 'x'.repeat(CROP_NAME_MAX + 1)))).toBe('invalid');
  });
});
