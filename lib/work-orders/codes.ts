// Codes of work-order errors (spec 3: statuses and bodies "not shown"); general dialect
// `{res:'error', code, info}`. docs/decisions.md, "Work orders".
export const WORK_ORDER_CODES = {
  NOT_FOUND: 1,
  INVALID_LABOURS: 2,
  RECOMMENDATION_NOT_ACCEPTED: 3,
  UUID_IN_USE: 4,
  /** A work order the caller reads (its field's owner) but did not write: only its creator changes it. */
  NOT_ALLOWED: 5,
} as const;
