// GET /getcultivos (spec 3, crops)
import { endpoint } from '../../lib/http/endpoint';
import { cropsFor } from '../../lib/crops/service';
import { listCropsRoute, wireCrop } from '../../schemas/crops';

export const get = endpoint(listCropsRoute, {
  handler: async ({ principal }) => (await cropsFor(principal.user.id)).map(wireCrop),
});
