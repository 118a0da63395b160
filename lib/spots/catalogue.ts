// Catalogues of the spots area (spec 1): measurement units (GET /api/utils/units), the common
// tags every user sees, and the types of sample sets a spot can belong to.

export interface Unit {
  id: number;
  name: string;
  symbol: string;
}

/** unit_id 0 is "no unit" (the spec's minimum is 0). */
export const UNITS: readonly Unit[] = [
  { id: 0, name: 'unitless', symbol: '' },
  { id: 1, name: 'percent', symbol: '%' },
  { id: 2, name: 'parts per million', symbol: 'ppm' },
  { id: 3, name: 'milligrams per kilogram', symbol: 'mg/kg' },
  { id: 4, name: 'grams per kilogram', symbol: 'g/kg' },
  { id: 5, name: 'centimoles of charge per kilogram', symbol: 'cmol(+)/kg' },
  { id: 6, name: 'milliequivalents per 100 grams', symbol: 'meq/100g' },
  { id: 7, name: 'decisiemens per metre', symbol: 'dS/m' },
  { id: 8, name: 'pH units', symbol: 'pH' },
  { id: 9, name: 'kilograms per hectare', symbol: 'kg/ha' },
  { id: 10, name: 'tonnes per hectare', symbol: 't/ha' },
  { id: 11, name: 'quintals per hectare', symbol: 'qq/ha' },
  { id: 12, name: 'plants per square metre', symbol: 'plants/m²' },
  { id: 13, name: 'plants per hectare', symbol: 'plants/ha' },
  { id: 14, name: 'centimetres', symbol: 'cm' },
  { id: 15, name: 'metres', symbol: 'm' },
  { id: 16, name: 'millimetres', symbol: 'mm' },
  { id: 17, name: 'degrees Celsius', symbol: '°C' },
  { id: 18, name: 'grams', symbol: 'g' },
  { id: 19, name: 'kilograms', symbol: 'kg' },
  { id: 20, name: 'count', symbol: 'count' },
  { id: 21, name: 'insects per metre', symbol: 'insects/m' },
  { id: 22, name: 'insects per plant', symbol: 'insects/plant' },
  { id: 23, name: 'percent damage', symbol: '% damage' },
  { id: 24, name: 'grams per cubic centimetre', symbol: 'g/cm³' },
  { id: 25, name: 'megapascals', symbol: 'MPa' },
  { id: 26, name: 'kilopascals', symbol: 'kPa' },
  { id: 27, name: 'SPAD units', symbol: 'SPAD' },
  { id: 28, name: 'NDVI', symbol: 'NDVI' },
  { id: 29, name: 'cubic metres per hectare', symbol: 'm³/ha' },
  { id: 30, name: 'litres per hectare', symbol: 'L/ha' },
];

const unitsById = new Map(UNITS.map((u) => [u.id, u]));
export const unitById = (id: number): Unit | undefined => unitsById.get(id);
/** A unit by its symbol or name, ignoring case ('' is unitless). */
export const unitByLabel = (label: string): Unit | undefined => {
  const wanted = label.trim().toLowerCase();
  return UNITS.find((u) => u.symbol.toLowerCase() === wanted || u.name.toLowerCase() === wanted);
};

export interface CommonTag {
  uuid: string;
  tag: string;
}

/** Common (general) tags: seen by every user, translated by clients, never changed or deleted. */
export const COMMON_TAGS: readonly CommonTag[] = [
  { uuid: '8f1d0a00-0000-1000-8000-00000000c001', tag: 'weeds' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c002', tag: 'pests' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c003', tag: 'diseases' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c004', tag: 'waterlogging' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c005', tag: 'hail' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c006', tag: 'erosion' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c007', tag: 'low_yield' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c008', tag: 'nutrient_deficiency' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c009', tag: 'sampling_point' },
  { uuid: '8f1d0a00-0000-1000-8000-00000000c00a', tag: 'irrigation' },
];
const commonByUuid = new Map(COMMON_TAGS.map((t) => [t.uuid, t]));
export const commonTag = (uuid: string): CommonTag | undefined => commonByUuid.get(uuid.toLowerCase());

/** Types of sample sets a spot can belong to, with their ids (sample_set_type_id). */
export const SAMPLE_SET_TYPES: Readonly<Record<string, number>> = {
  soil_sampling: 1,
  plant_tissue_sampling: 2,
  water_sampling: 3,
  pest_monitoring: 4,
  yield_sampling: 5,
};
