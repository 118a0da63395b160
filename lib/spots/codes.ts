// Spots' error codes, in one place as every area keeps its codes (lib/<area>/codes.ts).

/** Spots error codes (spec 1, Errors, spots) and the ones this service adds (docs/decisions.md). */
export const SPOT_CODES = {
  NOT_STORED: 51, // image could not be stored; tag in use; sheet format not supported
  TAG_IN_USE: 51,
  FORMAT_NOT_SUPPORTED: 51,
  SHEET_NOT_LOADED: 52,
  MISSING_COLUMN: 53,
  NO_VALID_RECORD: 54,
  NO_VALID_VARIABLES: 55,
  INVALID_GEOMETRY: 56,
  OUTSIDE_FIELD: 57,
  NO_PERMISSION: 12,
  NOT_FOUND: 404,
  WRONG_FORMAT: -4,
} as const;
