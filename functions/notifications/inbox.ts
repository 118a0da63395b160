// /nc/inbox GET and DELETE, /nc/inbox/count (spec 3, Notifications); also under /api/nc
import { endpoint } from '../../lib/http/endpoint';
import { notifications } from '../../lib/notifications/repository';
import { countRoute, dismissRoute, listInboxRoute } from '../../schemas/notifications';

export const list = endpoint(listInboxRoute, {
  handler: async ({ query, principal }) => ({
    res: 'ok',
    data: await notifications.listInbox(principal.user, query.page, query.page_size),
  }),
});

export const dismiss = endpoint(dismissRoute, {
  handler: async ({ query, principal }) => {
    if (query.item_id) await notifications.dismissItem(principal.user.id, query.item_id);
    else await notifications.dismissAll(principal.user.id);
    return { res: 'ok', info: 'item dismissed' };
  },
});

export const count = endpoint(countRoute, {
  handler: async ({ principal }) => ({
    res: 'ok',
    data: { count: await notifications.pendingCount(principal.user.id) },
  }),
});
