// Codes of labour errors (spec 3: "HTTP statuses and error bodies of labours: not shown"). They
// answer in the general dialect `{res:'error', code, info}`; docs/decisions.md, "Labours".
import { Forbidden } from '../errors';
export const LABOUR_CODES = {
  NOT_FOUND: 1,
  NOT_ALLOWED: 2,
  STATUS_TRANSITION: 3,
  INVALID_ROTATION: 4,
  INVALID_INPUTS: 5,
  SURFACE_EXCEEDS_FIELD: 6,
  WRONG_TYPE_FIELDS: 7,
  INVALID_FIELD: 8,
  INVALID_MAP: 9,
  UUID_IN_USE: 10,
  SEASON_VIEW_REQUIRED: 11,
} as const;

/** Labours and work orders need the View season feature (claim SEASON_VIEW). */
export const seasonViewRequired = () => new Forbidden('the View season feature is required', { code: LABOUR_CODES.SEASON_VIEW_REQUIRED });
