// Pure domain rules, without the stack: rotation order in a campaign, what storage actions need on
// a field or farm, how an event lands in an inbox and its message for a stack.
import { describe, expect, it } from 'vitest';
import { accessFrom, type Grant } from '../../lib/authz/access';
import { resolveEvent, STACKABLE_TEST_EVENT } from '../../lib/notifications/catalogue';
import { landing, pinnedAt } from '../../lib/notifications/rules';
import { cropOrders, type Rotation } from '../../lib/rotations/service';
import { mayOnResource } from '../../lib/storage/access';

const rotation = (uuid: string, yeargroup: number, startDate: string, createdAt = '2026-01-01T00:00:00.000Z') =>
  ({ uuid, yeargroup, startDate, createdAt }) as Rotation;

describe('rotation order (crop_order)', () => {
  it('numbers the rotations of each campaign from 1 by start date, then creation, then uuid', () => {
    const orders = cropOrders([
      rotation('c', 2026, '2026-10-01T00:00:00Z'),
      rotation('a', 2026, '2026-03-01T00:00:00Z'),
      rotation('b', 2026, '2026-03-01T00:00:00Z', '2025-12-31T00:00:00.000Z'),
      rotation('x', 2025, '2025-10-01T00:00:00Z'),
      rotation('e', 2026, '2026-10-01T00:00:00Z'),
    ]);
    expect(Object.fromEntries(orders)).toEqual({ b: 1, a: 2, c: 3, e: 4, x: 1 });
  });
});

describe('storage on fields and farms', () => {
  it('retrieving needs view, creating needs write data, deleting needs delete data', () => {
    const allowed = (grant: Grant) =>
      (['read', 'write', 'delete'] as const).filter((action) => mayOnResource(accessFrom([grant]), action));
    expect(allowed('owner')).toEqual(['read', 'write', 'delete']);
    expect(allowed('admin')).toEqual(['read', 'write', 'delete']);
    expect(allowed('edit')).toEqual(['read', 'write']);
    expect(allowed('add')).toEqual(['read', 'write']);
    expect(allowed('supervisor_edit')).toEqual(['read', 'write']);
    expect(allowed('read')).toEqual(['read']);
    expect(allowed('supervisor_read')).toEqual(['read']);
  });
});

describe('inbox', () => {
  it('puts a stackable event on top of its stack, counting both, without a new pending item', () => {
    expect(landing(undefined)).toEqual({ count: 1, pendingDelta: 1 });
    expect(landing({ count: 1 })).toEqual({ count: 2, pendingDelta: 0 });
    expect(landing({ count: 7 })).toEqual({ count: 8, pendingDelta: 0 });
    expect(landing({})).toEqual({ count: 2, pendingDelta: 0 });
  });

  it('pins while pinned_until is ahead (or absent)', () => {
    const now = new Date('2026-05-10T12:00:00Z');
    expect(pinnedAt({ pinned: true }, now)).toBe(true);
    expect(pinnedAt({ pinned: true, pinned_until: '2026-05-10T12:00:01Z' }, now)).toBe(true);
    expect(pinnedAt({ pinned: true, pinned_until: '2026-05-10T12:00:00Z' }, now)).toBe(false);
    expect(pinnedAt({ pinned: false, pinned_until: '2027-01-01T00:00:00Z' }, now)).toBe(false);
  });

  it('words a stack by its count in every locale', () => {
    const resolved = resolveEvent(STACKABLE_TEST_EVENT);
    if (!resolved.ok) throw new Error(resolved.reason);
    const { definition } = resolved;
    expect(definition.stackable).toBe(true);
    expect(definition.message('en', {}, 1)).toBe('You have 1 test notification');
    expect(definition.message('en', {}, 3)).toBe('You have 3 test notifications');
    expect(definition.message('es', {}, 2)).toBe('Tienes 2 notificaciones de prueba');
    expect(definition.message('pt', {}, 2)).toBe('Você tem 2 notificações de teste');
    expect(resolveEvent('STACKABLE_TEST.V9')).toEqual({
      ok: false,
      reason: 'unknown version V9 of STACKABLE_TEST (known: STACKABLE_TEST.V1)',
    });
  });
});
