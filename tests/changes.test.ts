// The change feed (docs/integrations.md "Change feed") against the local stack, whose table stream
// feeds the changes worker as in AWS: a client syncs; another client changes, deletes and shares
// records; the first client's next sync holds exactly those changes, nothing of records it cannot
// read, and a share withdrawn as access lost. Old cursors answer 410; a change is in the feed
// within 2 s.
import { v1 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createSurcoClient, syncChanges } from '../clients/typescript/index';
import { encodeCursor, positionAt } from '../lib/changes/cursor';
import { call, createField, internal, newUser, stack, type TestUser, tokenFor } from './helpers/api';

const labourPath = (uuid: string) => `/api/activities/labour/${uuid}`;

interface Entry {
  kind: string;
  change: string;
  id: number | null;
  uuid: string | null;
  rev: string | null;
  field_id?: number;
  farm_id?: number;
  key?: string;
  at: string;
  record: Record<string, any> | null;
  record_omitted?: true;
}

/** Every change after `since` (page after page), and the cursor to continue. */
async function sync(token: string, since: string, limit = 100): Promise<{ changes: Entry[]; cursor: string }> {
  const changes: Entry[] = [];
  let cursor = since;
  for (;;) {
    const page = await call('GET', '/api/changes', { token, query: { since: cursor, limit } });
    expect(page.status, page.text).toBe(200);
    changes.push(...page.body.data.changes);
    cursor = page.body.data.cursor;
    if (!page.body.data.has_more) return { changes, cursor };
  }
}

/**
 * The start of a sync once the feed is quiet: the cursor of now (`since=now`), moved past the
 * changes of the test's set-up that the worker writes after it (a client starting a sync reads
 * the lists after taking the cursor, so it sees those twice, harmlessly; a test wants none).
 */
async function start(token: string): Promise<string> {
  const page = await call('GET', '/api/changes', { token, query: { since: 'now' } });
  expect(page.status, page.text).toBe(200);
  expect(page.body.data.changes).toEqual([]);
  let cursor: string = page.body.data.cursor;
  let quietSince = performance.now();
  while (performance.now() - quietSince < 1500) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await sync(token, cursor);
    if (next.changes.length) quietSince = performance.now();
    cursor = next.cursor;
  }
  return cursor;
}

/**
 * Syncs from `since` until `done` holds for what came, then once more after a while: what a
 * client's next sync returns once the worker has caught up (and nothing more arrives later).
 */
async function settled(token: string, since: string, done: (changes: Entry[]) => boolean): Promise<Entry[]> {
  const deadline = performance.now() + 15_000;
  for (;;) {
    const { changes } = await sync(token, since, 3);
    if (done(changes)) break;
    if (performance.now() > deadline) throw new Error(`the feed did not catch up: ${JSON.stringify(changes)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1500));
  return (await sync(token, since)).changes;
}

const brief = (changes: Entry[]) => changes.map((c) => `${c.kind} ${c.change} ${c.uuid ?? c.id}`);

async function newLabour(user: TestUser, fieldId: number, surface = 10): Promise<string> {
  const response = await call('POST', '/api/activities/labour', {
    token: user.token,
    json: { labour_type_id: 1, yeargroup: 2026, date: '2026-11-20', field_id: fieldId, surface },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.data.uuid;
}

describe('the change feed', () => {
  it('a second client of the same user changes and deletes records; the first client’s next sync is exactly those changes', async () => {
    const owner = await newUser();
    const { fieldId, farmId } = await createField(owner);
    const other = { ...owner, token: await tokenFor(owner.id, { extension_id: 'second-client' }) };
    const cursor = await start(owner.token);

    const kept = await newLabour(other, fieldId, 10);
    const gone = await newLabour(other, fieldId, 12);
    const patched = await call('PATCH', labourPath(kept), { token: other.token, json: { surface: 20 } });
    expect(patched.status, patched.text).toBe(200);
    expect((await call('DELETE', labourPath(gone), { token: other.token })).status).toBe(200);

    const expected = [
      `labour created ${kept}`,
      `labour created ${gone}`,
      `labour changed ${kept}`,
      `labour deleted ${gone}`,
    ];
    const changes = await settled(owner.token, cursor, (c) => c.length >= expected.length);
    expect(brief(changes)).toEqual(expected);
    const [created, , changed, deleted] = changes as [Entry, Entry, Entry, Entry];
    expect(created).toMatchObject({ field_id: fieldId, farm_id: farmId, record: { surface: 10 } });
    expect(changed.record).toMatchObject({ surface: 20 });
    expect(changed.rev).not.toEqual(created.rev);
    // the changed record's rev is its ETag
    const read = await call('GET', labourPath(kept), { token: owner.token });
    expect(read.headers.get('etag')).toBe(`"${changed.rev}"`);
    expect(deleted.record).toBeNull();
    expect(new Date(created.at).getTime()).toBeLessThanOrEqual(new Date(deleted.at).getTime());

    // the next sync from the last cursor: nothing new
    const { cursor: next } = await sync(owner.token, cursor);
    expect((await sync(owner.token, next)).changes).toEqual([]);
  }, 60_000);

  it('another user shares, changes and withdraws: the sync holds the shared records only, and the loss of access', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const { fieldId: shared, farmId } = await createField(owner);
    const { fieldId: unshared } = await createField(owner, { farmId });
    const { fieldId: elsewhere } = await createField(owner);
    const cursor = await start(reader.token);

    const share = await internal('/internal/shares', { user_id: reader.id, field_id: shared, permission: 'read' });
    expect(share.status, share.text).toBe(200);
    const onShared = await newLabour(owner, shared);
    await newLabour(owner, unshared);
    await newLabour(owner, elsewhere);

    const expected = [`field access_gained ${shared}`, `labour created ${onShared}`];
    const changes = await settled(reader.token, cursor, (c) => c.length >= expected.length);
    expect(brief(changes)).toEqual(expected);
    expect(changes[0]).toMatchObject({ kind: 'field', id: shared, field_id: shared, record: { farm_id: farmId } });
    expect(JSON.stringify(changes)).not.toContain(`"field_id":${unshared}`);
    expect(JSON.stringify(changes)).not.toContain(`"field_id":${elsewhere}`);

    // withdrawn: the next sync says access_lost, and nothing of the field afterwards
    const { cursor: after } = await sync(reader.token, cursor);
    const withdrawn = await call('DELETE', '/internal/shares', {
      json: { user_id: reader.id, field_id: shared },
      headers: { 'x-internal-key': stack().internalKey },
    });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    await newLabour(owner, shared);
    const lost = await settled(reader.token, after, (c) => c.length >= 1);
    expect(brief(lost)).toEqual([`field access_lost ${shared}`]);
    expect(lost[0]!.record).toBeNull();
    // and a sync from the start no longer shows what the reader cannot read now
    const again = await settled(reader.token, cursor, (c) => c.some((e) => e.change === 'access_lost'));
    expect(brief(again)).toEqual([`field access_lost ${shared}`]);
    // withdrawing again: nothing to withdraw
    const twice = await call('DELETE', '/internal/shares', {
      json: { user_id: reader.id, field_id: shared },
      headers: { 'x-internal-key': stack().internalKey },
    });
    expect(twice.status).toBe(404);
  }, 60_000);

  it('an extension sees the kinds its claims read, and its own storage only', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const noSeason = await tokenFor(owner.id, { claims: ['STORAGE'], extension_id: 'no-season' });
    const cursor = await start(noSeason);
    await newLabour(owner, fieldId);
    for (const token of [owner.token, noSeason]) {
      const put = await call('POST', '/api/mktplace/storage/users', {
        token,
        query: { operation: 'PUT' },
        json: { id: owner.uid, key: 'k', data: { by: token === noSeason ? 'mine' : 'theirs' } },
      });
      expect(put.status, put.text).toBe(200);
    }
    const changes = await settled(noSeason, cursor, (c) => c.length >= 1);
    expect(changes.map((c) => [c.kind, c.change, c.key, c.record?.data])).toEqual([
      ['storage_value', 'created', 'k', { by: 'mine' }],
    ]);
    // the owner's first extension (every claim) sees the labour and its own key
    const own = await settled(owner.token, cursor, (c) => c.length >= 2);
    expect(own.map((c) => [c.kind, c.change])).toEqual([
      ['labour', 'created'],
      ['storage_value', 'created'],
    ]);
  }, 60_000);

  it('spots with their texts, and sensor groups with their variables', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const cursor = await start(owner.token);
    const spot = await call('POST', '/spots/spot', {
      token: owner.token,
      json: { field_id: fieldId, shape: 'POINT(-60.495 -33.895)', name: 'Mancha' },
    });
    expect(spot.status, spot.text).toBe(200);
    const spotUuid = spot.body.spot_uuid as string;
    const textUuid = v1();
    const texts = [{ uuid: textUuid, text: 'malezas', timestamp_usr: '2026-05-10T09:30:00Z', imgs: [] }];
    const added = await call('POST', '/api/spots/msgs', { token: owner.token, json: { uuid: spotUuid, texts } });
    expect(added.status, added.text).toBe(200);
    const group = await call('POST', '/sensors/v2/providers/variablegroups', {
      token: owner.token,
      json: { group_name: 'Estación', variables: [{ variable_name: 'Lluvia' }] },
    });
    expect(group.status, group.text).toBe(200);
    const groupUuid = group.body.data.group_uuid as string;
    const variableUuid = group.body.data.variables[0].variable_uuid as string;

    const changes = await settled(
      owner.token,
      cursor,
      (c) => c.some((e) => e.kind === 'sensor_variable') && c.some((e) => e.kind === 'spot_text'),
    );
    const seen = changes.map((c) => `${c.kind} ${c.change} ${c.uuid}`);
    expect(seen).toContain(`spot created ${spotUuid}`);
    expect(seen).toContain(`spot_text created ${textUuid}`);
    expect(seen).toContain(`sensor_group created ${groupUuid}`);
    expect(seen).toContain(`sensor_variable created ${variableUuid}`);
    const text = changes.find((c) => c.kind === 'spot_text')!;
    expect(text).toMatchObject({ field_id: fieldId, record: { text: 'malezas' } });
    // another extension of the user sees neither the group nor the variable
    const other = await tokenFor(owner.id, { extension_id: 'another' });
    const theirs = await sync(other, cursor);
    expect(theirs.changes.filter((c) => c.kind.startsWith('sensor'))).toEqual([]);
    expect(theirs.changes.some((c) => c.kind === 'spot_text')).toBe(true);
  }, 60_000);

  it('a work order reaches its creator and the owner of the fields its labours are on', async () => {
    const owner = await newUser();
    const colleague = await newUser();
    const { fieldId } = await createField(owner);
    const share = await internal('/internal/shares', { user_id: colleague.id, field_id: fieldId, permission: 'edit' });
    expect(share.status, share.text).toBe(200);
    const cursor = await start(owner.token);
    const labour = await newLabour(colleague, fieldId);
    const uuid = v1();
    const order = await call('POST', '/api/work_orders', {
      token: colleague.token,
      json: { uuid, labours: [labour], date: '2026-12-04', yeargroup: 2026, name: 'Barbecho', recomendations: [] },
    });
    expect(order.status, order.text).toBe(200);
    const changes = await settled(owner.token, cursor, (c) => c.some((e) => e.kind === 'work_order'));
    expect(brief(changes)).toEqual([`labour created ${labour}`, `work_order created ${uuid}`]);
  }, 60_000);

  it('a change is in the feed within 2 s', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const cursor = await start(owner.token);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = (await sync(owner.token, cursor)).changes.length;
      const written = performance.now();
      await newLabour(owner, fieldId, 10 + i);
      for (;;) {
        if ((await sync(owner.token, cursor)).changes.length > before) break;
        if (performance.now() - written > 10_000) throw new Error('not in the feed after 10 s');
        await new Promise((r) => setTimeout(r, 25));
      }
      times.push(performance.now() - written);
    }
    console.log(`change feed latency: ${times.join(', ')} ms`);
    expect(Math.min(...times)).toBeLessThan(2000);
    expect(times.filter((t) => t < 2000).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('the typed client syncs: changes in order and a cursor to continue; expired when too old', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const surco = createSurcoClient({ baseUrl: stack().baseUrl, token: owner.token });
    const cursor = await start(owner.token);
    const uuid = await newLabour(owner, fieldId);
    let result = await syncChanges(surco, cursor);
    const deadline = performance.now() + 10_000;
    while (!result.expired && result.changes.length === 0 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      result = await syncChanges(surco, cursor);
    }
    if (result.expired) throw new Error('expired');
    expect(result.changes.map((c) => [c.kind, c.change, c.uuid])).toEqual([['labour', 'created', uuid]]);
    expect((await syncChanges(surco, result.cursor)).expired).toBeFalsy();
    expect(await syncChanges(surco, encodeCursor(positionAt(Date.now() - 40 * 86_400_000)))).toEqual({ expired: true });
  }, 60_000);

  it('answers 410 to a cursor older than the retention, 400 to one that is not a cursor', async () => {
    const user = await newUser();
    const old = encodeCursor(positionAt(Date.now() - 31 * 86_400_000));
    const expired = await call('GET', '/api/changes', { token: user.token, query: { since: old } });
    expect(expired.status).toBe(410);
    expect(expired.body.error_code).toBe('CURSOR_EXPIRED');
    const recent = encodeCursor(positionAt(Date.now() - 29 * 86_400_000));
    expect((await call('GET', '/api/changes', { token: user.token, query: { since: recent } })).status).toBe(200);
    for (const since of ['garbage', encodeCursor('x'), 'YzEuMDAw']) {
      const bad = await call('GET', '/api/changes', { token: user.token, query: { since } });
      expect(bad.status, since).toBe(400);
      expect(bad.body.error_code).toBe('PARAMETER_ERROR');
    }
    expect((await call('GET', '/api/changes', {})).status).toBe(401);
  });
});
