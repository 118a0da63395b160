// POST /api/agregarlote (spec 2, Fields)
import { Invalid } from '../../lib/errors';
import { FIELD_CODES } from '../../lib/fields/codes';
import { fieldCreation as fields } from '../../lib/fields/instance';
import { GENERAL_CODES } from '../../lib/http/dialects';
import { endpoint } from '../../lib/http/endpoint';
import { createFieldRoute } from '../../schemas/fields';

export const post = endpoint(createFieldRoute, {
  invalid: (_issues, message) => new Invalid(message, { code: GENERAL_CODES.WRONG_FORMAT }),
  handler: async ({ body, principal }) => {
    const form = body ?? {};
    const missing = [
      !form.nombre?.trim() && 'nombre',
      !form.shape?.trim() && 'shape',
      form.idcampo === undefined && !form.nombrecampo && 'idcampo or nombrecampo',
    ].filter(Boolean);
    if (missing.length) {
      throw new Invalid(`missing parameters: ${missing.join(', ')}`, { code: FIELD_CODES.MISSING_PARAMETERS });
    }
    const { fieldId, farmId } = await fields.createField(principal, {
      name: form.nombre!,
      shape: form.shape!,
      farmId: form.idcampo,
      farmName: form.nombrecampo,
    });
    return { res: 'ok', code: 0, info: `field created with id ${fieldId}`, id_lote: String(fieldId), id_campo: farmId };
  },
});
