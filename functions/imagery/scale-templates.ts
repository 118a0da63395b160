// /api/layers/scale_template: GET (spec 2) and POST, PATCH, DELETE (ours; docs/imagery.md).
import { endpoint } from '../../lib/http/endpoint';
import { scales } from '../../lib/imagery/repository';
import type { ScaleInput } from '../../lib/imagery/scale-templates';
import {
  createScaleTemplateRoute,
  deleteScaleTemplateRoute,
  listScaleTemplatesRoute,
  patchScaleTemplateRoute,
  scaleInput,
  wireScaleTemplate,
} from '../../schemas/imagery';

export const get = endpoint(listScaleTemplatesRoute, {
  handler: async ({ principal }) => ({
    scale_templates: (await scales.list(principal)).map(wireScaleTemplate),
    code: 'RETRIEVED_SCALE_TEMPLETES' as const,
  }),
});

export const post = endpoint(createScaleTemplateRoute, {
  handler: async ({ body, principal }) => ({
    scale_template: wireScaleTemplate(await scales.create(principal, scaleInput(body) as ScaleInput)),
    code: 'CREATED_SCALE_TEMPLATE' as const,
  }),
});

export const patch = endpoint(patchScaleTemplateRoute, {
  handler: async ({ body, principal }) => ({
    scale_template: wireScaleTemplate(await scales.change(principal, body.scale_template_id, scaleInput(body))),
    code: 'UPDATED_SCALE_TEMPLATE' as const,
  }),
});

export const del = endpoint(deleteScaleTemplateRoute, {
  handler: async ({ query, principal }) => {
    await scales.remove(principal, query.scale_template_id);
    return { code: 'DELETED_SCALE_TEMPLATE' as const };
  },
});
