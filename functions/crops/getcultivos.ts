// GET /getcultivos (spec 3, crops)

import { crops } from '../../lib/crops/repository';
import { endpoint } from '../../lib/http/endpoint';
import { listCropsRoute, wireCrop } from '../../schemas/crops';

export const get = endpoint(listCropsRoute, {
  handler: async ({ principal }) => (await crops.cropsFor(principal.user.id)).map(wireCrop),
});
