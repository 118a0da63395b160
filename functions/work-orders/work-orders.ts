// /api/work_orders: list, create, replace, delete; recommendation types (spec 3, Work orders).

import { Invalid } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { workOrders } from '../../lib/work-orders/repository';
import {
  createWorkOrderRoute,
  deleteWorkOrderRoute,
  listWorkOrdersRoute,
  recommendationTypesRoute,
  replaceWorkOrderRoute,
  wireTypes,
  wireWorkOrder,
  workOrderInput,
} from '../../schemas/work-orders';

export const list = endpoint(listWorkOrdersRoute, {
  handler: async ({ query, principal }) => ({
    data: (await workOrders.list(principal, query.yeargroup)).map(wireWorkOrder),
  }),
});

export const types = endpoint(recommendationTypesRoute, { handler: async () => wireTypes() });

export const post = endpoint(createWorkOrderRoute, {
  handler: async ({ body, principal }) => ({
    data: { uuid: (await workOrders.create(principal, body.uuid, workOrderInput(body))).uuid },
  }),
});

export const put = endpoint(replaceWorkOrderRoute, {
  handler: async ({ path, body, principal }) => {
    if (body.uuid && body.uuid.toLowerCase() !== path.work_order_uuid.toLowerCase())
      throw new Invalid("the body's uuid is not the path's");
    return { data: { uuid: (await workOrders.replace(principal, path.work_order_uuid, workOrderInput(body))).uuid } };
  },
});

export const del = endpoint(deleteWorkOrderRoute, {
  handler: async ({ path, principal }) => {
    await workOrders.remove(principal, path.work_order_uuid);
    return { data: { uuid: path.work_order_uuid.toLowerCase() } };
  },
});
