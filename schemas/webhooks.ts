// Webhooks (ours, docs/integrations.md): an extension, acting for a user, subscribes a URL to
// event names and receives each event signed; it reads its subscriptions and their deliveries.
import * as z from 'zod/mini';
import { webhooksDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';
import { WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookEventName } from '../lib/webhooks/model';

const webhooksRoute = { tags: ['webhooks'], auth: 'bearer', dialect: webhooksDialect } as const;
const PATH = '/api/webhooks';
const uuid = z.string().check(z.uuid());

const SubscriptionWire = z.object({
  subscription_uuid: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_NAMES as [string, ...string[]])),
  description: z.string(),
  created_at: z.string(),
});
const AttemptWire = z.object({
  at: z.string(),
  status: z
    .nullable(z.number().check(z.int()))
    .check(z.describe("the receiver's HTTP status; null when it did not answer")),
  error: z.optional(z.string()),
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
      schema: z.object({
        code: z.literal(0),
        data: z.array(z.object({ event_name: z.string(), summary: z.string(), claim: z.nullable(z.string()) })),
      }),
    },
  },
});

export const CreateSubscriptionBody = z.object({
  subscription_uuid: z.optional(uuid).check(z.describe('makes the call idempotent')),
  url: z
    .string()
    .check(
      z.maxLength(WEBHOOK_LIMITS.URL_CHARS),
      z.describe('https, a public address (private, loopback and link-local addresses are refused)'),
    ),
  events: z.array(z.string().check(z.maxLength(100))).check(z.minLength(1), z.maxLength(WEBHOOK_EVENT_NAMES.length)),
  description: z.optional(z.string().check(z.maxLength(200))),
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
  responses: {
    200: {
      description: 'the subscription and its secret',
      schema: z.object({ code: z.literal(0), data: z.extend(SubscriptionWire, { secret: z.string() }) }),
    },
  },
});

export const listSubscriptionsRoute = defineRoute({
  ...webhooksRoute,
  operationId: 'listWebhookSubscriptions',
  handler: 'functions/webhooks/webhooks.get',
  method: 'get',
  paths: [PATH],
  summary: "The calling extension's subscriptions for the user (without their secrets)",
  responses: {
    200: { description: 'subscriptions', schema: z.object({ code: z.literal(0), data: z.array(SubscriptionWire) }) },
  },
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
    query: z.object({
      subscription_uuid: uuid,
      limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
    }),
  },
  responses: {
    200: {
      description: 'deliveries',
      schema: z.object({
        code: z.literal(0),
        data: z.array(
          z.object({
            delivery_id: z.string(),
            event_name: z.string(),
            created_at: z.string(),
            state: z.enum(['pending', 'delivered', 'failed', 'dropped']),
            attempts: z.array(AttemptWire),
          }),
        ),
      }),
    },
  },
});

// --- what a receiver gets (OpenAPI `webhooks`, one per event) -------------------------------------

const int = () => z.number().check(z.int());
const change = z.enum(['created', 'changed', 'deleted']);
const spot = z.object({ spot_uuid: z.string(), field_id: int(), farm_id: int() });
const herd = z.object({
  herd_uuid: z.string(),
  field_id: int(),
  paddock_uuid: z.string(),
  transaction: z
    .record(z.string(), z.unknown())
    .check(z.describe('the transaction as GET /livestock/herd/{uuid}/transactions lists it')),
});
export const WEBHOOK_DATA: Record<WebhookEventName, z.ZodMiniType> = {
  'FIELD_CREATED.V1': z.object({ field_id: int(), field_uuid: z.string(), farm_id: int(), name: z.string() }),
  'FIELD_DELETED.V1': z.object({ field_id: int(), field_uuid: z.string(), farm_id: int() }),
  'FIELD_RESHAPED.V1': z.object({ field_id: int(), campaign: int(), images_reprocessing: z.boolean() }),
  'IMAGERY_DATES.V1': z.object({
    field_id: int(),
    layer: z.string().check(z.describe('sentinel2, or the layer made from a file or a sampling')),
    date: z.string().check(z.describe('YYYY-MM-DDTHH:mm:ssZ, as dates v3 lists it')),
    cloudy: z.optional(z.boolean()),
    source: z.optional(z.enum(['file', 'sampling'])),
  }),
  'SPOT_CREATED.V1': spot,
  'SPOT_CHANGED.V1': spot,
  'SPOT_DELETED.V1': spot,
  'HERD_MOVED.V1': herd,
  'HERD_EXITED.V1': herd,
  'LABOUR_CHANGED.V1': z.object({ labour_uuid: z.string(), field_id: int(), yeargroup: int(), change }),
  'WORK_ORDER_CHANGED.V1': z.object({ work_order_uuid: z.string(), yeargroup: int(), change }),
  'SHARE_RECEIVED.V1': z
    .record(z.string(), z.unknown())
    .check(z.describe('the share notice: the fields (or farm) shared, as the FIELD_SHARE.V1 inbox item')),
};

/** The OpenAPI `webhooks` of the document: each event's body. */
export const webhookDocs = () =>
  Object.fromEntries(
    WEBHOOK_EVENT_NAMES.map((name) => [
      name,
      {
        summary: WEBHOOK_EVENTS[name].summary,
        body: z.object({
          delivery_id: z.string().check(z.describe('the same on every attempt: deduplicate by it')),
          event_id: z.string(),
          event_name: z.literal(name),
          occurred_at: z.string(),
          user_id: int().check(z.describe('the user the subscription belongs to')),
          field_id: z.optional(int()),
          data: z
            .union([WEBHOOK_DATA[name], z.object({ truncated: z.literal(true) })])
            .check(z.describe('over 64 KB: {truncated: true}')),
        }),
      },
    ]),
  );

/** An event as the queues carry it (the events worker's fan-out, the delivery jobs). */
export const QueuedWebhookEvent = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.enum(WEBHOOK_EVENT_NAMES as [string, ...string[]]),
  user_ids: z.array(z.number().check(z.int())),
  field_id: z.optional(z.number().check(z.int())),
  occurred_at: z.string(),
  data: z.record(z.string(), z.unknown()),
});

export const webhookRoutes = [
  webhookEventsRoute,
  createSubscriptionRoute,
  listSubscriptionsRoute,
  deleteSubscriptionRoute,
  listDeliveriesRoute,
];
export const webhookCatalogue = () =>
  WEBHOOK_EVENT_NAMES.map((name) => ({
    event_name: name,
    summary: WEBHOOK_EVENTS[name].summary,
    claim: WEBHOOK_EVENTS[name].claim ?? null,
  }));
