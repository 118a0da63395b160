// Crops (spec 3): the platform's list plus the crops each user registers.
import { keys, normalizeName } from '../db/keys';
import { getItem, nextId, NOT_EXISTS, queryAll, transact, tx } from '../db/table';
import { Conflict, Invalid } from '../errors';
import type { Principal } from '../auth/principal';
import { PLATFORM_CROPS, platformCrop, USER_CROP_ID_OFFSET, type Crop } from './catalogue';
import { characters } from '../util/text';

export const CROP_NAME_MAX = 80;

const userCropFromItem = (item: Record<string, unknown>): Crop => ({
  id: Number(item.crop_id),
  name: String(item.crop_name),
  varieties: [],
  userCrop: true,
});

export async function userCrops(userId: number): Promise<Crop[]> {
  const { pk, skPrefix } = keys.userCropsPrefix(userId);
  return (await queryAll({ pk, skPrefix })).map(userCropFromItem);
}

/** Every crop a user can choose: the platform's and its own. */
export async function cropsFor(userId: number): Promise<Crop[]> {
  return [...PLATFORM_CROPS, ...(await userCrops(userId))];
}

/** A crop by id, from the platform's list or the user's own. */
export async function cropById(userId: number, cropId: number): Promise<Crop | undefined> {
  if (cropId < USER_CROP_ID_OFFSET) return platformCrop(cropId);
  const item = await getItem(keys.userCrop(userId, cropId));
  return item ? userCropFromItem(item) : undefined;
}

export async function registerCrop(principal: Principal, rawName: string): Promise<Crop> {
  const name = rawName.trim();
  if (!name || characters(name) > CROP_NAME_MAX) throw new Invalid(`the crop name must have 1 to ${CROP_NAME_MAX} characters`);
  const taken = () => new Conflict(`a crop named '${name}' already exists`);
  if (PLATFORM_CROPS.some((crop) => normalizeName(crop.name) === normalizeName(name))) throw taken();
  const userId = principal.user.id;
  const id = USER_CROP_ID_OFFSET + (await nextId('crop'));
  await transact([
    tx.put({ ...keys.userCrop(userId, id), kind: 'crop', crop_id: id, crop_name: name, user_id: userId }, NOT_EXISTS),
    tx.put({ ...keys.userCropName(userId, name), kind: 'crop_name', crop_id: id }, NOT_EXISTS, taken),
  ]);
  return { id, name, varieties: [], userCrop: true };
}
