// GET api/sampling/analysis_variable/layer_type (spec 2) and POST /api/sampling/<uuid>/rasterize
// (spec 3): layers from samplings (lib/samplings/rasterize.ts, docs/imagery.md).
import { endpoint } from '../../lib/http/endpoint';
import { analysisLayerTypes } from '../../lib/imagery/types';
import { samplingLayers } from '../../lib/samplings/repository';
import { analysisLayerTypesRoute, rasterizeSamplingRoute } from '../../schemas/samplings';

export const catalogue = endpoint(analysisLayerTypesRoute, {
  handler: async () => ({ code: 'OK' as const, data: analysisLayerTypes() }),
});

export const rasterize = endpoint(rasterizeSamplingRoute, {
  handler: async ({ path, body, principal }) => ({
    code: 0 as const,
    data: await samplingLayers.rasterize(principal, path.sampling_uuid, body),
  }),
});
