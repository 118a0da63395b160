// lib/livestock/arithmetic.ts: what leaves a herd, what stays, what another herd receives.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors';
import { joined, leaving, remaining, takesAll, WEIGHT_EPSILON_KG } from '../../lib/livestock/arithmetic';
import { LIVESTOCK_CODES } from '../../lib/livestock/codes';

const herd = { animalCount: 10, weightKg: 4000 };
const codeOf = (run: () => unknown) => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
};

describe('herd arithmetic', () => {
  it('takes the whole herd when no count is given, and a share of the weight at the average otherwise', () => {
    expect(leaving(herd)).toEqual({ animalCount: 10, weightKg: 4000 });
    expect(leaving(herd, 3)).toEqual({ animalCount: 3, weightKg: 1200 });
    expect(leaving(herd, 3, 1500)).toEqual({ animalCount: 3, weightKg: 1500 });
    expect(leaving({ animalCount: 0, weightKg: 0 })).toEqual({ animalCount: 0, weightKg: 0 });
  });

  it('refuses more animals or more weight than the herd has, allowing float rounding', () => {
    expect(codeOf(() => leaving(herd, 11))).toBe(LIVESTOCK_CODES.NOT_ENOUGH_ANIMALS);
    expect(codeOf(() => leaving(herd, 5, 4000.01))).toBe(LIVESTOCK_CODES.NOT_ENOUGH_WEIGHT);
    expect(leaving(herd, 5, 4000 + WEIGHT_EPSILON_KG / 2).weightKg).toBe(4000 + WEIGHT_EPSILON_KG / 2);
  });

  it('leaves the rest, never a negative weight, and no weight once the last animal left', () => {
    expect(remaining(herd, { animalCount: 4, weightKg: 1000 })).toEqual({ animalCount: 6, weightKg: 3000 });
    expect(remaining(herd, { animalCount: 4, weightKg: 4000 + WEIGHT_EPSILON_KG / 2 })).toEqual({
      animalCount: 6,
      weightKg: 0,
    });
    expect(remaining(herd, { animalCount: 10, weightKg: 3999 })).toEqual({ animalCount: 0, weightKg: 0 });
  });

  it('adds what arrives, and tells a whole move from a split', () => {
    expect(joined(herd, { animalCount: 2, weightKg: 700 })).toEqual({ animalCount: 12, weightKg: 4700 });
    expect(takesAll(herd, leaving(herd))).toBe(true);
    expect(takesAll(herd, leaving(herd, 9))).toBe(false);
  });
});
