// Who may do what: the one authorisation module every area uses (docs/authorization.md).
//
// A user reaches a farm or field as its owner, through a share (read | edit | add | admin, on the
// farm or on one field), or as a supervisor of its owner (read | edit). Each way grants a set of
// permission codes; a user's permissions over a record are the union over every way that
// reaches it, and its role is the strongest of them.

import type { ShareLevel, SupervisionLevel } from '../platform/model';

export type { ShareLevel, SupervisionLevel };
export type Grant = 'owner' | ShareLevel | `supervisor_${SupervisionLevel}`;

export const SHARE_LEVELS: readonly ShareLevel[] = ['read', 'edit', 'add', 'admin'];
export const SUPERVISION_LEVELS: readonly SupervisionLevel[] = ['read', 'edit'];

/** Permission codes reported in getfields `permissions`. 220 is the spec's "modify field shape". */
export const PERMISSION = {
  VIEW: 100,
  EDIT_DATA: 110,
  ADD_FIELDS: 120,
  DELETE_DATA: 130,
  EDIT_FIELD: 200,
  DELETE_FIELD: 210,
  MODIFY_SHAPE: 220,
  MANAGE_SHARES: 300,
  DELETE_FARM: 310,
} as const;
export type PermissionCode = (typeof PERMISSION)[keyof typeof PERMISSION];

/** Role ids reported in getfields `role`, strongest first. */
export const ROLE: Record<Grant, number> = {
  owner: 1,
  admin: 2,
  edit: 3,
  add: 4,
  supervisor_edit: 5,
  read: 6,
  supervisor_read: 7,
};

const P = PERMISSION;
export const PERMISSIONS_BY_GRANT: Record<Grant, readonly PermissionCode[]> = {
  owner: [
    P.VIEW,
    P.EDIT_DATA,
    P.ADD_FIELDS,
    P.DELETE_DATA,
    P.EDIT_FIELD,
    P.DELETE_FIELD,
    P.MODIFY_SHAPE,
    P.MANAGE_SHARES,
    P.DELETE_FARM,
  ],
  admin: [
    P.VIEW,
    P.EDIT_DATA,
    P.ADD_FIELDS,
    P.DELETE_DATA,
    P.EDIT_FIELD,
    P.DELETE_FIELD,
    P.MODIFY_SHAPE,
    P.MANAGE_SHARES,
  ],
  edit: [P.VIEW, P.EDIT_DATA, P.EDIT_FIELD, P.MODIFY_SHAPE],
  // an add share adds fields to the farm and nothing else of the areas' data (docs/security.md, "Add
  // shares"); extension storage, whose table lets it create, says so itself (lib/storage/access.ts)
  add: [P.VIEW, P.ADD_FIELDS],
  supervisor_edit: [P.VIEW, P.EDIT_DATA, P.EDIT_FIELD, P.MODIFY_SHAPE],
  read: [P.VIEW],
  supervisor_read: [P.VIEW],
};

/** Actions the areas ask about, and the permission each needs. */
export const ACTION_PERMISSION = {
  read: P.VIEW,
  write: P.EDIT_DATA, // data hanging from the record: storage, spots, livestock, rotations...
  addField: P.ADD_FIELDS,
  editField: P.EDIT_FIELD,
  deleteField: P.DELETE_FIELD,
  modifyShape: P.MODIFY_SHAPE,
  manageShares: P.MANAGE_SHARES,
  deleteData: P.DELETE_DATA, // deleting data hanging from the record: owners and admins
} as const;
export type Action = keyof typeof ACTION_PERMISSION;

export interface Access {
  grants: Grant[];
  role: number;
  permissions: PermissionCode[];
}

export const NO_ACCESS: Access = { grants: [], role: 0, permissions: [] };

export function accessFrom(grants: Iterable<Grant>): Access {
  const list = [...new Set(grants)].sort((a, b) => ROLE[a] - ROLE[b]);
  if (list.length === 0) return NO_ACCESS;
  const permissions = new Set<PermissionCode>();
  for (const grant of list) for (const code of PERMISSIONS_BY_GRANT[grant]) permissions.add(code);
  return {
    grants: list,
    role: ROLE[list[0]!],
    permissions: [...permissions].sort((a, b) => a - b),
  };
}

export const can = (access: Access, action: Action): boolean => access.permissions.includes(ACTION_PERMISSION[action]);

export const supervisionGrant = (level: SupervisionLevel): Grant => `supervisor_${level}`;

// --- users scope (extension storage of a user): the user, the space administrator, supervisors

export type UserRelation = 'self' | 'space_admin' | 'supervisor_read' | 'supervisor_edit';

const USER_SCOPE_RULES: Record<'read' | 'write' | 'delete', readonly UserRelation[]> = {
  // "the user and the administrator of the user's space create and retrieve; a supervisor with
  // read permission of the group retrieves; a supervisor with edit permission creates and
  // retrieves; the user, the supervisor or the administrator delete."
  read: ['self', 'space_admin', 'supervisor_read', 'supervisor_edit'],
  write: ['self', 'space_admin', 'supervisor_edit'],
  delete: ['self', 'space_admin', 'supervisor_read', 'supervisor_edit'],
};

export const canOnUser = (relations: readonly UserRelation[], action: 'read' | 'write' | 'delete'): boolean =>
  relations.some((relation) => USER_SCOPE_RULES[action].includes(relation));
