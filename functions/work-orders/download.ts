// /api/work_orders/<uuid>/download?type=pdf|excel (spec 3, Work orders).
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { documentOf, WORK_ORDER_FILES } from '../../lib/work-orders/document';
import { workOrders } from '../../lib/work-orders/repository';
import { downloadWorkOrderRoute } from '../../schemas/work-orders';

/** An ASCII file name (Content-Disposition) from the work order's name. */
const fileName = (name: string | null, uuid: string) =>
  `orden-de-trabajo-${
    (name ?? '')
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase()
      .slice(0, 60) || uuid.slice(0, 8)
  }`;

export const get = endpoint(downloadWorkOrderRoute, {
  handler: async ({ path, query, principal }) => {
    const view = await workOrders.get(principal, path.work_order_uuid);
    const doc = documentOf(view);
    const name = fileName(view.order.name, view.order.uuid);
    const file = WORK_ORDER_FILES[query.type];
    return Reply.file(await file.write(doc), file.contentType, `${name}.${file.extension}`);
  },
});
