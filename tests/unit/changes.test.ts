// The change feed's rules without the stack (docs/integrations.md "Change feed"): what a stream
// record means (lib/changes/classify.ts), cursors (lib/changes/cursor.ts) and the page a caller
// gets (lib/changes/service.ts) over a feed in memory.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { classify, classifyBatch, presentRecord, type StreamChange } from '../../lib/changes/classify';
import { decodeCursor, encodeCursor, newSeq, positionAt, seqTime } from '../../lib/changes/cursor';
import { changeService, type FeedEntry } from '../../lib/changes/service';
import { packWkt } from '../../lib/geo/packed';
import type { WebhookEvent } from '../../lib/webhooks/model';
import { recordEvent } from '../../lib/webhooks/record-events';

const at = '2026-11-27T10:00:00.000Z';
const write = (
  eventName: StreamChange['eventName'],
  pk: string,
  sk: string,
  newImage?: Record<string, unknown>,
  oldImage?: Record<string, unknown>,
): StreamChange => ({ eventName, keys: { pk, sk }, newImage, oldImage, at });

describe('classify', () => {
  it('a record of a field: its kind, ids, field and the record without the table’s attributes', () => {
    const change = classify(
      write('INSERT', 'FIELD#7', 'LABOUR#2026#0b6c', {
        pk: 'FIELD#7',
        sk: 'LABOUR#2026#0b6c',
        gsi1pk: 'X',
        rev: 'r1',
        kind: 'labour',
        surface: 10,
        farm_id: 3,
      }),
    );
    expect(change).toMatchObject({
      kind: 'labour',
      change: 'created',
      uuid: '0b6c',
      rev: 'r1',
      scope: { field: 7 },
      fieldId: 7,
      farmId: 3,
      record: { surface: 10, farm_id: 3 },
    });
    expect(change?.record).not.toHaveProperty('pk');
    expect(change?.record).not.toHaveProperty('rev');
  });

  it('changed, deleted (a tombstone), and soft deletes', () => {
    expect(
      classify(write('MODIFY', 'FARM#3', 'PROFILE', { uuid: 'f', name: 'b' }, { uuid: 'f', name: 'a' })),
    ).toMatchObject({ kind: 'farm', change: 'changed', id: 3, uuid: 'f', scope: { farm: 3 }, record: { name: 'b' } });
    const deleted = classify(write('REMOVE', 'FIELD#7', 'PROFILE', undefined, { uuid: 'u', owner_id: 1 }));
    expect(deleted).toMatchObject({ kind: 'field', change: 'deleted', id: 7, uuid: 'u' });
    expect(deleted?.record).toBeUndefined();
    const group = { group_uuid: 'g', group_id: 4, extension_id: 'ext', deleted_at: null };
    expect(
      classify(write('MODIFY', 'SENSORUSER#1', 'GROUP#ext#g', { ...group, deleted_at: '2026-01-01T00:00:00Z' }, group)),
    ).toMatchObject({ kind: 'sensor_group', change: 'deleted', scope: { user: 1, extension: 'ext' } });
  });

  it('a farm whose fields being deleted change (bookkeeping of its item): no change, and never in a record', () => {
    const farm = { pk: 'FARM#3', sk: 'PROFILE', uuid: 'f', name: 'a', rev: 'r1', kind: 'farm' };
    const deleting = { ...farm, fields_deleting: new Set([8, 9]) };
    expect(classify(write('MODIFY', 'FARM#3', 'PROFILE', deleting, farm))).toBeUndefined();
    expect(
      classify(write('MODIFY', 'FARM#3', 'PROFILE', { ...farm, fields_deleting: new Set([9]) }, deleting)),
    ).toBeUndefined();
    expect(classify(write('MODIFY', 'FARM#3', 'PROFILE', farm, deleting))).toBeUndefined();
    // a change of the farm itself is one, without the set (even when the set changed in the same write)
    const renamed = classify(write('MODIFY', 'FARM#3', 'PROFILE', { ...farm, name: 'b', rev: 'r2' }, deleting));
    expect(renamed).toMatchObject({ kind: 'farm', change: 'changed', record: { name: 'b' } });
    expect(renamed?.record).not.toHaveProperty('fields_deleting');
    expect(presentRecord(deleting)).not.toHaveProperty('fields_deleting');
  });

  it('a backfill indexing a record (its index keys, its farm where it had none; the same revision): no change; a write of the record: one', () => {
    const rotation = { pk: 'FIELD#7', sk: 'ROTATION#2026#r', kind: 'rotation', rev: 'r1', crop_id: 3 };
    const indexed = { ...rotation, gsi1pk: 'FARMROTATIONS#3#2026', gsi1sk: 'x', farm_id: 3 };
    expect(classify(write('MODIFY', 'FIELD#7', 'ROTATION#2026#r', indexed, rotation))).toBeUndefined();
    const value = { pk: 'FIELD#7', sk: 'KV#ext#notes', kind: 'storage_value', rev: 'r1', data_json: '{}' };
    const valueIndexed = { ...value, gsi1pk: 'FARMSTORAGE#3#KV#ext', gsi1sk: 'notes#0000000007', farm_id: 3 };
    expect(classify(write('MODIFY', 'FIELD#7', 'KV#ext#notes', valueIndexed, value))).toBeUndefined();
    // a new revision is a write of the record, whatever else it changed
    expect(classify(write('MODIFY', 'FIELD#7', 'ROTATION#2026#r', { ...indexed, rev: 'r2' }, rotation))).toMatchObject({
      kind: 'rotation',
      change: 'changed',
      record: { farm_id: 3 },
    });
    // an attribute of the record changed under the same revision, or its farm changed: a change
    expect(classify(write('MODIFY', 'FIELD#7', 'ROTATION#2026#r', { ...indexed, crop_id: 4 }, rotation))).toMatchObject(
      { change: 'changed' },
    );
    expect(classify(write('MODIFY', 'FIELD#7', 'ROTATION#2026#r', { ...indexed, farm_id: 4 }, indexed))).toMatchObject({
      change: 'changed',
    });
  });

  it('a sensor variable: its group’s user and extension, copied onto it; an older item without them: nothing', () => {
    expect(
      classify(
        write('MODIFY', 'SENSORGROUPVARS#4', 'VAR#v1', {
          variable_uuid: 'v1',
          user_id: 1,
          extension_id: 'ext',
          last_value: 2,
        }),
      ),
    ).toMatchObject({ kind: 'sensor_variable', change: 'changed', uuid: 'v1', scope: { user: 1, extension: 'ext' } });
    expect(classify(write('MODIFY', 'SENSORGROUPVARS#4', 'VAR#v1', { variable_uuid: 'v1' }))).toBeUndefined();
  });

  it('shares: access gained and lost by the user they name; their level changing is nothing', () => {
    expect(classify(write('INSERT', 'FIELD#7', 'SHARE#0000000042', { level: 'read' }))).toMatchObject({
      kind: 'field',
      change: 'access_gained',
      id: 7,
      to: 42,
    });
    expect(classify(write('REMOVE', 'FARM#3', 'SHARE#0000000042', undefined, {}))).toMatchObject({
      kind: 'farm',
      change: 'access_lost',
      id: 3,
      to: 42,
    });
    expect(classify(write('MODIFY', 'FARM#3', 'SHARE#0000000042', {}, {}))).toBeUndefined();
  });

  it('storage: the extension and the key; items that are no record: nothing', () => {
    expect(
      classify(write('INSERT', 'USER#1', 'KV#my%20ext#color', { data_json: '{"a":1}', extension_id: 'my ext' })),
    ).toMatchObject({ kind: 'storage_value', extensionId: 'my ext', key: 'color', record: { data: { a: 1 } } });
    for (const [pk, sk] of [
      ['FIELD#7', 'CAMPAIGN#2026'],
      ['LABOURREF#x', 'FIELD#7'],
      ['COUNTER', 'field'],
      ['CHANGES#1', 'CHANGE#x'],
      ['USER#1', 'ACCESS#FARM#3'],
    ] as const) {
      expect(classify(write('INSERT', pk, sk, {})), `${pk} ${sk}`).toBeUndefined();
    }
  });

  it('a spot text moved to another time in one write is one change of it', () => {
    const changes = classifyBatch([
      write('REMOVE', 'SPOTMSGS#5', 'MSG#2026-01-01#t1', undefined, { uuid: 't1', spot_id: 5 }),
      write('INSERT', 'SPOTMSGS#5', 'MSG#2026-02-01#t1', { uuid: 't1', spot_id: 5, text: 'x' }),
    ]);
    expect(changes.map((c) => [c.kind, c.change, c.uuid, c.scope])).toEqual([
      ['spot_text', 'changed', 't1', { spot: 5 }],
    ]);
  });

  it('a record created and deleted under one key in the same batch stays two changes', () => {
    // two writes of a client that the stream happened to hand over together (CI saw the deletion
    // dropped and the creation answered as a change)
    const changes = classifyBatch([
      write('INSERT', 'SPOTMSGS#5', 'MSG#2026-01-01#t1', { uuid: 't1', spot_id: 5, text: 'x' }),
      write('INSERT', 'SPOTMSGS#5', 'MSG#2026-01-01#t2', { uuid: 't2', spot_id: 5, text: 'y' }),
      write('REMOVE', 'SPOTMSGS#5', 'MSG#2026-01-01#t2', undefined, { uuid: 't2', spot_id: 5, text: 'y' }),
    ]);
    expect(changes.map((c) => [c.change, c.uuid])).toEqual([
      ['created', 't1'],
      ['created', 't2'],
      ['deleted', 't2'],
    ]);
  });

  it('moved twice in one batch, then deleted: two changes and the deletion', () => {
    const changes = classifyBatch([
      write('REMOVE', 'SPOTMSGS#5', 'MSG#2026-01-01#t1', undefined, { uuid: 't1', spot_id: 5 }),
      write('INSERT', 'SPOTMSGS#5', 'MSG#2026-02-01#t1', { uuid: 't1', spot_id: 5, text: 'x' }),
      write('INSERT', 'SPOTMSGS#5', 'MSG#2026-03-01#t1', { uuid: 't1', spot_id: 5, text: 'x' }),
      write('REMOVE', 'SPOTMSGS#5', 'MSG#2026-02-01#t1', undefined, { uuid: 't1', spot_id: 5 }),
      write('REMOVE', 'SPOTMSGS#5', 'MSG#2026-03-01#t1', undefined, { uuid: 't1', spot_id: 5 }),
    ]);
    expect(changes.map((c) => [c.change, c.source])).toEqual([
      ['changed', 0],
      ['changed', 2],
      ['deleted', 4],
    ]);
  });

  it('a packed polygon is answered as its WKT; a record too large for the feed is left out', () => {
    const wkt = 'POLYGON((-60.5 -33.9,-60.4 -33.9,-60.4 -33.8,-60.5 -33.9))';
    expect(presentRecord({ polygon_packed: packWkt(wkt), name: 'a' })).toEqual({ polygon: wkt, name: 'a' });
    expect(presentRecord({ text: 'x'.repeat(200 * 1024) })).toBeUndefined();
  });
});

describe('webhook events of records (lib/webhooks/record-events.ts)', () => {
  const eventsOf = (records: StreamChange[], readers = [1, 2]) =>
    classifyBatch(records).map((change) => recordEvent(change, readers));

  it('fields created and deleted, spots, labours and work orders; to the readers of the change, once each', () => {
    const events = eventsOf([
      write('INSERT', 'FIELD#7', 'PROFILE', { uuid: 'fu', farm_id: 3, owner_id: 1, name: 'Lote', rev: 'r1' }),
      write('MODIFY', 'FIELD#7', 'PROFILE', { uuid: 'fu', farm_id: 3, name: 'Lote 2', rev: 'r2' }, { uuid: 'fu' }),
      write('INSERT', 'FIELD#7', 'SPOT#su', { farm_id: 3, rev: 'r3' }),
      write('MODIFY', 'FIELD#7', 'SPOT#su', { farm_id: 3, rev: 'r4' }, { farm_id: 3, rev: 'r3' }),
      write('REMOVE', 'FIELD#7', 'SPOT#su', undefined, { farm_id: 3, rev: 'r4' }),
      write('INSERT', 'FIELD#7', 'LABOUR#2026#lu', { yeargroup: 2026, farm_id: 3, rev: 'r5' }),
      write('REMOVE', 'FIELD#7', 'LABOUR#2026#lu', undefined, { yeargroup: 2026, farm_id: 3, rev: 'r5' }),
      write('MODIFY', 'USER#1', 'WORKORDER#wu', { yeargroup: 2026, rev: 'r6' }, { yeargroup: 2026, rev: 'r5' }),
      write('REMOVE', 'FIELD#7', 'PROFILE', undefined, { uuid: 'fu', farm_id: 3, owner_id: 1, rev: 'r2' }),
    ]);
    expect(events.map((e) => e && [e.name, e.field_id, e.data])).toEqual([
      ['FIELD_CREATED.V1', 7, { field_id: 7, field_uuid: 'fu', farm_id: 3, name: 'Lote' }],
      undefined, // a field changed: no event of its own
      ['SPOT_CREATED.V1', 7, { spot_uuid: 'su', field_id: 7, farm_id: 3 }],
      ['SPOT_CHANGED.V1', 7, { spot_uuid: 'su', field_id: 7, farm_id: 3 }],
      ['SPOT_DELETED.V1', 7, { spot_uuid: 'su', field_id: 7, farm_id: 3 }],
      ['LABOUR_CHANGED.V1', 7, { labour_uuid: 'lu', field_id: 7, yeargroup: 2026, change: 'created' }],
      ['LABOUR_CHANGED.V1', 7, { labour_uuid: 'lu', field_id: 7, yeargroup: 2026, change: 'deleted' }],
      ['WORK_ORDER_CHANGED.V1', undefined, { work_order_uuid: 'wu', yeargroup: 2026, change: 'changed' }],
      // a field deleted has no field to check at delivery
      ['FIELD_DELETED.V1', undefined, { field_id: 7, field_uuid: 'fu', farm_id: 3 }],
    ]);
    expect(events[0]).toMatchObject({ user_ids: [1, 2], occurred_at: at });
    // records of other kinds and access changes are the feed's only
    expect(
      eventsOf([
        write('INSERT', 'FIELD#7', 'MAP#4', { rev: 'r1' }),
        write('INSERT', 'FARM#3', 'SHARE#9', { level: 'read' }),
        write('INSERT', 'FIELD#7', 'HERD#hu', { rev: 'r1' }),
      ]),
    ).toEqual([undefined, undefined, undefined]);
  });

  it('one id per write, whoever handles it: the same change again is the same event, another write another; ids sort by time', () => {
    const created = write('INSERT', 'FIELD#7', 'LABOUR#2026#lu', { yeargroup: 2026, rev: 'r1' });
    const changed = {
      ...write('MODIFY', 'FIELD#7', 'LABOUR#2026#lu', { yeargroup: 2026, rev: 'r2' }),
      at: '2026-11-27T10:00:01.000Z',
    };
    const [first] = eventsOf([created]);
    const [again] = eventsOf([created], [1]);
    const [next] = eventsOf([changed]);
    expect(again!.id).toBe(first!.id);
    expect(next!.id).not.toBe(first!.id);
    expect(next!.id > first!.id).toBe(true);
    // two writes in the same second (the stream's time is coarse): told apart by their revisions
    const [sameSecond] = eventsOf([
      { ...write('MODIFY', 'FIELD#7', 'LABOUR#2026#lu', { yeargroup: 2026, rev: 'r3' }) },
    ]);
    const [sameSecondAgain] = eventsOf([
      { ...write('MODIFY', 'FIELD#7', 'LABOUR#2026#lu', { yeargroup: 2026, rev: 'r4' }) },
    ]);
    expect(sameSecond!.occurred_at).toBe(sameSecondAgain!.occurred_at);
    expect(sameSecond!.id).not.toBe(sameSecondAgain!.id);
  });
});

describe('cursors', () => {
  it('sort by time, then by place in the batch; positions after every change of their millisecond', () => {
    const a = newSeq(1000, 0);
    const b = newSeq(1000, 1);
    const c = newSeq(1001, 0);
    expect([c, b, a].sort()).toEqual([a, b, c]);
    expect(positionAt(1000) > b).toBe(true);
    expect(positionAt(1000) < c).toBe(true);
    expect(seqTime(a)).toBe(1000);
    expect(decodeCursor(encodeCursor(a))).toBe(a);
    for (const bad of ['', 'x', encodeCursor('short'), Buffer.from(`c2.${a}`).toString('base64url'), '!!!'])
      expect(decodeCursor(bad), bad).toBeUndefined();
  });
});

describe('a page of the feed', () => {
  const NOW = Date.parse('2026-11-27T12:00:00Z');
  const principal = (claims: string[], extensionId?: string) =>
    ({ user: { id: 1 }, claims: new Set(claims), ...(extensionId ? { extensionId } : {}) }) as unknown as Principal;
  const entry = (ms: number, rest: Partial<FeedEntry>): FeedEntry => ({
    seq: newSeq(ms, 0),
    kind: 'labour',
    change: 'created',
    id: null,
    uuid: 'u',
    rev: 'r',
    at,
    ...rest,
  });
  const feed: FeedEntry[] = [
    entry(NOW - 60_000, { fieldId: 7, uuid: 'readable' }),
    entry(NOW - 50_000, { fieldId: 8, uuid: 'no longer readable' }),
    entry(NOW - 40_000, { kind: 'field', change: 'access_lost', fieldId: 8, id: 8, uuid: null }),
    entry(NOW - 30_000, { kind: 'storage_value', extensionId: 'other', uuid: null }),
    entry(NOW - 20_000, { kind: 'storage_value', extensionId: 'mine', uuid: null }),
    entry(NOW - 10_000, { kind: 'spot', fieldId: 7, uuid: 'spot' }),
    entry(NOW - 100, { fieldId: 7, uuid: 'too recent' }),
  ];
  const service = changeService(
    {
      read: async (_user, after, until, limit) =>
        feed.filter((e) => e.seq > `${after}~` && e.seq <= until).slice(0, limit),
    },
    {
      readableFields: async (_p, ids) => new Set(ids.filter((id) => id === 7)),
      readableFarms: async () => new Set(),
    },
    () => ({ retentionDays: 30, settleMs: 500 }),
    () => NOW,
  );

  it('what the caller reads now, of the kinds its claims read and of its extension; the loss of access', async () => {
    const page = await service.page(principal(['SEASON_VIEW', 'STORAGE'], 'mine'), undefined, 100);
    expect(page.changes.map((c) => c.uuid ?? `${c.change} ${c.id}`)).toEqual([
      'readable',
      'access_lost 8',
      'created null',
    ]);
    expect(page.changes[2]).toMatchObject({ kind: 'storage_value', extensionId: 'mine' });
    expect(page.hasMore).toBe(false);
    // the change inside the settle window comes with the next page
    const next = await service.page(principal(['SEASON_VIEW']), page.cursor, 100);
    expect(next.changes).toEqual([]);
    const later = changeService(
      {
        read: async (_u, after, until, limit) =>
          feed.filter((e) => e.seq > `${after}~` && e.seq <= until).slice(0, limit),
      },
      { readableFields: async (_p, ids) => new Set(ids), readableFarms: async () => new Set() },
      () => ({ retentionDays: 30, settleMs: 500 }),
      () => NOW + 1000,
    );
    expect((await later.page(principal(['SEASON_VIEW']), page.cursor, 100)).changes.map((c) => c.uuid)).toEqual([
      'too recent',
    ]);
  });

  it('pages by limit; the cursor moves past what was left out', async () => {
    const first = await service.page(principal([], 'mine'), undefined, 2);
    expect(first.changes.map((c) => c.uuid)).toEqual([]);
    expect(first.hasMore).toBe(true);
    const second = await service.page(principal([], 'mine'), first.cursor, 2);
    expect(second.changes.map((c) => c.change)).toEqual(['access_lost']);
  });

  it('since=now: nothing and the cursor of now; an expired cursor: 410; not a cursor: 400', async () => {
    const now = await service.page(principal([]), 'now', 10);
    expect(now).toMatchObject({ changes: [], hasMore: false });
    expect(decodeCursor(now.cursor)).toBe(positionAt(NOW - 500));
    await expect(
      service.page(principal([]), encodeCursor(positionAt(NOW - 31 * 86_400_000)), 10),
    ).rejects.toMatchObject({ status: 410, code: 'CURSOR_EXPIRED' });
    await expect(service.page(principal([]), 'nonsense', 10)).rejects.toMatchObject({ kind: 'invalid' });
  });
});

describe('stream records as the worker reads them', () => {
  it('reads a number past 2^53 as a number, as the table does, so that no record stops the feed', async () => {
    const { streamChangeOf } = await import('../../lib/changes/repository');
    const change = streamChangeOf({
      eventName: 'MODIFY',
      dynamodb: {
        Keys: { pk: { S: 'STORAGE#x' }, sk: { S: 'KEY#y' } },
        NewImage: {
          pk: { S: 'STORAGE#x' },
          sk: { S: 'KEY#y' },
          value: { M: { big: { N: '123456789012345678901234' } } },
        },
        ApproximateCreationDateTime: 1_800_000_000,
        SequenceNumber: '1',
      },
    } as never);
    expect((change!.newImage!.value as { big: unknown }).big).toBe(Number('123456789012345678901234'));
    expect(() => JSON.stringify(change)).not.toThrow();
  });
});

describe('the changes worker: what it reports when a batch fails (functions/workers/changes.ts)', () => {
  const record = (sequence: string | undefined, sk: string) => ({
    eventName: 'INSERT',
    dynamodb: {
      Keys: { pk: { S: 'FIELD#7' }, sk: { S: sk } },
      NewImage: {
        pk: { S: 'FIELD#7' },
        sk: { S: sk },
        yeargroup: { N: '2026' },
        farm_id: { N: '3' },
        rev: { S: `r-${sk}` },
      },
      ApproximateCreationDateTime: 1_800_000_000,
      ...(sequence ? { SequenceNumber: sequence } : {}),
    },
  });
  // a map (a feed entry, no webhook event), then two labours (an event each)
  const batch = (withSequences = true) => ({
    Records: [
      record(withSequences ? '100' : undefined, 'MAP#4'),
      record(withSequences ? '200' : undefined, 'LABOUR#2026#la'),
      record(withSequences ? '300' : undefined, 'LABOUR#2026#lb'),
    ],
  });
  /** The worker over feeds in memory that take the records before `failAt`, and a fan-out that may fail. */
  const worker = async (options: { failAt?: number; fanOutFails?: boolean }) => {
    const { changesWorker } = await import('../../functions/workers/changes');
    const fannedOut: WebhookEvent[][] = [];
    const run = changesWorker({
      appendChanges: async (records) => {
        const written = classifyBatch(records)
          .filter((change) => options.failAt === undefined || (change.source ?? 0) < options.failAt)
          .map((change) => ({ change, readers: [1] }));
        return {
          entries: written.length,
          written,
          ...(options.failAt === undefined ? {} : { failedAt: options.failAt, error: new Error('throttled') }),
        };
      },
      fanOutAll: async (events) => {
        if (options.fanOutFails) throw new Error('queue unreachable');
        fannedOut.push(events);
        return events.length;
      },
    });
    return { run, fannedOut };
  };

  it('reports nothing when the feeds and the fan-out take the batch, and fans out each record event once', async () => {
    const { run, fannedOut } = await worker({});
    expect(await run(batch() as never)).toEqual({ batchItemFailures: [] });
    expect(fannedOut.flat().map((e) => [e.name, e.data.labour_uuid, e.user_ids])).toEqual([
      ['LABOUR_CHANGED.V1', 'la', [1]],
      ['LABOUR_CHANGED.V1', 'lb', [1]],
    ]);
  });

  it('a fan-out that fails: the batch again from the first record with an event, not from its start', async () => {
    const { run } = await worker({ fanOutFails: true });
    expect(await run(batch() as never)).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
  });

  it('feeds that stop at a record: the batch again from it, the events before it fanned out', async () => {
    const { run, fannedOut } = await worker({ failAt: 2 });
    expect(await run(batch() as never)).toEqual({ batchItemFailures: [{ itemIdentifier: '300' }] });
    expect(fannedOut.flat().map((e) => e.data.labour_uuid)).toEqual(['la']);
  });

  it('both: from the first record with an event, which is before the record the feeds stopped at', async () => {
    const { run } = await worker({ failAt: 2, fanOutFails: true });
    expect(await run(batch() as never)).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
  });

  it('feeds that stop before any record with an event: nothing is fanned out (no call), the batch again from there', async () => {
    // the fan-out fails if called: it must not be, with nothing to fan out
    const { run } = await worker({ failAt: 1, fanOutFails: true });
    expect(await run(batch() as never)).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
  });

  it('a record without a sequence number cannot be reported: the invocation fails, and the batch comes again whole', async () => {
    const { run } = await worker({ fanOutFails: true });
    await expect(run(batch(false) as never)).rejects.toThrow('queue unreachable');
  });
});
