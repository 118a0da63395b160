// POST /api/fields/convert: the polygons of a KML, KMZ or zipped shapefile, as WKT (lib/fields/boundaries.ts).
import { config } from '../../lib/config';
import { Invalid } from '../../lib/errors';
import { readBoundaries } from '../../lib/fields/boundaries';
import { fileField } from '../../lib/http/body';
import { endpoint } from '../../lib/http/endpoint';
import { convertBoundaryRoute } from '../../schemas/fields';

export const post = endpoint(convertBoundaryRoute, {
  handler: async ({ query, body }) => {
    const file = fileField(body, 'file');
    if (!file) throw new Invalid('send the file as multipart/form-data under the field file');
    const data = await readBoundaries(file, { nameField: query.name_field, maxHectares: config().maxFieldHectares });
    return { res: 'ok' as const, code: 0 as const, info: `${data.polygons.length} polygon(s) found`, data };
  },
});
