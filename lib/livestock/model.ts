// Livestock (spec 1): paddocks, herds and their read-only catalogues; weight units.
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
const unitBySpelling = new Map(Object.entries(WEIGHT_UNIT_SPELLINGS).flatMap(([unit, spellings]) => spellings.map((s) => [s, unit as WeightUnit])));

/** The unit a spelling names (INVALID_PARAMETERS for any other). */
export function weightUnitOf(spelling: string): WeightUnit {
  const unit = unitBySpelling.get(String(spelling).trim().toLowerCase());
  if (!unit) throw new Invalid(`weight_unit must be kg, lb or t (in any case; also ${[...unitBySpelling.keys()].filter((s) => s.length > 2).join(', ')})`);
  return unit;
}

export const toKg = (weight: number, unit: string): number => weight * WEIGHT_UNITS[weightUnitOf(unit)];

export const fromKg = (kg: number, unit: WeightUnit): number => Number((kg / WEIGHT_UNITS[unit]).toFixed(3));

/** Weights compare with this tolerance (unit conversions are not exact). */
export const WEIGHT_EPSILON_KG = 1e-6;

export interface Paddock {
  id: number;
  uuid: string;
  fieldId: number;
  name: string;
  /** YYYY-MM-DD */
  creationDate: string;
  shape: string;
  areaHa: number;
  /** Herds located in the paddock (a paddock holding herds cannot be deleted). */
  herdCount: number;
  version: number;
}

export interface Herd {
  id: number;
  uuid: string;
  name: string;
  typeId: number;
  animalCount: number;
  weightKg: number;
  weightUnit: WeightUnit;
  fieldId: number;
  paddockUuid: string | null;
  paddockId: number | null;
  /** YYYY-MM-DDTHH:MM:SSZ, or null without transactions. */
  lastTransactionDate: string | null;
  createdAt: string;
  version: number;
}

type Item = Record<string, unknown>;

export const paddockFromItem = (item: Item): Paddock => ({
  id: Number(item.paddock_id),
  uuid: String(item.paddock_uuid),
  fieldId: Number(item.field_id),
  name: String(item.name),
  creationDate: String(item.creation_ts),
  shape: String(item.shape),
  areaHa: Number(item.area_ha),
  herdCount: Number(item.herd_count ?? 0),
  version: Number(item.version ?? 1),
});

export const paddockToItem = (p: Paddock): Item => ({
  kind: 'paddock',
  paddock_id: p.id,
  paddock_uuid: p.uuid,
  field_id: p.fieldId,
  name: p.name,
  creation_ts: p.creationDate,
  shape: p.shape,
  area_ha: p.areaHa,
  herd_count: p.herdCount,
  version: p.version,
});

export const herdFromItem = (item: Item): Herd => ({
  id: Number(item.herd_id),
  uuid: String(item.herd_uuid),
  name: String(item.herd_name),
  typeId: Number(item.type_id),
  animalCount: Number(item.animal_count),
  weightKg: Number(item.weight_kg),
  weightUnit: item.weight_unit as WeightUnit,
  fieldId: Number(item.field_id),
  paddockUuid: (item.paddock_uuid as string | null | undefined) ?? null,
  paddockId: item.paddock_id === null || item.paddock_id === undefined ? null : Number(item.paddock_id),
  lastTransactionDate: (item.date_of_last_transaction as string | null | undefined) ?? null,
  createdAt: String(item.created_at),
  version: Number(item.version ?? 1),
});

export const herdToItem = (h: Herd): Item => ({
  kind: 'herd',
  herd_id: h.id,
  herd_uuid: h.uuid,
  herd_name: h.name,
  type_id: h.typeId,
  animal_count: h.animalCount,
  weight_kg: h.weightKg,
  weight_unit: h.weightUnit,
  field_id: h.fieldId,
  paddock_uuid: h.paddockUuid,
  paddock_id: h.paddockId,
  date_of_last_transaction: h.lastTransactionDate,
  created_at: h.createdAt,
  version: h.version,
});

/** The later of two YYYY-MM-DDTHH:MM:SSZ dates (null counts as earliest). */
export const laterDate = (a: string | null, b: string): string => (a && a > b ? a : b);
