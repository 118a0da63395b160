// Webhook subscriptions and their deliveries (docs/integrations.md).
import { endpoint } from '../../lib/http/endpoint';
import { webhooks } from '../../lib/webhooks/repository';
import {
  createSubscriptionRoute,
  deleteSubscriptionRoute,
  listDeliveriesRoute,
  listSubscriptionsRoute,
  webhookCatalogue,
  webhookEventsRoute,
} from '../../schemas/webhooks';

export const events = endpoint(webhookEventsRoute, {
  handler: async () => ({ code: 0 as const, data: webhookCatalogue() }),
});

export const post = endpoint(createSubscriptionRoute, {
  handler: async ({ body, principal }) => ({ code: 0 as const, data: await webhooks.subscribe(principal, body) }),
});

export const get = endpoint(listSubscriptionsRoute, {
  handler: async ({ principal }) => ({ code: 0 as const, data: await webhooks.list(principal) }),
});

export const del = endpoint(deleteSubscriptionRoute, {
  handler: async ({ query, principal }) => {
    await webhooks.remove(principal, query.subscription_uuid);
    return { code: 0 as const };
  },
});

export const deliveries = endpoint(listDeliveriesRoute, {
  handler: async ({ query, principal }) => ({
    code: 0 as const,
    data: await webhooks.deliveries(principal, query.subscription_uuid, query.limit),
  }),
});
