// Rules of field creation (spec 2, Fields; error codes from its table). Pure functions, no
// geometry library (lib/fields/shape.ts measures polygons).

import { LostRace } from '../db/retry';
import { Forbidden, Invalid } from '../errors';
import type { Bounds } from '../geo/bounds';
import { extentRefusal } from '../imagery/grid-bound';
import { characters } from '../util/text';
import { FIELD_CODES } from './codes';

export const FARM_NAME_MAX = 50;
export const FARM_NAME_MIN = 2;
export const FIELD_NAME_MAX = 100;

/** "length of the farm name exceeds 50 characters or does not exceed 1 character" (code 6). */
export function checkFarmName(name: string): string {
  const trimmed = name.trim();
  if (characters(trimmed) > FARM_NAME_MAX || characters(trimmed) < FARM_NAME_MIN) {
    throw new Invalid(`the farm name must have between ${FARM_NAME_MIN} and ${FARM_NAME_MAX} characters`, {
      code: FIELD_CODES.FARM_NAME_LENGTH,
    });
  }
  return trimmed;
}

export function checkFieldName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new Invalid('missing parameters: nombre', { code: FIELD_CODES.MISSING_PARAMETERS });
  if (characters(trimmed) > FIELD_NAME_MAX) {
    throw new Invalid(`the field name must have at most ${FIELD_NAME_MAX} characters`, { code: -4 });
  }
  return trimmed;
}

/** Code 11 for a polygon whose extent would pass the bound of its imagery grid (lib/imagery/grid-bound.ts), whatever its area. */
export function checkFieldExtent(bounds: Bounds): void {
  const refusal = extentRefusal(bounds);
  if (refusal) throw new Forbidden(refusal, { code: FIELD_CODES.FIELD_TOO_LARGE });
}

export function checkFieldArea(areaHa: number, maxHectares: number): void {
  if (areaHa > maxHectares) {
    throw new Forbidden(`the field has ${areaHa.toFixed(2)} ha; at most ${maxHectares} ha are admitted`, {
      code: FIELD_CODES.FIELD_TOO_LARGE,
    });
  }
}

/**
 * The highest `hectares_used` that still leaves room for `areaHa` under `quota`, or null when
 * there is no quota. Throws when the field alone is over the quota.
 */
export function quotaCeiling(quota: number | null, areaHa: number, failure: () => Error): number | null {
  if (quota === null) return null;
  const ceiling = quota - areaHa;
  if (ceiling < 0) throw failure();
  return ceiling;
}

export const userQuotaExceeded = () =>
  new Forbidden("the hectares consumed would exceed the user's availability", { code: FIELD_CODES.USER_QUOTA });

export const spaceQuotaExceeded = () =>
  new Forbidden('the user lacks the necessary quota in the space', { code: FIELD_CODES.SPACE_QUOTA });

/** A farm made by name lost to another request making it: the next attempt joins that farm. */
export const farmMadeMeanwhile = () => new LostRace('farm created concurrently');
