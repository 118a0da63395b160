// How queryItems (lib/db/table.ts) pages a query: the page size it is given for every page, or,
// `growing`, twice the page before for each next one (at most 1,000 items), so that a source of a
// merged list reads its share first and the rest in few calls. The calls are taken at the client.
import { afterEach, describe, expect, it } from 'vitest';
import { queryItems } from '../../lib/db/table';
import { captureDynamoDbCalls } from './helpers/dynamodb-calls';

let capture: ReturnType<typeof captureDynamoDbCalls> | undefined;
afterEach(() => capture?.stop());

/** The Limit of each call of a query of `pages` pages (each answers one item and, but the last, a next key). */
async function limits(options: { pageSize: number; growing?: boolean }, pages: number): Promise<unknown[]> {
  let calls = 0;
  capture = captureDynamoDbCalls(() => {
    calls += 1;
    return {
      Items: [{ pk: 'P', sk: `S${calls}` }],
      ...(calls < pages ? { LastEvaluatedKey: { pk: 'P', sk: `S${calls}` } } : {}),
    };
  });
  const read: unknown[] = [];
  for await (const item of queryItems({ pk: 'P', ...options })) read.push(item);
  expect(read).toHaveLength(pages);
  return capture.calls.map((call) => call.input.Limit);
}

describe('queryItems pages', () => {
  it('reads every page at the size it is given', async () => {
    expect(await limits({ pageSize: 10 }, 4)).toEqual([10, 10, 10, 10]);
  });

  it('doubles each next page when growing, up to 1,000 items', async () => {
    expect(await limits({ pageSize: 10, growing: true }, 4)).toEqual([10, 20, 40, 80]);
    capture?.stop();
    expect(await limits({ pageSize: 400, growing: true }, 4)).toEqual([400, 800, 1000, 1000]);
  });
});
