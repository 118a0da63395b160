// Webhooks (docs/integrations.md): an extension, acting for a user, subscribes a URL to event names;
// each event of that user reaches the URL as a signed POST, retried with backoff, every attempt
// recorded. Subscriptions are owned by the (user, extension) pair, like sensors and storage.

import type { Claim } from '../auth/claims';
import { as, type EntityOf, entity, num, str } from '../db/entity';

/**
 * The events an extension may subscribe to, each with the claim the extension needs to receive it
 * (besides reading the field the event is about, checked at delivery). Versioned like the
 * notification catalogue.
 */
export const WEBHOOK_EVENTS = {
  'FIELD_CREATED.V1': { claim: undefined, summary: 'a field the user reads was created' },
  'FIELD_DELETED.V1': { claim: undefined, summary: 'a field the user read was deleted' },
  'FIELD_RESHAPED.V1': { claim: undefined, summary: 'a season shape was set for a field' },
  'IMAGERY_DATES.V1': { claim: undefined, summary: 'new imagery dates (satellite or layers) for a field' },
  'SPOT_CREATED.V1': { claim: 'MANAGEMENT_ZONES', summary: 'a spot was created' },
  'SPOT_CHANGED.V1': { claim: 'MANAGEMENT_ZONES', summary: 'a spot was changed' },
  'SPOT_DELETED.V1': { claim: 'MANAGEMENT_ZONES', summary: 'a spot was deleted' },
  'HERD_MOVED.V1': { claim: 'LIVESTOCK', summary: 'a herd moved to another paddock' },
  'HERD_EXITED.V1': { claim: 'LIVESTOCK', summary: 'animals left a herd' },
  'LABOUR_CHANGED.V1': { claim: 'SEASON_VIEW', summary: 'a labour was created, changed or deleted' },
  'WORK_ORDER_CHANGED.V1': { claim: 'SEASON_VIEW', summary: 'a work order was created, changed or deleted' },
  'SHARE_RECEIVED.V1': { claim: undefined, summary: 'a farm or field was shared with the user' },
} as const satisfies Record<string, { claim: Claim | undefined; summary: string }>;
export type WebhookEventName = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEventName[];
export const isWebhookEvent = (name: string): name is WebhookEventName => name in WEBHOOK_EVENTS;

export const WEBHOOK_LIMITS = {
  /** Subscriptions per user and extension. */
  SUBSCRIPTIONS: 20,
  URL_CHARS: 2000,
  /** Largest payload delivered (bytes of the JSON body); a larger event is cut to its ids. */
  PAYLOAD_BYTES: 64 * 1024,
  /** Attempts of one delivery (the queue's maxReceiveCount). */
  ATTEMPTS: 5,
  /** Deliveries kept readable, per subscription, and for how long. */
  DELIVERY_DAYS: 7,
} as const;

export const Subscription = entity('webhook_subscription', {
  uuid: str('subscription_uuid'),
  userId: num('user_id'),
  extensionId: str('extension_id'),
  url: str('url'),
  events: as<WebhookEventName[]>('events', []),
  description: as<string>('description', ''),
  /** The HMAC key (shown once, at creation). */
  secret: str('secret'),
  /** The claims of the token that subscribed: what the extension may read (checked at delivery too). */
  claims: as<Claim[]>('claims', []),
  createdAt: str('created_at'),
});
export type Subscription = EntityOf<typeof Subscription>;

export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status, or null when it did not answer (timeout, refused connection). */
  status: number | null;
  error?: string;
  duration_ms: number;
}

export const Delivery = entity('webhook_delivery', {
  deliveryId: str('delivery_id'),
  subscriptionUuid: str('subscription_uuid'),
  event: str('event_name'),
  createdAt: str('created_at'),
  state: as<'pending' | 'delivered' | 'failed' | 'dropped'>('state', 'pending'),
  attempts: as<DeliveryAttempt[]>('attempts', []),
  expiresAt: num('ttl'),
});
export type Delivery = EntityOf<typeof Delivery>;

/**
 * An event's id: its time, then 16 characters that make it unique. Ids sort by time (the
 * deliveries of a subscription are listed newest first by them).
 */
export const eventId = (at: number, unique: string): string => `${at.toString(36).padStart(9, '0')}${unique}`;

/** An event for webhooks: whose it is (the users it concerns), the field it is about, and its data. */
export interface WebhookEvent {
  id: string;
  name: WebhookEventName;
  user_ids: number[];
  field_id?: number;
  occurred_at: string;
  data: Record<string, unknown>;
}

/** A delivery job (webhooks queue): one event for one subscription. */
export interface DeliveryJob {
  delivery_id: string;
  subscription_uuid: string;
  user_id: number;
  extension_id: string;
  /** Which attempt this message is (1 first; a retry is a new message, delayed by its backoff). */
  attempt?: number;
  event: WebhookEvent;
}
