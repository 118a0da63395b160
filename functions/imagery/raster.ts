// POST /raster (spec 2, "Creating a layer from a file", step 2; docs/imagery.md).
import { endpoint } from '../../lib/http/endpoint';
import { layers } from '../../lib/imagery/layers-repository';
import { createLayersRoute } from '../../schemas/imagery';

export const post = endpoint(createLayersRoute, {
  handler: async ({ body, principal }) => ({
    code: 0 as const,
    data: await layers.fromUpload(principal, {
      redis_id: body.redis_id,
      lote_id: body.lote_id,
      datetime: body.date,
      layers: Object.entries(body.data).map(([column, settings]) => ({
        column,
        id_layer: settings.id_layer,
        mean: settings.mean ?? null,
        min: settings.min ?? null,
        max: settings.max ?? null,
        meta: settings.meta ?? {},
        interpolation: settings.interpolation_type === 'kriging' ? ('kriging' as const) : ('idw' as const),
      })),
    }),
  }),
});
