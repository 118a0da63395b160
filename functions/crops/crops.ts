// POST /api/crops: a crop of the user's own (spec 3: "crops registered manually by users")

import { crops } from '../../lib/crops/repository';
import { endpoint } from '../../lib/http/endpoint';
import { registerCropRoute, wireCrop } from '../../schemas/crops';

export const post = endpoint(registerCropRoute, {
  handler: async ({ body, principal }) => ({
    res: 'ok',
    code: 0,
    data: wireCrop(await crops.registerCrop(principal, body.name)),
  }),
});
