// Fields' error codes (spec 2, Fields; deletion: DELETE /api/borrarlotes), in one place as every area keeps its
// codes (lib/<area>/codes.ts).

export const FIELD_CODES = {
  GENERAL: 1,
  INVALID_SHAPE: 2,
  NAME_REPEATED: 4,
  FARM_NAME_LENGTH: 6,
  NO_PERMISSION: 7,
  SPACE_QUOTA: 8,
  MISSING_PARAMETERS: 9,
  INVALID_POLYGON: 10,
  FIELD_TOO_LARGE: 11,
  USER_DATA: 12,
  USER_QUOTA: 13,
} as const;

/** DELETE /api/borrarlotes. */
export const FIELD_DELETE_CODES = { NOT_FOUND: 1, NO_PERMISSION: FIELD_CODES.NO_PERMISSION } as const;
