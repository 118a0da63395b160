// /api/work_orders/<uuid>/download?type=pdf|excel (spec 3, Work orders).
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { documentOf, WORK_ORDER_FILES } from '../../lib/work-orders/document';
import { workOrders } from '../../lib/work-orders/repository';
import { downloadWorkOrderRoute } from '../../schemas/work-orders';

/** An ASCII text of a name, for a file name: letters without accents, digits, dashes. */
const ascii = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 60);

/** An ASCII file name (Content-Disposition): "work order" in the document's language, then its name. */
const fileName = (title: string, name: string | null, uuid: string) =>
  `${ascii(title)}-${ascii(name ?? '') || uuid.slice(0, 8)}`;

export const get = endpoint(downloadWorkOrderRoute, {
  handler: async ({ path, query, principal }) => {
    const view = await workOrders.get(principal, path.work_order_uuid);
    const doc = documentOf(view, principal.user.locale);
    const name = fileName(doc.texts.workOrder, view.order.name, view.order.uuid);
    const file = WORK_ORDER_FILES[query.type];
    return Reply.file(await file.write(doc), file.contentType, `${name}.${file.extension}`);
  },
});
