// Webhooks (docs/integrations.md): subscriptions of a (user, extension) pair, the fan-out of an event
// to the subscriptions of its users, and the signed delivery of one event to one subscription with
// every attempt recorded. Rules only: the repository, the access check, the clock and fetch are
// parameters (tests/unit/webhooks.test.ts runs them against memory and a fake receiver).
import type { Principal } from '../auth/principal';
import { Conflict, Invalid, NotFound } from '../errors';
import { memo } from '../util/memo';
import { newUuid } from '../util/uuid';
import {
  type Delivery,
  type DeliveryJob,
  isWebhookEvent,
  type Subscription,
  WEBHOOK_LIMITS,
  type WebhookEvent,
  type WebhookEventName,
} from './model';
import { checkTarget, type Poster, postToTarget, type Resolver, urlProblem } from './safety';
import { DELIVERY_HEADER, EVENT_HEADER, newSecret, SIGNATURE_HEADER, signatureHeader } from './signature';

/** A subscription as its deliveries and slots are kept: its owner (user and extension) and uuid. */
export interface SubscriptionRef {
  userId: number;
  extensionId: string;
  uuid: string;
}

export interface WebhookRepository {
  subscriptions(userId: number, extensionId: string): Promise<Subscription[]>;
  /** Every subscription of a user, whatever the extension (the fan-out). */
  subscriptionsOfUser(userId: number): Promise<Subscription[]>;
  subscription(userId: number, extensionId: string, uuid: string): Promise<Subscription | undefined>;
  /** Stores a new subscription; false when its owner already holds its uuid. */
  create(subscription: Subscription): Promise<boolean>;
  remove(subscription: Subscription): Promise<boolean>;
  delivery(subscription: SubscriptionRef, deliveryId: string): Promise<Delivery | undefined>;
  saveDelivery(subscription: SubscriptionRef, delivery: Delivery): Promise<void>;
  /** A subscription's deliveries, newest first. */
  deliveries(subscription: SubscriptionRef, limit: number): Promise<Delivery[]>;
  queueDeliveries(jobs: DeliveryJob[]): Promise<void>;
  /**
   * Takes one of the subscription's `slots` delivery slots for `holder` until `leaseUntil` (epoch
   * ms): a free slot, or one whose lease ran out (its holder died). The slot's number, or
   * undefined when every slot is held.
   */
  acquireSlot(
    subscription: SubscriptionRef,
    holder: string,
    slots: number,
    leaseUntil: number,
    now: number,
  ): Promise<number | undefined>;
  /** Gives the slot back, if `holder` still holds it. */
  releaseSlot(subscription: SubscriptionRef, slot: number, holder: string): Promise<void>;
}

export interface WebhookSettings {
  allowPrivate: boolean;
  timeoutMs: number;
  backoffSeconds: number;
  /** Deliveries in flight at once to one subscription. */
  subscriptionConcurrency: number;
}

export interface WebhookDeps {
  repository: WebhookRepository;
  settings: () => WebhookSettings;
  /** Whether the subscription's extension may still read the event (the user reads its field; the claims cover it). */
  mayRead: (subscription: Subscription, event: WebhookEvent) => Promise<boolean>;
  /** The owner of a field: an event about a field concerns its owner too (imagery jobs know no other user). */
  fieldOwner?: (fieldId: number) => Promise<number | undefined>;
  resolve?: Resolver;
  /** Sends a delivery to the checked address (lib/webhooks/safety.ts; a fake receiver in tests). */
  post?: Poster;
  now?: () => Date;
}

/** A failed attempt: the message is retried after `retryInSeconds` (its visibility), or goes to the dead-letter queue after the last. */
export class DeliveryFailed extends Error {
  constructor(
    message: string,
    readonly retryInSeconds: number,
    /** The last attempt failed: the delivery is recorded failed and goes to the dead-letter queue. */
    readonly final: boolean,
  ) {
    super(message);
  }
}

/**
 * Every delivery slot of the subscription is held: nothing was sent or recorded, and the message is
 * queued again after `retryInSeconds` (not an attempt).
 */
export class SubscriptionBusy extends Error {
  constructor(
    message: string,
    readonly retryInSeconds: number,
  ) {
    super(message);
  }
}

/** A slot's lease outlives the delivery's timeout by this much (the attempt is recorded after the answer). */
const SLOT_LEASE_MARGIN_MS = 30_000;
/** A delivery that found every slot held waits 1 to 5 seconds before it tries again. */
const busyDelaySeconds = () => 1 + Math.floor(Math.random() * 5);

export interface SubscribeInput {
  subscription_uuid?: string;
  url: string;
  events: string[];
  description?: string;
}

const owner = (principal: Principal) => ({ userId: principal.user.id, extensionId: principal.extensionId ?? '' });

/** The wire form of a subscription. */
export const wireSubscription = (s: Subscription) => ({
  subscription_uuid: s.uuid,
  url: s.url,
  events: s.events,
  description: s.description,
  created_at: s.createdAt,
});

/** A subscription as its creation answers it: with its secret, answered this once. */
const wireNewSubscription = (s: Subscription) => ({ ...wireSubscription(s), secret: s.secret });

export const wireDelivery = (d: Delivery) => ({
  delivery_id: d.deliveryId,
  event_name: d.event,
  created_at: d.createdAt,
  state: d.state,
  attempts: d.attempts,
});

/** The body a receiver gets; an event larger than the bound is sent with its ids only. */
export function deliveryBody(job: DeliveryJob): string {
  const { event } = job;
  const body = {
    delivery_id: job.delivery_id,
    event_id: event.id,
    event_name: event.name,
    occurred_at: event.occurred_at,
    user_id: job.user_id,
    ...(event.field_id !== undefined ? { field_id: event.field_id } : {}),
    data: event.data,
  };
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text) <= WEBHOOK_LIMITS.PAYLOAD_BYTES) return text;
  return JSON.stringify({ ...body, data: { truncated: true } });
}

export function webhooksService({
  repository,
  settings,
  mayRead,
  fieldOwner,
  resolve,
  post = postToTarget,
  now = () => new Date(),
}: WebhookDeps) {
  async function owned(principal: Principal, uuid: string): Promise<Subscription> {
    const { userId, extensionId } = owner(principal);
    const found = await repository.subscription(userId, extensionId, uuid.toLowerCase());
    if (!found) throw new NotFound(`subscription ${uuid} not found`);
    return found;
  }

  async function checkUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, { allowPrivate: settings().allowPrivate, ...(resolve ? { resolve } : {}) });
    if (problem) throw new Invalid(`url refused: ${problem}`);
  }

  /** One delivery job per subscription of each event's users that takes its name. */
  async function fanOutAll(events: readonly WebhookEvent[]): Promise<number> {
    const subscriptionsOf = memo((userId: number) => repository.subscriptionsOfUser(userId));
    const jobs: DeliveryJob[] = [];
    for (const event of events) {
      for (const userId of new Set(event.user_ids)) {
        for (const subscription of await subscriptionsOf(userId)) {
          if (!subscription.events.includes(event.name)) continue;
          // one delivery id per event and subscription: a repeated fan-out makes the same deliveries
          jobs.push({
            delivery_id: `${event.id}:${subscription.uuid}`,
            subscription_uuid: subscription.uuid,
            user_id: userId,
            extension_id: subscription.extensionId,
            // the job names its one user: the event's readers may be many, a message is 256 KB
            event: { ...event, user_ids: [userId] },
          });
        }
      }
    }
    if (jobs.length) await repository.queueDeliveries(jobs);
    return jobs.length;
  }

  return {
    /** POST /api/webhooks: a subscription of the caller's (user, extension); the secret is answered this once. */
    async subscribe(principal: Principal, input: SubscribeInput) {
      const { userId, extensionId } = owner(principal);
      const unknown = input.events.filter((name) => !isWebhookEvent(name));
      if (unknown.length) throw new Invalid(`unknown events: ${unknown.join(', ')} (GET /api/webhooks/events)`);
      const events = [...new Set(input.events)] as WebhookEventName[];
      const uuid = (input.subscription_uuid ?? newUuid()).toLowerCase();
      const existing = await repository.subscription(userId, extensionId, uuid);
      if (existing) return wireNewSubscription(existing); // the same request again
      await checkUrl(input.url);
      if ((await repository.subscriptions(userId, extensionId)).length >= WEBHOOK_LIMITS.SUBSCRIPTIONS) {
        throw new Invalid(`at most ${WEBHOOK_LIMITS.SUBSCRIPTIONS} subscriptions per user and extension`);
      }
      const subscription: Subscription = {
        uuid,
        userId,
        extensionId,
        url: input.url,
        events,
        description: input.description ?? '',
        secret: newSecret(),
        claims: [...principal.claims],
        createdAt: now().toISOString(),
      };
      if (!(await repository.create(subscription))) {
        // the same request, racing: the subscription it made (a uuid is the caller's own, never another's)
        const made = await repository.subscription(userId, extensionId, uuid);
        if (!made) throw new Conflict(`subscription ${uuid} was created and removed meanwhile; send it again`);
        return wireNewSubscription(made);
      }
      return wireNewSubscription(subscription);
    },

    list: async (principal: Principal) => {
      const { userId, extensionId } = owner(principal);
      return (await repository.subscriptions(userId, extensionId)).map((s) => wireSubscription(s));
    },

    async remove(principal: Principal, uuid: string): Promise<void> {
      const subscription = await owned(principal, uuid);
      if (!(await repository.remove(subscription))) throw new NotFound(`subscription ${uuid} not found`);
    },

    /** GET /api/webhooks/deliveries: the subscription's recent deliveries, each attempt with its outcome. */
    async deliveries(principal: Principal, uuid: string, limit: number) {
      const subscription = await owned(principal, uuid);
      return (await repository.deliveries(subscription, limit)).map(wireDelivery);
    },

    /**
     * The events worker (an event of a process): one delivery job per subscription of the event's
     * users and of its field's owner (whoever acted, the owner hears of it) that takes its name.
     */
    async fanOut(event: WebhookEvent): Promise<number> {
      const owner = event.field_id !== undefined && fieldOwner ? await fieldOwner(event.field_id) : undefined;
      return fanOutAll([owner === undefined ? event : { ...event, user_ids: [...event.user_ids, owner] }]);
    },

    /**
     * The events of a batch (the changes worker's, one per record written, each naming every user
     * who reads the record, its field's owner among them): each user's subscriptions read once for
     * all of them, the delivery jobs queued together. Delivery ids are the event's id and the
     * subscription's, so a batch fanned out again (a retry) makes the same deliveries, and a
     * delivery already made is not sent again.
     */
    fanOutAll,
    /**
     * The delivery worker: POSTs the event, signed, and records the attempt. A 2xx answer delivers
     * it; anything else (or no answer within the timeout) throws DeliveryFailed with the backoff
     * before the next attempt. A subscription gone, or an event the extension may no longer read,
     * is dropped (recorded, not retried).
     */
    async deliver(job: DeliveryJob, attempt: number): Promise<Delivery> {
      const started = now();
      const ref: SubscriptionRef = { userId: job.user_id, extensionId: job.extension_id, uuid: job.subscription_uuid };
      const record: Delivery = (await repository.delivery(ref, job.delivery_id)) ?? {
        deliveryId: job.delivery_id,
        subscriptionUuid: job.subscription_uuid,
        event: job.event.name,
        createdAt: started.toISOString(),
        state: 'pending',
        attempts: [],
        expiresAt: Math.floor(started.getTime() / 1000) + WEBHOOK_LIMITS.DELIVERY_DAYS * 86_400,
      };
      if (record.state !== 'pending') return record; // delivered (or dropped) already: a redelivered message
      const subscription = await repository.subscription(job.user_id, job.extension_id, job.subscription_uuid);
      if (!subscription) return record; // unsubscribed meanwhile: nothing to record under it
      if (!(await mayRead(subscription, job.event))) {
        const dropped = { ...record, state: 'dropped' as const };
        await repository.saveDelivery(ref, dropped);
        return dropped;
      }
      const body = deliveryBody(job);
      const timestamp = Math.floor(started.getTime() / 1000);
      let status: number | null = null;
      let error: string | undefined;
      // the host resolved once and checked; the POST goes to that very address (no rebinding)
      const checked = await checkTarget(subscription.url, {
        allowPrivate: settings().allowPrivate,
        ...(resolve ? { resolve } : {}),
      });
      if ('problem' in checked) error = `url refused: ${checked.problem}`;
      else {
        // at most subscriptionConcurrency deliveries in flight to one subscription
        const { timeoutMs, subscriptionConcurrency } = settings();
        const slot = await repository.acquireSlot(
          ref,
          job.delivery_id,
          subscriptionConcurrency,
          started.getTime() + timeoutMs + SLOT_LEASE_MARGIN_MS,
          started.getTime(),
        );
        if (slot === undefined)
          throw new SubscriptionBusy(
            `subscription ${subscription.uuid} has ${subscriptionConcurrency} deliveries in flight`,
            busyDelaySeconds(),
          );
        try {
          const response = await post(checked.target, {
            headers: {
              'content-type': 'application/json',
              'user-agent': 'Surco-Webhooks/1',
              [SIGNATURE_HEADER]: signatureHeader(subscription.secret, timestamp, body),
              [DELIVERY_HEADER]: job.delivery_id,
              [EVENT_HEADER]: job.event.name,
            },
            body,
            timeoutMs,
          });
          status = response.status;
        } catch (failure) {
          error =
            (failure as Error).name === 'TimeoutError'
              ? `no answer within ${timeoutMs} ms`
              : (failure as Error).message;
        } finally {
          // a slot that cannot be given back now frees itself when its lease runs out
          await repository.releaseSlot(ref, slot, job.delivery_id).catch(() => undefined);
        }
      }
      const delivered = status !== null && status >= 200 && status < 300;
      const last = attempt >= WEBHOOK_LIMITS.ATTEMPTS;
      const next: Delivery = {
        ...record,
        state: delivered ? 'delivered' : last ? 'failed' : 'pending',
        attempts: [
          ...record.attempts,
          {
            at: started.toISOString(),
            status,
            ...(error ? { error } : {}),
            duration_ms: now().getTime() - started.getTime(),
          },
        ],
      };
      await repository.saveDelivery(ref, next);
      if (!delivered)
        throw new DeliveryFailed(
          `delivery ${job.delivery_id} attempt ${attempt}: ${error ?? `HTTP ${status}`}`,
          settings().backoffSeconds * 2 ** (attempt - 1),
          last,
        );
      return next;
    },
  };
}

export type WebhooksService = ReturnType<typeof webhooksService>;
