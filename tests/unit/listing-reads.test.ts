// How listings read DynamoDB (docs/data-model.md, "Consistency"): a page of the inbox, and what a
// page of labours shows of its campaigns, rotations and inputs, are read eventually consistent
// (half the read units: a write shows in the list about a second later at most), what a change
// reads before it writes, or one labour read back, strongly consistent. The real repositories'
// calls are taken at the client, nothing is sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dynamoLabourRepository } from '../../lib/labours/repository';
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

describe('what a page of labours shows (lib/labours/repository.ts)', () => {
  const shown = (options?: { listing?: boolean }) =>
    Promise.all([
      dynamoLabourRepository.campaigns([{ fieldId: 1, yeargroup: 2026 }], options),
      dynamoLabourRepository.rotations([{ fieldId: 1, uuid: 'r' }], options),
      dynamoLabourRepository.personalInputs([{ ownerId: 1, uuid: 'i' }], options),
    ]);

  it('reads the campaigns, rotations and personal inputs of a listing eventually consistent', async () => {
    await shown({ listing: true });
    expect(reads()).toEqual(Array(3).fill({ command: 'BatchGetItemCommand', consistent: false }));
  });

  it('reads them strongly consistent for anything else (one labour, read back after its change)', async () => {
    await shown();
    expect(reads()).toEqual(Array(3).fill({ command: 'BatchGetItemCommand', consistent: true }));
  });
});
