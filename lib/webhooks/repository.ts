// Webhooks in DynamoDB and SQS (docs/integrations.md, docs/data-model.md): subscriptions in their
// user's partition, deliveries in their subscription's (kept a week, by TTL), delivery jobs on the
// webhooks queue; and the emission of events by the operations that cause them.
import { expandClaims } from '../auth/claims';
import { readableAmong } from '../authz/guard';
import { config } from '../config';
import { keys } from '../db/keys';
import { deleteItem, NOT_EXISTS, putItem, queryAll, readItem } from '../db/table';
import { Conflict } from '../errors';
import { publishEvents } from '../events/publish-batch';
import { getField } from '../platform/records';
import { getUser } from '../platform/users';
import { Delivery, Subscription, WEBHOOK_EVENTS, type WebhookEvent } from './model';
import { type WebhookRepository, webhooksService } from './service';

export { WEBHOOK_EVENT_JOB } from './emit';
export const WEBHOOK_DELIVERY_JOB = 'WEBHOOK_DELIVERY.V1';

export const dynamoWebhookRepository: WebhookRepository = {
  // the prefix of extension "a" also covers an extension "a#b": only the exact extension's are kept
  subscriptions: async (userId, extensionId) =>
    (await queryAll(keys.webhookSubscriptions(userId, extensionId)))
      .map(Subscription.fromItem)
      .filter((s) => s.extensionId === extensionId),
  subscriptionsOfUser: async (userId) => (await queryAll(keys.webhookSubscriptions(userId))).map(Subscription.fromItem),
  subscription: (userId, extensionId, uuid) =>
    readItem(keys.webhookSubscription(userId, extensionId, uuid), Subscription.fromItem),
  async create(subscription) {
    // a uuid names a subscription within its user and extension: nothing holds it platform-wide
    try {
      await putItem(
        {
          ...keys.webhookSubscription(subscription.userId, subscription.extensionId, subscription.uuid),
          ...Subscription.toItem(subscription),
        },
        { expression: NOT_EXISTS, failure: () => new Conflict('taken') },
      );
      return true;
    } catch (error) {
      if (error instanceof Conflict) return false;
      throw error;
    }
  },
  async remove(s) {
    return deleteItem(keys.webhookSubscription(s.userId, s.extensionId, s.uuid), {
      expression: 'kind = :kind',
      values: { ':kind': 'webhook_subscription' },
    });
  },
  delivery: (ref, deliveryId) => readItem(keys.webhookDelivery(ref, ref.uuid, deliveryId), Delivery.fromItem),
  saveDelivery: (ref, d) => putItem({ ...keys.webhookDelivery(ref, ref.uuid, d.deliveryId), ...Delivery.toItem(d) }),
  deliveries: async (ref, limit) =>
    (await queryAll({ ...keys.webhookDeliveries(ref, ref.uuid), descending: true, limit })).map(Delivery.fromItem),
  queueDeliveries: (jobs) => publishEvents(WEBHOOK_DELIVERY_JOB, jobs, { queue: 'webhooks' }),
  async acquireSlot(ref, holder, slots, leaseUntil, now) {
    // start at a slot of the holder's own, so concurrent deliveries rarely race for the same item
    const first = [...holder].reduce((sum, c) => sum + c.charCodeAt(0), 0) % slots;
    for (let i = 0; i < slots; i++) {
      const slot = (first + i) % slots;
      try {
        await putItem(
          {
            ...keys.webhookSlot(ref, ref.uuid, slot),
            kind: 'webhook_slot',
            holder,
            lease_until: leaseUntil,
            ttl: Math.ceil(leaseUntil / 1000) + 86_400,
          },
          {
            expression: `${NOT_EXISTS} OR lease_until < :now`,
            values: { ':now': now },
            failure: () => new Conflict('slot held'),
          },
        );
        return slot;
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
      }
    }
    return undefined;
  },
  async releaseSlot(ref, slot, holder) {
    await deleteItem(keys.webhookSlot(ref, ref.uuid, slot), {
      expression: 'holder = :holder',
      values: { ':holder': holder },
    });
  },
};

/**
 * Whether a subscription's extension may still read an event, at delivery: its user exists, the
 * claims it subscribed with (within the user's plan today) cover the event, and the user still
 * reads the event's field (shares are checked now, not at subscription).
 */
async function mayRead(subscription: Subscription, event: WebhookEvent): Promise<boolean> {
  const user = await getUser(subscription.userId);
  if (!user) return false;
  const claim = WEBHOOK_EVENTS[event.name].claim;
  if (claim && !(subscription.claims.includes(claim) && expandClaims(user.features).has(claim))) return false;
  if (event.field_id === undefined) return true;
  return readableAmong({ user, claims: new Set(), locale: user.locale } as never, [event.field_id]);
}

export const webhooks = /* @__PURE__ */ webhooksService({
  repository: dynamoWebhookRepository,
  settings: () => config().webhooks,
  mayRead,
  fieldOwner: async (fieldId) => (await getField(fieldId))?.ownerId,
});
