// The change feed (ours, docs/integrations.md "Change feed"): every change to a record the caller
// can read, oldest first, from an opaque cursor; the same changes webhooks announce, kept for the
// feed's retention.
import * as z from 'zod/mini';
import { CHANGE_LIMITS, CHANGE_TYPES, FEED_KINDS } from '../lib/changes/model';
import { webhooksDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';

const int = () => z.number().check(z.int());

export const ChangeWire = z.object({
  kind: z.enum(FEED_KINDS),
  change: z
    .enum(CHANGE_TYPES)
    .check(
      z.describe(
        'created, changed, deleted (the entry is a tombstone), or access_gained / access_lost through a share (a field or a farm: its fields and everything under them come or go with it)',
      ),
    ),
  id: z
    .nullable(int())
    .check(z.describe("the record's integer id; a season shape's campaign; storage: the resource's id")),
  uuid: z.nullable(z.string()),
  rev: z.nullable(z.string()).check(z.describe("the record's revision after the change (its ETag)")),
  field_id: z.optional(int()),
  farm_id: z.optional(int()),
  key: z.optional(z.string().check(z.describe('storage: the key'))),
  at: z.string().check(z.describe('when the change was made (ISO 8601)')),
  record: z
    .nullable(z.record(z.string(), z.unknown()))
    .check(
      z.describe(
        'the record after the change, its attributes as stored (docs/data-model.md); null for a tombstone (deleted, access_lost) and for a record too large for the feed (record_omitted: GET it)',
      ),
    ),
  record_omitted: z.optional(z.literal(true)),
});

export const listChangesRoute = defineRoute({
  operationId: 'listChanges',
  tags: ['changes'],
  auth: 'bearer',
  dialect: webhooksDialect,
  handler: 'functions/changes/changes.list',
  method: 'get',
  paths: ['/api/changes'],
  summary: 'The changes to records the caller can read since a cursor, oldest first (incremental sync)',
  description:
    `Start a sync with \`since=now\` (an empty page and the cursor of now), read the records from their lists, ` +
    `then ask with the cursor each answer gives until has_more is false. Without since: every change kept. ` +
    `Changes are kept ${CHANGE_LIMITS.RETENTION_DAYS} days: an older cursor answers 410 CURSOR_EXPIRED and the client resyncs from the lists. ` +
    'A change appears within a couple of seconds of its write; an entry may come twice (apply an entry whose rev the client has as nothing).',
  request: {
    query: z.object({
      since: z.optional(
        z
          .string()
          .check(
            z.maxLength(200),
            z.describe('the cursor of the previous answer, or "now"; absent: every change kept'),
          ),
      ),
      limit: z._default(
        z.coerce.number().check(z.int(), z.gte(1), z.lte(CHANGE_LIMITS.PAGE_MAX)),
        CHANGE_LIMITS.PAGE_DEFAULT,
      ),
    }),
  },
  responses: {
    200: {
      description: 'a page of changes',
      schema: z.object({
        code: z.literal(0),
        data: z.object({
          changes: z.array(ChangeWire),
          cursor: z.string().check(z.describe('opaque: send it as since')),
          has_more: z.boolean().check(z.describe('more changes wait: ask again at once')),
        }),
      }),
    },
    410: {
      description: `the cursor is older than the retention (${CHANGE_LIMITS.RETENTION_DAYS} days): resync from the lists`,
      schema: webhooksDialect.errorSchema(),
    },
  },
});

export const changeRoutes = [listChangesRoute];
