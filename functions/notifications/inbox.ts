// /nc/inbox GET and DELETE, /nc/inbox/count (spec 3, Notifications); also under /api/nc
import { endpoint } from '../../lib/http/endpoint';
import { dismissAll, dismissItem, listInbox, pendingCount } from '../../lib/notifications/inbox';
import { countRoute, dismissRoute, listInboxRoute } from '../../schemas/notifications';

export const list = endpoint(listInboxRoute, {
  handler: async ({ query, principal }) => ({ res: 'ok', data: await listInbox(principal.user, query.page, query.page_size) }),
});

export const dismiss = endpoint(dismissRoute, {
  handler: async ({ query, principal }) => {
    if (query.item_id) await dismissItem(principal.user.id, query.item_id);
    else await dismissAll(principal.user.id);
    return { res: 'ok', info: 'item dismissed' };
  },
});

export const count = endpoint(countRoute, {
  handler: async ({ principal }) => ({ res: 'ok', data: { count: await pendingCount(principal.user.id) } }),
});
