// POST /api/users/me/maps/download: a map as a zipped shapefile (spec 2, Maps).
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { maps } from '../../lib/maps/repository';
import { mapShapefile, shapefileBaseName } from '../../lib/maps/shapefile';
import { downloadMapRoute } from '../../schemas/maps';

export const post = endpoint(downloadMapRoute, {
  handler: async ({ body, principal }) => {
    const map = await maps.getMap(principal, body.id_mapa);
    return Reply.file(await mapShapefile(map, body.nombre), 'application/zip', `${shapefileBaseName(body.nombre)}.zip`);
  },
});
