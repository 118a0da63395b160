// Codes of labour errors (spec 3: "HTTP statuses and error bodies of labours: not shown"). They
// answer in the general dialect `{res:'error', code, info}`; docs/decisions.md, "Labours".

import { LostRace } from '../db/retry';
import { Conflict, Forbidden } from '../errors';
export const LABOUR_CODES = {
  NOT_FOUND: 1,
  NOT_ALLOWED: 2,
  // 3 (status transition) is no longer answered: any status may change to any other
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
export const seasonViewRequired = () =>
  new Forbidden('the View season feature is required', { code: LABOUR_CODES.SEASON_VIEW_REQUIRED });

/** A labour uuid the caller already uses in another way (another body, another field it sees). */
export const labourTaken = (uuid: string, why?: string) =>
  new Conflict(`labour ${uuid} already exists${why ? `: ${why}` : ''}`, { code: LABOUR_CODES.UUID_IN_USE });
/** The labour changed between its read and its write: the change is retried from a new read. */
export const labourStale = () => new LostRace('labour changed meanwhile');
