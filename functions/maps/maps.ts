// /api/users/me/maps: list or read, create, overwrite, change, delete (spec 2, Maps).

import type * as z from 'zod/mini';
import { Invalid } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { MAP_INFOS } from '../../lib/maps/codes';
import { maps } from '../../lib/maps/repository';
import type { MapInput } from '../../lib/maps/service';
import {
  createMapRoute,
  deleteMapRoute,
  listMapsRoute,
  type MapBody,
  patchMapRoute,
  replaceMapRoute,
  wireMap,
} from '../../schemas/maps';

type Body = z.output<typeof MapBody>;

const input = (body: Body): MapInput => ({
  name: body.nombre,
  fieldId: body.id_lote,
  typeId: body.id_tipo,
  geojson: body.geojson,
  metadata: body.metadata,
  createApplication: body.create_application,
});

const VALID = { info: 'Valid data', res: 'OK', code: 0 } as const;

const requireId = (body: Body): number => {
  if (body.id === undefined) throw new Invalid(MAP_INFOS.INVALID_PARAMETERS, { extra: { detail: 'id is required' } });
  return body.id;
};

export const get = endpoint(listMapsRoute, {
  handler: async ({ query, principal }) =>
    query.id !== undefined
      ? { data: wireMap(await maps.getMap(principal, query.id), true) }
      : { data: (await maps.listMaps(principal, { fieldId: query.id_lote })).map((map) => wireMap(map, false)) },
});

export const post = endpoint(createMapRoute, {
  handler: async ({ body, principal }) => ({ ...VALID, id: (await maps.createMap(principal, input(body))).id }),
});

export const put = endpoint(replaceMapRoute, {
  handler: async ({ body, principal }) => ({
    ...VALID,
    id: (await maps.changeMap(principal, requireId(body), input(body), 'replace')).id,
  }),
});

export const patch = endpoint(patchMapRoute, {
  handler: async ({ body, principal }) => ({
    ...VALID,
    id: (await maps.changeMap(principal, requireId(body), input(body), 'patch')).id,
  }),
});

export const del = endpoint(deleteMapRoute, {
  handler: async ({ query, principal }) => {
    await maps.deleteMap(principal, query.id);
    return { info: 'Map deleted', res: 'OK', code: 0 } as const;
  },
});
