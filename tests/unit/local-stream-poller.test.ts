// The local stack's delivery of the table's stream to its worker (scripts/local/pollers.ts), held to
// what the deployed event source mapping does (deploy: ReportBatchItemFailures,
// BisectBatchOnFunctionError, MaximumRetryAttempts, an on-failure destination): a record that
// always fails is isolated and dead-lettered alone; every record around it is delivered, in order.
import { describe, expect, it } from 'vitest';
import { deliverStreamBatch } from '../../scripts/local/pollers';

type R = { dynamodb: { SequenceNumber: string } };
const records = (n: number): R[] =>
  Array.from({ length: n }, (_, i) => ({ dynamodb: { SequenceNumber: `s${i + 1}` } }));
const seq = (batch: R[]) => batch.map((r) => r.dynamodb.SequenceNumber);

function harness(fn: (batch: R[]) => { batchItemFailures?: Array<{ itemIdentifier: string }> } | null) {
  const delivered: string[][] = [];
  const deadLettered: string[][] = [];
  const run = (batch: R[], retries = 2) =>
    deliverStreamBatch(batch, {
      retries,
      invoke: async (b) => {
        delivered.push(seq(b));
        return fn(b);
      },
      deadLetter: async (b) => void deadLettered.push(seq(b)),
      pause: async () => undefined,
      say: () => undefined,
    });
  return { delivered, deadLettered, run };
}

describe('the local stream poller', () => {
  it('bisects a batch whose function throws: only the poison record is dead-lettered, the others succeed in order', async () => {
    const succeeded: string[] = [];
    const h = harness((batch) => {
      if (seq(batch).includes('s4')) throw new Error('poison');
      succeeded.push(...seq(batch));
      return null;
    });
    await h.run(records(6));
    expect(h.deadLettered).toEqual([['s4']]);
    expect(succeeded).toEqual(['s1', 's2', 's3', 's5', 's6']);
    // the poison record alone: delivered once, then retried twice
    expect(h.delivered.filter((b) => b.length === 1 && b[0] === 's4')).toHaveLength(3);
  });

  it('retries from the record the function reports, and dead-letters from there once retries run out', async () => {
    const h = harness((batch) =>
      seq(batch).includes('s3') ? { batchItemFailures: [{ itemIdentifier: 's3' }] } : null,
    );
    await h.run(records(5), 1);
    expect(h.delivered).toEqual([
      ['s1', 's2', 's3', 's4', 's5'],
      ['s3', 's4', 's5'],
    ]);
    expect(h.deadLettered).toEqual([['s3', 's4', 's5']]);
  });

  it('delivers a batch once when the function succeeds, and a transient failure is retried', async () => {
    let failures = 1;
    const h = harness(() => {
      if (failures-- > 0) throw new Error('table unreachable');
      return null;
    });
    await h.run(records(1));
    expect(h.delivered).toEqual([['s1'], ['s1']]);
    expect(h.deadLettered).toEqual([]);
  });
});
