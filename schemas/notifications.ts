// Notifications (spec 3): the inbox, its count, dismissals, the live stream, test events and the
// internal event endpoint. Served under /nc and /api/nc (the spec leaves the prefix open).
// Bodies `{res:'ok', ...}`; errors `{res:'error', code, info}` (general dialect).
import * as z from 'zod/mini';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';
import { booleanLike, integer } from './common';

const ncRoute = { tags: ['notifications'], auth: 'bearer', dialect: generalDialect } as const;
const paths = (path: string) => [path, `/api${path}`];

export const WireInboxItem = z.object({
  item_id: z.string().check(z.describe('UUID')),
  event_name: z.string(),
  message: z.string().check(z.describe("translated to the user's locale")),
  payload: z.record(z.string(), z.unknown()),
  timestamp: z.string().check(z.describe('YYYY-MM-DDTHH:MM:SSZ')),
  dissmisible: z.boolean().check(z.describe('spelled as the spec spells it')),
  pinned: z.boolean(),
});

export const InboxQuery = z.object({
  page_size: z._default(z.pipe(integer(), z.number().check(z.int(), z.gte(1), z.lte(100))), 10),
  page: z._default(z.pipe(integer(), z.number().check(z.int(), z.gte(0), z.lte(10_000))), 0),
});

export const listInboxRoute = defineRoute({
  ...ncRoute,
  operationId: 'listInbox',
  handler: 'functions/notifications/inbox.list',
  method: 'get',
  paths: paths('/nc/inbox'),
  summary: 'The inbox: current pinned items first, then newest first, by pages',
  request: { query: InboxQuery },
  responses: {
    200: {
      description: 'a page of items',
      schema: z.object({
        res: z.literal('ok'),
        data: z.object({
          page_info: z.object({
            page: z.number().check(z.int()),
            page_size: z.number().check(z.int()),
            last_page: z.boolean(),
          }),
          items: z.array(WireInboxItem),
        }),
      }),
    },
  },
});

export const DismissQuery = z
  .object({
    item_id: z.optional(z.string().check(z.uuid())),
    all: z.optional(booleanLike()).check(z.describe('true dismisses every dismissible item')),
  })
  .check(z.refine((q) => (q.item_id !== undefined) !== (q.all === true), 'send item_id or all=true (one of them)'));

export const dismissRoute = defineRoute({
  ...ncRoute,
  operationId: 'dismissInbox',
  handler: 'functions/notifications/inbox.dismiss',
  touches: { table: 'write' },
  method: 'delete',
  paths: paths('/nc/inbox'),
  summary: 'Dismiss one item (item_id) or every dismissible item (all=true)',
  description: '404 when the item does not exist; 409 when it is not dismissible.',
  request: { query: DismissQuery },
  responses: {
    200: { description: 'dismissed', schema: z.object({ res: z.literal('ok'), info: z.literal('item dismissed') }) },
  },
});

export const countRoute = defineRoute({
  ...ncRoute,
  operationId: 'countInbox',
  handler: 'functions/notifications/inbox.count',
  method: 'get',
  paths: paths('/nc/inbox/count'),
  summary: 'Pending notifications (items in the inbox)',
  responses: {
    200: {
      description: 'the count',
      schema: z.object({ res: z.literal('ok'), data: z.object({ count: z.number().check(z.int()) }) }),
    },
  },
});

export const StreamQuery = z.object({
  last_event_id: z
    .optional(z.string().check(z.regex(/^\d{1,12}$/)))
    .check(z.describe('as the Last-Event-ID header, for clients that cannot send it')),
  access_token: z
    .optional(z.string())
    .check(z.describe('the token, for clients that cannot send the Authorization header (browsers)')),
});

export const streamRoute = defineRoute({
  ...ncRoute,
  operationId: 'notificationStream',
  handler: 'functions/notifications/stream.handler',
  lambda: { timeout: 900 },
  stream: true,
  tokenInQuery: true,
  method: 'get',
  paths: paths('/nc/stream'),
  summary: "Server-sent events of the user's notifications",
  description:
    'text/event-stream. Each event: `id: <n>`, `event: notifications` (the channel), `data: {event_name, event_payload, event_msg, item_id}`. ' +
    'PING.V1 keep-alives come on the `ping` channel without an id. Reconnecting with Last-Event-ID (header or last_event_id) delivers what was missed. ' +
    'A connection lasts up to SURCO_STREAM_MAX_S (840 s); clients reconnect (retry: 1000).',
  request: { query: StreamQuery },
  responses: { 200: { description: 'the event stream', contentType: 'text/event-stream' } },
});

export const TestEventBody = z.object({
  user_ids: z
    .array(z.number().check(z.int(), z.positive()))
    .check(
      z.minLength(1),
      z.maxLength(100),
      z.describe('users to notify: the caller, members of its workspace, users it supervises'),
    ),
  stackable: z.optional(booleanLike()).check(z.describe('true sends STACKABLE_TEST.V1 instead of TEST.V1')),
});

const accepted = z.object({
  res: z.literal('ok'),
  info: z.string(),
  data: z.object({ event_id: z.string(), event_name: z.string() }),
});

export const testEventRoute = defineRoute({
  ...ncRoute,
  operationId: 'sendTestEvent',
  handler: 'functions/notifications/events.test',
  touches: { sends: ['events'] },
  method: 'post',
  paths: paths('/nc/events/test'),
  summary: 'Send TEST.V1 (or STACKABLE_TEST.V1) to users',
  request: { body: TestEventBody },
  responses: { 200: { description: 'handed to the worker', schema: accepted } },
});

export const InternalEventBody = z.object({
  event_name: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(100),
      z.describe(
        'NAME.V<n>. Delivered: TEST.V1, STACKABLE_TEST.V1, FIELD_SHARE.V1; any other name is accepted and dropped by the worker (logged)',
      ),
    ),
  data: z
    .record(z.string(), z.unknown())
    .check(
      z.describe(
        "{user_ids: integer[], payload: object (the event's), pinned?: boolean, pinned_until?: date-time, dissmisible?: boolean}",
      ),
    ),
  event_id: z
    .optional(z.string().check(z.uuid()))
    .check(z.describe('makes the call idempotent: an event id is delivered once per user')),
});

export const internalEventRoute = defineRoute({
  tags: ['notifications'],
  auth: 'internal',
  dialect: generalDialect,
  operationId: 'postInternalEvent',
  handler: 'functions/notifications/events.internal',
  touches: { sends: ['events'] },
  method: 'post',
  paths: paths('/nc-internal/events'),
  summary: 'Hand an event to the worker (x-internal-key); HTTP 200 at once, the delivery is not awaited',
  description:
    'Always HTTP 200 once the internal key is right (spec 3): a body that is not an event (not JSON, no event_name, no data object, data over 200 KB) is dropped, logged, and answered `info: event dropped` with the reason in `detail` and a null event_id.',
  request: { body: InternalEventBody, validateBody: false, unreadableBody: 'handler' },
  responses: {
    200: {
      description: 'queued, or dropped',
      schema: z.object({
        res: z.literal('ok'),
        info: z.enum(['event queued', 'event dropped']),
        detail: z.optional(z.string()).check(z.describe('why the event was dropped')),
        data: z.object({ event_id: z.nullable(z.string()), event_name: z.nullable(z.string()) }),
      }),
    },
  },
});

export const notificationRoutes = [
  listInboxRoute,
  dismissRoute,
  countRoute,
  streamRoute,
  testEventRoute,
  internalEventRoute,
];
