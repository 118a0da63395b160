// GET /getcultivos (spec 3, crops)
import { endpoint } from '../../lib/http/endpoint';
import { crops } from '../../lib/crops/repository';
import { listCropsRoute, wireCrop } from '../../schemas/crops';

export const get = endpoint(listCropsRoute, {
  handler: async ({ principal }) => (await crops.cropsFor(principal.user.id)).map(wireCrop),
});
