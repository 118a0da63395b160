// The events worker's jobs take their payloads parsed by their schemas (schemas/jobs.ts), as HTTP
// handlers take their bodies: what the publishers write passes; anything else is a poison message
// (retried into the dead-letter queue) and the job's work never starts.
import { describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../../lib/events/publish';
import { jobOf, PoisonMessage } from '../../lib/workers/process';
import {
  FieldDeletedJob,
  FieldShareEvent,
  ObjectReleasedJob,
  ShapeReprocessJob,
  SpotDeletedJob,
} from '../../schemas/jobs';

const envelope = (event_name: string, data: Record<string, unknown>): EventEnvelope =>
  ({ id: 'evt-1', event_name, data, created_at: '2026-11-27T12:00:00Z' }) as EventEnvelope;

describe('a job parses its payload', () => {
  const cases = [
    // [schema, what its publisher writes, what no publisher writes]
    [FieldDeletedJob, { field_id: 12, farm_id: 3 }, { field_id: '12; drop' }],
    [SpotDeletedJob, { spot_id: 7 }, { spot_id: -1 }],
    [ObjectReleasedJob, { object_keys: ['storage/a', 'storage/b'] }, { object_keys: 'storage/a' }],
    [ShapeReprocessJob, { field_id: 12, campaign: 2026, lock_id: 'lock-1' }, { field_id: 12, campaign: 2026 }],
    [FieldShareEvent, { user_ids: [4], payload: { fields: [] } }, { user_ids: 4 }],
  ] as const;

  for (const [schema, good, bad] of cases) {
    it(`hands ${JSON.stringify(good)} to the job, parsed, and refuses ${JSON.stringify(bad)} before it starts`, async () => {
      const work = vi.fn(async () => undefined);
      const handler = jobOf(schema as never, work);
      await handler(envelope('JOB.V1', good));
      expect(work).toHaveBeenCalledWith(good, expect.objectContaining({ id: 'evt-1' }));
      work.mockClear();
      await expect(handler(envelope('JOB.V1', bad))).rejects.toBeInstanceOf(PoisonMessage);
      await expect(handler(envelope('JOB.V1', bad))).rejects.toThrow(/malformed JOB\.V1 payload \(evt-1\)/);
      expect(work).not.toHaveBeenCalled();
    });
  }

  it('names what is wrong in a refused payload', async () => {
    const handler = jobOf(ShapeReprocessJob, async () => undefined);
    await expect(handler(envelope('SHAPE_REPROCESS.V1', { field_id: 'x', campaign: 2026 }))).rejects.toThrow(
      /field_id: .*lock_id: /,
    );
  });
});
