// lib/authz/access.ts: grants -> role and permission codes (docs/authorization.md).
import { describe, expect, it } from 'vitest';
import { accessFrom, can, canOnUser, PERMISSION, ROLE } from '../../lib/authz/access';

describe('access from grants', () => {
  it('gives owners every permission, 220 (modify field shape) included', () => {
    const access = accessFrom(['owner']);
    expect(access.role).toBe(ROLE.owner);
    expect(access.permissions).toContain(PERMISSION.MODIFY_SHAPE);
    for (const action of [
      'read',
      'write',
      'addField',
      'editField',
      'deleteField',
      'modifyShape',
      'manageShares',
      'deleteData',
    ] as const) {
      expect(can(access, action)).toBe(true);
    }
  });

  it('lets read shares only read', () => {
    const access = accessFrom(['read']);
    expect(access.permissions).toEqual([PERMISSION.VIEW]);
    expect(can(access, 'write')).toBe(false);
  });

  it('distinguishes edit (modify fields, shapes) from add (add fields)', () => {
    expect(can(accessFrom(['edit']), 'modifyShape')).toBe(true);
    expect(can(accessFrom(['edit']), 'addField')).toBe(false);
    expect(can(accessFrom(['add']), 'addField')).toBe(true);
    expect(can(accessFrom(['add']), 'modifyShape')).toBe(false);
    expect(can(accessFrom(['edit']), 'deleteField')).toBe(false);
  });

  it('lets an add share view and add fields, and write nothing else of the farm (docs/security.md)', () => {
    const access = accessFrom(['add']);
    expect(access.permissions).toEqual([PERMISSION.VIEW, PERMISSION.ADD_FIELDS]);
    expect(access.role).toBe(ROLE.add);
    const allowed = (
      ['read', 'write', 'addField', 'editField', 'deleteField', 'modifyShape', 'manageShares', 'deleteData'] as const
    ).filter((action) => can(access, action));
    expect(allowed).toEqual(['read', 'addField']);
  });

  it('unites the permissions of several grants and reports the strongest role', () => {
    const access = accessFrom(['read', 'add', 'supervisor_edit']);
    expect(access.role).toBe(ROLE.add);
    expect(can(access, 'addField')).toBe(true);
    expect(can(access, 'modifyShape')).toBe(true);
    expect(can(access, 'deleteField')).toBe(false);
  });

  it('gives nothing without grants', () => {
    expect(can(accessFrom([]), 'read')).toBe(false);
  });
});

describe('users scope of storage', () => {
  it('follows the spec: user and space admin write, read supervisors only read, edit supervisors write', () => {
    expect(canOnUser(['self'], 'write')).toBe(true);
    expect(canOnUser(['space_admin'], 'write')).toBe(true);
    expect(canOnUser(['supervisor_read'], 'read')).toBe(true);
    expect(canOnUser(['supervisor_read'], 'write')).toBe(false);
    expect(canOnUser(['supervisor_edit'], 'write')).toBe(true);
    expect(canOnUser([], 'read')).toBe(false);
  });
});
