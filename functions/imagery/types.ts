// GET /api/layers/types: the layer type catalogue (spec 2; not shown, designed in docs/imagery.md).
import { endpoint } from '../../lib/http/endpoint';
import { layerTypes } from '../../lib/imagery/types';
import { layerTypesRoute } from '../../schemas/imagery';

export const get = endpoint(layerTypesRoute, {
  handler: async () => ({ code: 0 as const, layer_types: layerTypes().map(({ id, nombre }) => ({ id, nombre })) }),
});
