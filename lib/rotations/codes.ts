// Codes of the rotations answers (spec 2, Rotations).
export const ROTATION_CODES = {
  NOT_ALLOWED: -11,
  INVALID_CROP: -12,
  INVALID_DATES: -13,
  HECTARES_EXCEED_FIELD: -14,
  WRONG_FORMAT: -4,
} as const;

export const NOT_ALLOWED_MESSAGE = 'User is not allowed to perform this action';
