// record revisions (lib/db/revision.ts) and conditional request headers (lib/http/conditional.ts).
import { describe, expect, it } from 'vitest';
import { keys } from '../../lib/db/keys';
import {
  breaksPrecondition,
  newRev,
  newScope,
  preconditionOf,
  recordKindOf,
  runInScope,
  stampUpdate,
} from '../../lib/db/revision';
import { parseEntityTags, runConditional, scopeOf } from '../../lib/http/conditional';

describe('record kinds', () => {
  it('names the main item of each kind of record, and nothing else', () => {
    expect(recordKindOf(keys.labour(1, 2026, 'a'))).toBe('labour');
    expect(recordKindOf(keys.field(1))).toBe('field');
    expect(recordKindOf(keys.farm(1))).toBe('farm');
    expect(recordKindOf(keys.spot(1, 'a'))).toBe('spot');
    expect(recordKindOf(keys.herd(1, 'a'))).toBe('herd');
    expect(recordKindOf(keys.paddock(1, 'a'))).toBe('paddock');
    expect(recordKindOf(keys.workOrder(1, 'a'))).toBe('work_order');
    expect(recordKindOf(keys.userInput(1, 'a'))).toBe('input');
    expect(recordKindOf(keys.rotation(1, 'a'))).toBe('rotation');
    expect(recordKindOf(keys.sensorGroup(1, 'ext', 'a'))).toBe('sensor_group');
    expect(recordKindOf(keys.sensorVariable(1, 'a'))).toBe('sensor_variable');
    expect(recordKindOf(keys.storageValue('FIELD#3', 'ext', 'k'))).toBe('storage_value');
    expect(recordKindOf(keys.farmMetadata(1))).toBe('farm_metadata');
    for (const other of [
      keys.labourRef('a', 1),
      keys.user(1),
      keys.counter('field'),
      keys.paddockName(1, 'x'),
      keys.spotRef('a', 1),
      keys.userFieldAccess(1, 2),
      keys.inboxState(1),
    ])
      expect(recordKindOf(other)).toBeUndefined();
  });

  it('makes revisions that are unique and grow with time', () => {
    const a = newRev(1_000);
    const b = newRev(2_000);
    expect(a).not.toBe(newRev(1_000));
    expect(a < b).toBe(true);
    expect(a).toMatch(/^[0-9a-z_-]{16}$/i);
  });
});

describe('update expressions', () => {
  it('sets the revision inside an existing SET clause, or adds one', () => {
    expect(stampUpdate('SET a = :a ADD b :b')).toBe('SET #surco_rev_set = :surco_rev_set, a = :a ADD b :b');
    expect(stampUpdate('ADD pending :d')).toBe('SET #surco_rev_set = :surco_rev_set ADD pending :d');
    expect(stampUpdate('DELETE pending :day')).toBe('SET #surco_rev_set = :surco_rev_set DELETE pending :day');
  });
});

describe('If-Match and If-None-Match', () => {
  it('parses entity tags: *, lists, weak tags that never match; refuses malformed ones', () => {
    expect(parseEntityTags(undefined)).toBeUndefined();
    expect(parseEntityTags(' ')).toBeUndefined();
    expect(parseEntityTags('*')).toBe('*');
    expect(parseEntityTags('"a", "b"')).toEqual(['a', 'b']);
    const weak = parseEntityTags('W/"a"') as string[];
    expect(weak).toHaveLength(1);
    expect(weak).not.toContain('a');
    expect(() => parseEntityTags('a')).toThrow(/malformed/);
    expect(() => parseEntityTags(',')).toThrow();
    expect(() => scopeOf('labour', 'PATCH', { 'if-none-match': '"a"' })).toThrow();
    expect(() => scopeOf('labour', 'PATCH', { 'if-match': '"a"', 'if-none-match': '*' })).toThrow();
    expect(scopeOf('labour', 'GET', { 'if-none-match': '"a"' }).ifNoneMatch).toBe(false);
  });

  it('conditions writes of the scope kind only', async () => {
    const scope = newScope('labour', { ifMatch: ['r1', '0'] });
    await runInScope(scope, async () => {
      const pre = preconditionOf(keys.labour(1, 2026, 'a'))!;
      expect(pre.expression).toBe('(#surco_rev = :surco_rev0 OR attribute_not_exists(#surco_rev))');
      expect(pre.values).toEqual({ ':surco_rev0': 'r1' });
      expect(preconditionOf(keys.labourRef('a', 1))).toBeUndefined();
      expect(preconditionOf(keys.spot(1, 'a'))).toBeUndefined();
      expect(breaksPrecondition(keys.labour(1, 2026, 'a'), { rev: 'r2' })).toBe(true);
      expect(breaksPrecondition(keys.labour(1, 2026, 'a'), { rev: 'r1' })).toBe(false);
      expect(breaksPrecondition(keys.labour(1, 2026, 'a'), undefined)).toBe(true);
    });
    // outside a scope, nothing is conditioned
    expect(preconditionOf(keys.labour(1, 2026, 'a'))).toBeUndefined();
  });

  it('answers 412 for a conditional request that wrote nothing and read a record that changed', async () => {
    const scope = newScope('labour', { ifMatch: ['r1'] });
    const run = runConditional(scope, async () => {
      scope.read.set('FIELD#1|LABOUR#2026#a', 'r2');
      return 'ok';
    });
    await expect(run).rejects.toMatchObject({ kind: 'precondition_failed' });
    const created = newScope('labour', { ifNoneMatch: true });
    await expect(
      runConditional(created, async () => {
        created.read.set('FIELD#1|LABOUR#2026#a', 'r2');
        return 'the existing record';
      }),
    ).rejects.toMatchObject({ kind: 'precondition_failed' });
    const plain = newScope('labour');
    expect(
      await runConditional(plain, async () => {
        plain.read.set('FIELD#1|LABOUR#2026#a', 'r2');
        return 'ok';
      }),
    ).toEqual({ out: 'ok', etag: '"r2"' });
  });
});
