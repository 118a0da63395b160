// lib/db/retry.ts: a lost optimistic write is redone at most RETRY_ATTEMPTS times and for at most
// the deadline, then answers the LostRace (409); other errors are not retried.
import { describe, expect, it } from 'vitest';
import { LostRace, RETRY_ATTEMPTS, retryLostRace } from '../../lib/db/retry';
import { Invalid } from '../../lib/errors';

describe('retryLostRace', () => {
  it('redoes the operation until it stops losing', async () => {
    let calls = 0;
    await expect(retryLostRace(async () => (++calls < 3 ? Promise.reject(new LostRace()) : 'done'))).resolves.toBe(
      'done',
    );
    expect(calls).toBe(3);
  });

  it('gives up after RETRY_ATTEMPTS attempts with the LostRace', async () => {
    let calls = 0;
    await expect(retryLostRace(async () => Promise.reject(new LostRace(`lost ${++calls}`)), 60_000)).rejects.toThrow(
      `lost ${RETRY_ATTEMPTS}`,
    );
    expect(calls).toBe(RETRY_ATTEMPTS);
  }, 20_000);

  it('gives up at the deadline, before the attempts run out', async () => {
    let calls = 0;
    const started = performance.now();
    await expect(
      retryLostRace(async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 40));
        throw new LostRace();
      }, 150),
    ).rejects.toBeInstanceOf(LostRace);
    expect(performance.now() - started).toBeLessThan(400);
    expect(calls).toBeLessThan(RETRY_ATTEMPTS);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    await expect(retryLostRace(async () => Promise.reject(new Invalid(`bad ${++calls}`)))).rejects.toThrow('bad 1');
    expect(calls).toBe(1);
  });
});
