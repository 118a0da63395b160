// The queue workers' processed markers (lib/workers/process.ts): an event whose marker exists is
// not handled again, an event handled leaves its marker, an id twice in one batch is handled once,
// and a batch's markers are read in one call before its first record. The real table calls are
// taken at the client, nothing is sent.
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { envelopeOf } from '../../lib/events/publish';
import { processBatch } from '../../lib/workers/process';
import { captureDynamoDbCalls } from './helpers/dynamodb-calls';

let capture: ReturnType<typeof captureDynamoDbCalls> | undefined;
afterEach(() => capture?.stop());

/** Answers the marker of `done` as present, every other marker as absent (`batchFails`: a batch read fails). */
const markersOf = (done: string[], { batchFails = false } = {}) =>
  captureDynamoDbCalls((call) => {
    if (call.command === 'BatchGetItemCommand') {
      if (batchFails) throw new Error('throttled');
      const [table, request] = Object.entries(call.input.RequestItems)[0] as [string, { Keys: Array<{ pk: string }> }];
      return { Responses: { [table]: request.Keys.filter((key) => done.some((id) => key.pk === `PROCESSED#${id}`)) } };
    }
    if (call.command === 'GetItemCommand' && done.some((id) => call.input.Key.pk === `PROCESSED#${id}`))
      return { Item: { ...call.input.Key } };
    return {};
  });

const batch = (...bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, i) => ({ messageId: `m${i}`, body }) as SQSEvent['Records'][number]),
});
const event = (id: string) => JSON.stringify(envelopeOf('TEST.V1', { n: 1 }, id));

describe('processed markers of the queue workers', () => {
  it('reads a batch’s markers in one call, skips the events processed before and handles an id seen twice once', async () => {
    capture = markersOf(['done']);
    const handled: string[] = [];
    const result = await processBatch(batch(event('new'), event('done'), event('new'), 'not json', event('other')), {
      'TEST.V1': async (envelope) => void handled.push(envelope.id),
    });
    expect(handled).toEqual(['new', 'other']);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm3' }]);
    const commands = capture.calls.map((call) => call.command);
    expect(commands).toEqual(['BatchGetItemCommand', 'PutItemCommand', 'PutItemCommand']);
    const [read] = capture.calls;
    const keys = (Object.values(read!.input.RequestItems)[0] as { Keys: unknown[]; ConsistentRead: boolean }).Keys;
    expect(keys).toEqual(['new', 'done', 'other'].map((id) => ({ pk: `PROCESSED#${id}`, sk: 'MESSAGE' })));
    expect((Object.values(read!.input.RequestItems)[0] as { ConsistentRead: boolean }).ConsistentRead).toBe(true);
    expect(capture.calls.slice(1).map((call) => call.input.Item.pk)).toEqual(['PROCESSED#new', 'PROCESSED#other']);
  });

  it('reads the marker of a batch of one on its own, and handles nothing when it exists', async () => {
    capture = markersOf(['done']);
    const handled: string[] = [];
    const handlers = { 'TEST.V1': async (envelope: { id: string }) => void handled.push(envelope.id) };
    expect((await processBatch(batch(event('done')), handlers)).batchItemFailures).toEqual([]);
    expect(handled).toEqual([]);
    expect(capture.calls.map((call) => call.command)).toEqual(['GetItemCommand']);
  });

  it('reads each record’s marker on its own when the batch’s could not be read', async () => {
    capture = markersOf(['done'], { batchFails: true });
    const handled: string[] = [];
    const result = await processBatch(batch(event('done'), event('new')), {
      'TEST.V1': async (envelope) => void handled.push(envelope.id),
    });
    expect([result.batchItemFailures, handled]).toEqual([[], ['new']]);
    expect(capture.calls.map((call) => call.command)).toEqual([
      'BatchGetItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'PutItemCommand',
    ]);
  });

  it('leaves no marker for an event whose handler failed, which is reported alone', async () => {
    capture = markersOf([]);
    const result = await processBatch(batch(event('fails'), event('works')), {
      'TEST.V1': async (envelope) => {
        if (envelope.id === 'fails') throw new Error('the handler failed');
      },
    });
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    expect(capture.calls.filter((call) => call.command === 'PutItemCommand').map((call) => call.input.Item.pk)).toEqual(
      ['PROCESSED#works'],
    );
  });
});
