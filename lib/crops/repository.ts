// Users' crops in DynamoDB (docs/data-model.md): each in its user's partition, with a name item
// (names unique per user).
import { keys } from '../db/keys';
import { NOT_EXISTS, nextId, queryAll, readItem, transact, tx } from '../db/table';
import type { Crop } from './catalogue';
import { type CropRepository, cropsService } from './service';

const fromItem = (item: Record<string, unknown>): Crop => ({
  id: Number(item.crop_id),
  name: String(item.crop_name),
  varieties: [],
  userCrop: true,
});

export const dynamoCropRepository: CropRepository = {
  nextNumber: () => nextId('crop'),
  async userCrops(userId) {
    return (await queryAll(keys.userCropsPrefix(userId))).map(fromItem);
  },
  async userCrop(userId, cropId) {
    return readItem(keys.userCrop(userId, cropId), fromItem);
  },
  async create(userId, crop, taken) {
    await transact([
      tx.put(
        { ...keys.userCrop(userId, crop.id), kind: 'crop', crop_id: crop.id, crop_name: crop.name, user_id: userId },
        NOT_EXISTS,
        taken,
      ),
      tx.put({ ...keys.userCropName(userId, crop.name), kind: 'crop_name', crop_id: crop.id }, NOT_EXISTS, taken),
    ]);
  },
};

/** The crops service of the functions (and of the rotations and labours services, for crop names). */
export const crops = /* @__PURE__ */ cropsService({ repository: dynamoCropRepository });
