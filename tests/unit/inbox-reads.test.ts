// How the inbox reads DynamoDB (docs/data-model.md, "Consistency"): a page of the inbox is read
// eventually consistent (half the read units: a write shows in the list about a second later at
// most), what a change reads before it writes strongly consistent. The real repository's calls
// are taken at the client, nothing is sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inboxRules } from '../../lib/notifications/inbox';
import { dynamoInboxRepository } from '../../lib/notifications/repository';
import type { User } from '../../lib/platform/model';
import { captureDynamoDbCalls, consistencyOf } from './helpers/dynamodb-calls';

let capture: ReturnType<typeof captureDynamoDbCalls>;
beforeEach(() => {
  capture = captureDynamoDbCalls(() => ({ Items: [], Responses: {} }));
});
afterEach(() => capture.stop());

const reads = () => capture.calls.map((call) => ({ command: call.command, consistent: consistencyOf(call) }));
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
    expect(reads()).toEqual([
      { command: 'QueryCommand', consistent: false },
      { command: 'BatchGetItemCommand', consistent: false },
      { command: 'QueryCommand', consistent: false },
    ]);
  });

  it('reads strongly consistent what a change reads before it writes (dismissing every item)', async () => {
    expect(await inboxRules({ repository: dynamoInboxRepository } as never).dismissAll(user.id)).toBe(0);
    expect(reads()).toEqual([{ command: 'QueryCommand', consistent: true }]);
  });
});
