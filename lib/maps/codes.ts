// The infos user maps answer (spec 2, Errors, Maps): `{res:'Error', info}`; statuses in docs/decisions.md.
export const MAP_INFOS = {
  NOT_FOUND: 'Map not found',
  NO_PERMISSION: 'User does not have enough permissions',
  NAME_TAKEN: 'The map name is already used',
  DENIED: 'Denied access',
  INVALID_FIELD: 'Invalid field',
  INVALID_PARAMETERS: 'Invalid parameters',
} as const;
