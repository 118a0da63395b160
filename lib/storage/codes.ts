// info.code values shared by the storage operations (spec 3, Key-value and File storage).
export const STORAGE_CODES = {
  OK: 0,
  DATA_MISSING: 1,
  KEY_INVALID: 2,
  NO_PERMISSION: 3,
  INVALID_EXTENSION: 4,
  KEY_STATE: 5,
  ID_INVALID: 5,
  ERROR: 6,
  FILE_TOO_LARGE: 7,
} as const;
