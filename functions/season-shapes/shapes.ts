// POST /api/fields/v2/shapes (spec 2, Season shapes)
import { endpoint } from '../../lib/http/endpoint';
import { shapes } from '../../lib/season-shapes/repository';
import { postShapeRoute } from '../../schemas/season-shapes';

export const post = endpoint(postShapeRoute, {
  handler: async ({ body, principal }) => {
    const { imagesReprocessing } = await shapes.postShape(principal, {
      fieldId: body.field_id,
      campaign: body.campaign,
      shape: body.shape,
    });
    return { info: 'shape was created', data: { images_reprocessing: imagesReprocessing } };
  },
});
