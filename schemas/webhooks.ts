// Webhooks (ours; issue 20, docs/webhooks.md): an extension, acting for a user, subscribes a URL to
// event names and receives each event signed; it reads its subscriptions and their deliveries.
import * as z from 'zod';
import { defineRoute } from '../lib/http/route';
import { webhooksDialect } from '../lib/http/dialects';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_NAMES, WEBHOOK_LIMITS, type WebhookEventName } from '../lib/webhooks/model';

const webhooksRoute = { tags: ['webhooks'], auth: 'bearer', dialect: webhooksDialect } as const;
const PATH = '/api/webhooks';
const uuid = z.string().uuid();

const SubscriptionWire = z.object({
  subscription_uuid: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_NAMES as [string, ...string[]])),
  description: z.string(),
  created_at: z.string(),
});
const AttemptWire = z.object({
  at: z.string(),
  status: z.number().int().nullable().describe("the receiver's HTTP status; null when it did not answer"),
  error: z.string().optional(),
  duration_ms: z.number(),
});

export const webhookEventsRoute = defineRoute({
  ...webhooksRoute,
  operationId: 'listWebhookEvents',
  handler: 'functions/webhooks/webhooks.events',
  method: 'get',
  paths: [`${PATH}/events`],
  summary: 'The events a subscription may take, with what each means',
  responses: {
    200: {
      description: 'the catalogue',
      schema: z.object({ code: z.literal(0), data: z.array(z.object({ event_name: z.string(), summary: z.string(), claim: z.string().nullable() })) }),
    },
  },
});

export const CreateSubscriptionBody = z.object({
  subscription_uuid: uuid.optional().describe('makes the call idempotent'),
  url: z.string().max(WEBHOOK_LIMITS.URL_CHARS).describe('https, a public address (private, loopback and link-local addresses are refused)'),
  events: z.array(z.string().max(100)).min(1).max(WEBHOOK_EVENT_NAMES.length),
  description: z.string().max(200).optional(),
});

export const createSubscriptionRoute = defineRoute({
  ...webhooksRoute,
  operationId: 'createWebhookSubscription',
  handler: 'functions/webhooks/webhooks.post',
  touches: { table: 'write' },
  method: 'post',
  paths: [PATH],
  summary: `Subscribe a URL to events of the user, for the calling extension (at most ${WEBHOOK_LIMITS.SUBSCRIPTIONS}); the signing secret is answered only now`,
  request: { body: CreateSubscriptionBody },
  responses: { 200: { description: 'the subscription and its secret', schema: z.object({ code: z.literal(0), data: SubscriptionWire.extend({ secret: z.string() }) }) } },
});

export const listSubscriptionsRoute = defineRoute({
  ...webhooksRoute,
  operationId: 'listWebhookSubscriptions',
  handler: 'functions/webhooks/webhooks.get',
  method: 'get',
  paths: [PATH],
  summary: "The calling extension's subscriptions for the user (without their secrets)",
  responses: { 200: { description: 'subscriptions', schema: z.object({ code: z.literal(0), data: z.array(SubscriptionWire) }) } },
});

export const deleteSubscriptionRoute = defineRoute({
  ...webhooksRoute,
  operationId: 'deleteWebhookSubscription',
  handler: 'functions/webhooks/webhooks.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: [PATH],
  summary: 'Delete a subscription of the calling extension',
  request: { query: z.object({ subscription_uuid: uuid }) },
  responses: { 200: { description: 'deleted', schema: z.object({ code: z.literal(0) }) } },
});

export const listDeliveriesRoute = defineRoute({
  ...webhooksRoute,
  operationId: 'listWebhookDeliveries',
  handler: 'functions/webhooks/webhooks.deliveries',
  method: 'get',
  paths: [`${PATH}/deliveries`],
  summary: `A subscription's deliveries of the last ${WEBHOOK_LIMITS.DELIVERY_DAYS} days, newest first, each attempt with its outcome`,
  request: {
    query: z.object({ subscription_uuid: uuid, limit: z.coerce.number().int().min(1).max(100).default(50) }),
  },
  responses: {
    200: {
      description: 'deliveries',
      schema: z.object({
        code: z.literal(0),
        data: z.array(z.object({ delivery_id: z.string(), event_name: z.string(), created_at: z.string(), state: z.enum(['pending', 'delivered', 'failed', 'dropped']), attempts: z.array(AttemptWire) })),
      }),
    },
  },
});

// --- what a receiver gets (OpenAPI `webhooks`, one per event) -------------------------------------

const int = () => z.number().int();
const change = z.enum(['created', 'changed', 'deleted']);
const spot = z.object({ spot_uuid: z.string(), field_id: int(), farm_id: int() });
const herd = z.object({ herd_uuid: z.string(), field_id: int(), paddock_uuid: z.string(), transaction: z.record(z.string(), z.unknown()).describe('the transaction as GET /livestock/herd/{uuid}/transactions lists it') });
export const WEBHOOK_DATA: Record<WebhookEventName, z.ZodType> = {
  'FIELD_CREATED.V1': z.object({ field_id: int(), field_uuid: z.string(), farm_id: int(), name: z.string() }),
  'FIELD_DELETED.V1': z.object({ field_id: int(), field_uuid: z.string(), farm_id: int() }),
  'FIELD_RESHAPED.V1': z.object({ field_id: int(), campaign: int(), images_reprocessing: z.boolean() }),
  'IMAGERY_DATES.V1': z.object({
    field_id: int(),
    layer: z.string().describe('sentinel2, or the layer made from a file or a sampling'),
    date: z.string().describe('YYYY-MM-DDTHH:mm:ssZ, as dates v3 lists it'),
    cloudy: z.boolean().optional(),
    source: z.enum(['file', 'sampling']).optional(),
  }),
  'SPOT_CREATED.V1': spot,
  'SPOT_CHANGED.V1': spot,
  'SPOT_DELETED.V1': spot,
  'HERD_MOVED.V1': herd,
  'HERD_EXITED.V1': herd,
  'LABOUR_CHANGED.V1': z.object({ labour_uuid: z.string(), field_id: int(), yeargroup: int(), change }),
  'WORK_ORDER_CHANGED.V1': z.object({ work_order_uuid: z.string(), yeargroup: int(), change }),
  'SHARE_RECEIVED.V1': z.record(z.string(), z.unknown()).describe('the share notice: the fields (or farm) shared, as the FIELD_SHARE.V1 inbox item'),
};

/** The OpenAPI `webhooks` of the document: each event's body. */
export const webhookDocs = () =>
  Object.fromEntries(
    WEBHOOK_EVENT_NAMES.map((name) => [
      name,
      {
        summary: WEBHOOK_EVENTS[name].summary,
        body: z.object({
          delivery_id: z.string().describe('the same on every attempt: deduplicate by it'),
          event_id: z.string(),
          event_name: z.literal(name),
          occurred_at: z.string(),
          user_id: int().describe('the user the subscription belongs to'),
          field_id: int().optional(),
          data: WEBHOOK_DATA[name].or(z.object({ truncated: z.literal(true) })).describe('over 64 KB: {truncated: true}'),
        }),
      },
    ]),
  );

/** An event as the queues carry it (the events worker's fan-out, the delivery jobs). */
export const QueuedWebhookEvent = z.object({
  id: z.string().min(1),
  name: z.enum(WEBHOOK_EVENT_NAMES as [string, ...string[]]),
  user_ids: z.array(z.number().int()),
  field_id: z.number().int().optional(),
  occurred_at: z.string(),
  data: z.record(z.string(), z.unknown()),
});

export const webhookRoutes = [webhookEventsRoute, createSubscriptionRoute, listSubscriptionsRoute, deleteSubscriptionRoute, listDeliveriesRoute];
export const webhookCatalogue = () => WEBHOOK_EVENT_NAMES.map((name) => ({ event_name: name, summary: WEBHOOK_EVENTS[name].summary, claim: WEBHOOK_EVENTS[name].claim ?? null }));
