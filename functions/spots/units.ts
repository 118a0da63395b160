// GET /api/utils/units: the valid unit_id values (spec 1, Spots: spot variables)
import { endpoint } from '../../lib/http/endpoint';
import { UNITS } from '../../lib/spots/catalogue';
import { unitsRoute } from '../../schemas/spots';

export const get = endpoint(unitsRoute, {
  handler: async () => ({ code: 0, data: UNITS.map((u) => ({ unit_id: u.id, name: u.name, symbol: u.symbol })) }),
});
