// /api/work_orders/<uuid>/download?type=pdf|excel (spec 3, Work orders).
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { workOrders } from '../../lib/workorders/repository';
import { documentOf, workOrderFile } from '../../lib/workorders/document';
import { downloadWorkOrderRoute } from '../../schemas/work-orders';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An ASCII file name (Content-Disposition) from the work order's name. */
const fileName = (name: string | null, uuid: string) =>
  `orden-de-trabajo-${(name ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 60) || uuid.slice(0, 8)}`;

export const get = endpoint(downloadWorkOrderRoute, {
  handler: async ({ path, query, principal }) => {
    const view = await workOrders.get(principal, path.work_order_uuid);
    const doc = documentOf(view);
    const name = fileName(view.order.name, view.order.uuid);
    const content = await workOrderFile(doc, query.type);
    return query.type === 'pdf' ? Reply.file(content, 'application/pdf', `${name}.pdf`) : Reply.file(content, XLSX_TYPE, `${name}.xlsx`);
  },
});
