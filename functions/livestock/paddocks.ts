// /livestock/paddock (and /api/livestock/paddock): GET, POST, PATCH, DELETE (spec 1)
import { endpoint } from '../../lib/http/endpoint';
import { createPaddock, deletePaddock, listPaddocks, updatePaddock } from '../../lib/livestock/paddocks';
import {
  createPaddockRoute,
  deletePaddockRoute,
  getPaddockRoute,
  listPaddocksRoute,
  updatePaddockRoute,
  wirePaddock,
} from '../../schemas/livestock';
import { livestockModule } from './module';

export const list = endpoint(listPaddocksRoute, {
  ...livestockModule,
  handler: async ({ query, principal }) => ({ data: (await listPaddocks(principal, { fieldId: query.field_id })).map(wirePaddock) }),
});

export const get = endpoint(getPaddockRoute, {
  ...livestockModule,
  handler: async ({ path, query, principal }) => ({
    data: (await listPaddocks(principal, { uuid: path.paddock_uuid, fieldId: query.field_id })).map(wirePaddock),
  }),
});

export const post = endpoint(createPaddockRoute, {
  ...livestockModule,
  handler: async ({ body, principal }) => ({
    data: wirePaddock(await createPaddock(principal, { fieldId: body.field_id, shape: body.shape, date: body.date, name: body.name, uuid: body.paddock_uuid })),
  }),
});

export const patch = endpoint(updatePaddockRoute, {
  ...livestockModule,
  handler: async ({ path, body, principal }) => ({ data: wirePaddock(await updatePaddock(principal, path.paddock_uuid, body)) }),
});

export const del = endpoint(deletePaddockRoute, {
  ...livestockModule,
  handler: async ({ path, principal }) => {
    await deletePaddock(principal, path.paddock_uuid);
    return { data: { paddock_uuid: path.paddock_uuid.toLowerCase(), deleted: true } };
  },
});
