// Crops (spec 3): the platform's list plus the crops each user registers.
//
// The service is built from its repository (services take them as parameters): its rules run
// against DynamoDB in the functions (lib/crops/repository.ts) and against memory in
// tests/unit/crops.test.ts.

import type { Principal } from '../auth/principal';
import { normalizeName } from '../db/keys';
import { Conflict, type DomainError, Invalid } from '../errors';
import { characters } from '../util/text';
import { type Crop, PLATFORM_CROPS, platformCrop, USER_CROP_ID_OFFSET } from './catalogue';

export const CROP_NAME_MAX = 80;

/** Where the crops users register are kept. */
export interface CropRepository {
  /** A new sequence number (user crop ids are USER_CROP_ID_OFFSET plus it). */
  nextNumber(): Promise<number>;
  userCrops(userId: number): Promise<Crop[]>;
  userCrop(userId: number, cropId: number): Promise<Crop | undefined>;
  /** Stores a user's crop, its name unique for the user (`taken` otherwise). */
  create(userId: number, crop: Crop, taken: () => DomainError): Promise<void>;
}

export function cropsService({ repository }: { repository: CropRepository }) {
  return {
    /** Every crop a user can choose: the platform's and its own. */
    async cropsFor(userId: number): Promise<Crop[]> {
      return [...PLATFORM_CROPS, ...(await repository.userCrops(userId))];
    },

    /** A crop by id, from the platform's list or the user's own. */
    async cropById(userId: number, cropId: number): Promise<Crop | undefined> {
      return cropId < USER_CROP_ID_OFFSET ? platformCrop(cropId) : repository.userCrop(userId, cropId);
    },

    async registerCrop(principal: Principal, rawName: string): Promise<Crop> {
      const name = rawName.trim();
      if (!name || characters(name) > CROP_NAME_MAX)
        throw new Invalid(`the crop name must have 1 to ${CROP_NAME_MAX} characters`);
      const taken = () => new Conflict(`a crop named '${name}' already exists`);
      if (PLATFORM_CROPS.some((crop) => normalizeName(crop.name) === normalizeName(name))) throw taken();
      const crop: Crop = {
        id: USER_CROP_ID_OFFSET + (await repository.nextNumber()),
        name,
        varieties: [],
        userCrop: true,
      };
      await repository.create(principal.user.id, crop, taken);
      return crop;
    },
  };
}
