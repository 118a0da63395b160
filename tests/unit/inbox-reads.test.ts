// How the inbox reads DynamoDB (docs/data-model.md, "Consistency of reads"): a page of the inbox
// is read eventually consistent (half the read units: a write shows in the list about a second
// later at most), what a change reads before it writes strongly consistent. The real repository's
// calls are taken at the client (a middleware that answers them itself, nothing is sent).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ddb } from '../../lib/aws/dynamodb';
import { inboxRules } from '../../lib/notifications/inbox';
import { dynamoInboxRepository } from '../../lib/notifications/repository';
import type { User } from '../../lib/platform/model';

const CAPTURE = 'surcoTestInboxReads';
let calls: Array<{ command: string; consistent: unknown }> = [];

beforeEach(() => {
  // the configuration the client is made from, if no other test of this worker gave one
  for (const [name, value] of Object.entries({
    SURCO_TABLE: 'inbox-reads',
    SURCO_BUCKET: 'inbox-reads',
    SURCO_EVENTS_QUEUE_URL: 'http://127.0.0.1:1/000000000000/inbox-reads',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'x',
  }))
    process.env[name] ??= value;
  calls = [];
  ddb().middlewareStack.add(
    (_next, context) => async (args) => {
      const input = args.input as {
        ConsistentRead?: unknown;
        RequestItems?: Record<string, { ConsistentRead?: unknown }>;
      };
      const batch = input.RequestItems ? Object.values(input.RequestItems)[0] : undefined;
      calls.push({
        command: String(context.commandName),
        consistent: batch ? batch.ConsistentRead : input.ConsistentRead,
      });
      return { output: { Items: [], Responses: {}, $metadata: {} } } as never;
    },
    { step: 'initialize', name: CAPTURE, priority: 'high' },
  );
});

afterEach(() => {
  ddb().middlewareStack.remove(CAPTURE);
});

const user = { id: 41, locale: 'es' } as User;

describe('the inbox reads (lib/notifications/repository.ts)', () => {
  it('reads a page of the inbox eventually consistent: its pins, their items and the newest items', async () => {
    const repository = {
      ...dynamoInboxRepository,
      // one pin, so that its item is read too
      pins: async (userId: number) => {
        await dynamoInboxRepository.pins(userId);
        return [{ itemId: 'item-1', pinnedUntil: null }];
      },
    };
    const page = await inboxRules({ repository } as never).listInbox(user, 0, 20);
    expect(page.items).toEqual([]);
    expect(calls).toEqual([
      { command: 'QueryCommand', consistent: false },
      { command: 'BatchGetItemCommand', consistent: false },
      { command: 'QueryCommand', consistent: false },
    ]);
  });

  it('reads strongly consistent what a change reads before it writes (dismissing every item)', async () => {
    expect(await inboxRules({ repository: dynamoInboxRepository } as never).dismissAll(user.id)).toBe(0);
    expect(calls).toEqual([{ command: 'QueryCommand', consistent: true }]);
  });
});
