// Herd arithmetic (spec 1, livestock transactions): what leaves a herd, what stays, what another
// herd receives. Pure rules, without storage (tests/unit/herd-arithmetic.test.ts); the services in
// transactions.ts and herds.ts apply them inside their DynamoDB transactions.
import { Conflict } from '../errors';
import { LIVESTOCK_CODES } from './codes';

/** Weights are kept in kg; a leaving weight may pass the herd's by this much (float rounding). */
export const WEIGHT_EPSILON_KG = 1e-6;

export interface Head {
  animalCount: number;
  weightKg: number;
}

const notEnoughAnimals = (wanted: number, have: number) =>
  new Conflict(`the herd has ${have} animals; ${wanted} cannot leave it`, { code: LIVESTOCK_CODES.NOT_ENOUGH_ANIMALS });
const notEnoughWeight = () =>
  new Conflict('the weight exceeds the weight of the herd', { code: LIVESTOCK_CODES.NOT_ENOUGH_WEIGHT });

/**
 * The animals that leave `herd`: `count` of them (all when absent) weighing `weightKg` (when absent,
 * their share of the herd's weight at its average). Refused when the herd has fewer animals or
 * less weight.
 */
export function leaving(herd: Head, count?: number, weightKg?: number): Head {
  const animals = count ?? herd.animalCount;
  if (animals > herd.animalCount) throw notEnoughAnimals(animals, herd.animalCount);
  const kg = weightKg ?? (herd.animalCount ? (herd.weightKg * animals) / herd.animalCount : 0);
  if (kg > herd.weightKg + WEIGHT_EPSILON_KG) throw notEnoughWeight();
  return { animalCount: animals, weightKg: kg };
}

/** What stays in `herd` once `part` has left: never a negative weight, and no weight without animals. */
export function remaining(herd: Head, part: Head): Head {
  const animalCount = herd.animalCount - part.animalCount;
  return { animalCount, weightKg: animalCount === 0 ? 0 : Math.max(0, herd.weightKg - part.weightKg) };
}

/** `herd` with `part` added (animals arriving from another herd, or new animals). */
export function joined(herd: Head, part: Head): Head {
  return { animalCount: herd.animalCount + part.animalCount, weightKg: herd.weightKg + part.weightKg };
}

/** Whether a move of `part` out of `herd` takes the whole herd (it then moves, rather than splits). */
export const takesAll = (herd: Head, part: Head): boolean => part.animalCount >= herd.animalCount;
