// Livestock (spec 1): paddocks, herds and their read-only catalogues; weight units.

import { as, type EntityOf, entity, nullable, num, numOr, str } from '../db/entity';
import { Invalid } from '../errors';

/** Herd categories (spec 1, read-only list). */
export const HERD_CATEGORIES = [
  { id: 1, name: 'Terneros' },
  { id: 2, name: 'Terneras' },
  { id: 3, name: 'Novillito' },
  { id: 4, name: 'Novillos' },
  { id: 5, name: 'Vaquillonas' },
  { id: 6, name: 'Vacas Invernada' },
  { id: 7, name: 'Vacas Cría' },
  { id: 8, name: 'Toros' },
] as const;

/** Exit types (spec 1, read-only list); type 2 moves animals into another herd. */
export const EXIT_TYPES = [
  { id: 1, type: 'Muertes' },
  { id: 2, type: 'Salida hacia otro rodeo' },
  { id: 3, type: 'Faena' },
  { id: 4, type: 'Venta' },
  { id: 5, type: 'Cambio de campo' },
  { id: 6, type: 'Robo' },
  { id: 7, type: 'Otro' },
] as const;
export const HERD_TO_HERD = 2;

export const isHerdCategory = (id: number) => HERD_CATEGORIES.some((c) => c.id === id);
export const exitType = (id: number) => EXIT_TYPES.find((t) => t.id === id);

/** Weight units (docs/decisions.md); weights are kept in kilograms and shown in the herd's unit. */
export const WEIGHT_UNITS = { kg: 1, lb: 0.45359237, t: 1000 } as const;
export type WeightUnit = keyof typeof WEIGHT_UNITS;

/** The usual spellings of each unit, in any case (KG, Kg, kgs, libras, tn, ...). */
export const WEIGHT_UNIT_SPELLINGS: Readonly<Record<WeightUnit, readonly string[]>> = {
  kg: ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms', 'kilogramo', 'kilogramos'],
  lb: ['lb', 'lbs', 'pound', 'pounds', 'libra', 'libras'],
  t: ['t', 'tn', 'ton', 'tons', 'tonne', 'tonnes', 'tonelada', 'toneladas'],
};
const unitBySpelling = new Map(
  Object.entries(WEIGHT_UNIT_SPELLINGS).flatMap(([unit, spellings]) => spellings.map((s) => [s, unit as WeightUnit])),
);

/** The unit a spelling names (INVALID_PARAMETERS for any other). */
export function weightUnitOf(spelling: string): WeightUnit {
  const unit = unitBySpelling.get(String(spelling).trim().toLowerCase());
  if (!unit)
    throw new Invalid(
      `weight_unit must be kg, lb or t (in any case; also ${[...unitBySpelling.keys()].filter((s) => s.length > 2).join(', ')})`,
    );
  return unit;
}

export const toKg = (weight: number, unit: string): number => weight * WEIGHT_UNITS[weightUnitOf(unit)];

export const fromKg = (kg: number, unit: WeightUnit): number => Number((kg / WEIGHT_UNITS[unit]).toFixed(3));

/** A paddock: a polygon of a field where herds graze. */
export const Paddock = entity('paddock', {
  id: num('paddock_id'),
  uuid: str('paddock_uuid'),
  fieldId: num('field_id'),
  name: str('name'),
  /** YYYY-MM-DD */
  creationDate: str('creation_ts'),
  shape: str('shape'),
  areaHa: num('area_ha'),
  /** Herds located in the paddock (a paddock holding herds cannot be deleted). */
  herdCount: numOr('herd_count', 0),
  version: numOr('version', 1),
});
export type Paddock = EntityOf<typeof Paddock>;

/** A herd: animals of one category, in a paddock of a field (or in none yet). */
export const Herd = entity('herd', {
  id: num('herd_id'),
  uuid: str('herd_uuid'),
  name: str('herd_name'),
  typeId: num('type_id'),
  animalCount: num('animal_count'),
  weightKg: num('weight_kg'),
  weightUnit: as<WeightUnit>('weight_unit'),
  fieldId: num('field_id'),
  paddockUuid: nullable(str('paddock_uuid')),
  paddockId: nullable(num('paddock_id')),
  /** YYYY-MM-DDTHH:MM:SSZ, or null without transactions. */
  lastTransactionDate: nullable(str('date_of_last_transaction')),
  createdAt: str('created_at'),
  version: numOr('version', 1),
});
export type Herd = EntityOf<typeof Herd>;

/** The later of two YYYY-MM-DDTHH:MM:SSZ dates (null counts as earliest). */
export const laterDate = (a: string | null, b: string): string => (a && a > b ? a : b);
