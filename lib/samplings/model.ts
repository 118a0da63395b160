// Soil samplings (spec 3, Samplings): created by the platform (the internal API), read by
// extensions. A sampling's samples are spots: a group's sample is a spot of the field whose
// sample_set_uuid is the sampling's and whose group_uuid is the group's (docs/decisions.md, "Samplings").
import { as, type EntityOf, entity, nullable, num, numOr, str } from '../db/entity';
import { keys } from '../db/keys';

export interface SamplingZoning {
  info: Record<string, string>;
  type: string;
}
export interface AnalysisVariable {
  name: string;
  unit_id: number;
}
export interface SamplingGroup {
  group_uuid: string;
  group_data: { sampling: { color: string; name: string } };
}
export interface SamplingPoint {
  point_uuid: string;
  geometry: string;
  checked: number;
  created_at: string;
  group_uuid: string;
}

export const Sampling = entity(
  'sampling',
  {
    uuid: str('sampling_uuid'),
    name: str('sampling_name'),
    sampleSetUuid: str('sample_set_uuid'),
    fieldId: num('field_id'),
    /** Its field's farm (0 in a sampling written before it was kept, until the backfill sets it). */
    farmId: numOr('farm_id', 0),
    yeargroup: num('yeargroup'),
    createdAt: str('created_at'),
    closedAt: nullable(str('closed_at')),
    groupAssignedId: numOr('group_assigned_id', 0),
    zoning: as<SamplingZoning>('zoning', { info: {}, type: 'none' }),
    /** Analysis name -> the variables it measures. */
    analysis: as<Record<string, AnalysisVariable[]>>('analysis', {}),
    groups: as<SamplingGroup[]>('groups', []),
    points: as<SamplingPoint[]>('points', []),
  },
  // a farm's samplings in one query (gsi1), whatever the number of its fields
  { derived: (s) => (s.farmId ? keys.samplingByFarmIndex(s.farmId, s.fieldId, s.uuid) : {}) },
);
export type Sampling = EntityOf<typeof Sampling>;

/** The platform's variable lists (GET /api/sampling/variablelist): values a sample variable may take by name. */
export const VARIABLE_LISTS = [
  {
    list_name: 'Textura',
    variablelist_uuid: '6f0c1a52-3f5e-4d7b-9a61-2c8e5b7d1a01',
    items: [
      { name: 'Arenosa', value: 1 },
      { name: 'Franco arenosa', value: 2 },
      { name: 'Franca', value: 3 },
      { name: 'Franco limosa', value: 4 },
      { name: 'Franco arcillosa', value: 5 },
      { name: 'Arcillosa', value: 6 },
    ],
  },
  {
    list_name: 'Drenaje',
    variablelist_uuid: '6f0c1a52-3f5e-4d7b-9a61-2c8e5b7d1a02',
    items: [
      { name: 'Excesivo', value: 1 },
      { name: 'Bueno', value: 2 },
      { name: 'Moderado', value: 3 },
      { name: 'Imperfecto', value: 4 },
      { name: 'Pobre', value: 5 },
    ],
  },
  {
    list_name: 'Profundidad de muestreo (cm)',
    variablelist_uuid: '6f0c1a52-3f5e-4d7b-9a61-2c8e5b7d1a03',
    items: [
      { name: '0-20', value: 20 },
      { name: '20-40', value: 40 },
      { name: '40-60', value: 60 },
    ],
  },
] as const;
