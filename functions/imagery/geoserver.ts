// GET /api/geoserver/v2 (spec 2, Imagery layers).
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { imageryImages } from '../../lib/imagery/repository';
import { geoserverRoute } from '../../schemas/imagery';

export const get = endpoint(geoserverRoute, {
  handler: async ({ query, principal }) => {
    const image = await imageryImages.render(principal, query);
    return Reply.file(image.body, image.contentType);
  },
});
