// GET /api/borrarlotes?lote=<field_id> (spec 2, Fields)
import { Invalid } from '../../lib/errors';
import { FIELD_CODES } from '../../lib/fields/codes';
import { fieldDeletion as fields } from '../../lib/fields/instance';
import { endpoint } from '../../lib/http/endpoint';
import { deleteFieldRoute } from '../../schemas/fields';

export const get = endpoint(deleteFieldRoute, {
  handler: async ({ query, principal }) => {
    if (query.lote === undefined) {
      throw new Invalid('missing parameters: lote', { code: FIELD_CODES.MISSING_PARAMETERS });
    }
    const field = await fields.deleteField(principal, query.lote);
    return { res: 'ok', code: 0, info: `field ${field.id} deleted`, id_lote: String(field.id) };
  },
});
