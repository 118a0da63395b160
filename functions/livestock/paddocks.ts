// /livestock/paddock (and /api/livestock/paddock): GET, POST, PATCH, DELETE (spec 1)
import { endpoint } from '../../lib/http/endpoint';
import { livestock } from '../../lib/livestock/repository';
import {
  createPaddockRoute,
  deletePaddockRoute,
  getPaddockRoute,
  listPaddocksRoute,
  updatePaddockRoute,
  wirePaddock,
} from '../../schemas/livestock';

export const list = endpoint(listPaddocksRoute, {
  handler: async ({ query, principal }) => ({
    data: (await livestock.listPaddocks(principal, { fieldId: query.field_id })).map(wirePaddock),
  }),
});

export const get = endpoint(getPaddockRoute, {
  handler: async ({ path, query, principal }) => ({
    data: (await livestock.listPaddocks(principal, { uuid: path.paddock_uuid, fieldId: query.field_id })).map(
      wirePaddock,
    ),
  }),
});

export const post = endpoint(createPaddockRoute, {
  handler: async ({ body, principal }) => ({
    data: wirePaddock(
      await livestock.createPaddock(principal, {
        fieldId: body.field_id,
        shape: body.shape,
        date: body.date,
        name: body.name,
        uuid: body.paddock_uuid,
      }),
    ),
  }),
});

export const patch = endpoint(updatePaddockRoute, {
  handler: async ({ path, body, principal }) => ({
    data: wirePaddock(await livestock.updatePaddock(principal, path.paddock_uuid, body)),
  }),
});

export const del = endpoint(deletePaddockRoute, {
  handler: async ({ path, principal }) => {
    await livestock.deletePaddock(principal, path.paddock_uuid);
    return { data: { paddock_uuid: path.paddock_uuid.toLowerCase(), deleted: true } };
  },
});
