// GET /api/geoserver/v2 (spec 2, Imagery layers).
import { s3Kit } from '../../lib/aws/s3';
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { imageryImages } from '../../lib/imagery/instance';
import { geoserverRoute } from '../../schemas/imagery';

export const get = endpoint(geoserverRoute, {
  // every image is read from S3, after the field and its dates are read from DynamoDB
  preload: [s3Kit],
  handler: async ({ query, principal }) => {
    const image = await imageryImages.render(principal, query);
    return Reply.file(image.body, image.contentType);
  },
});
