// Labours (spec 3): field activities of four types in a campaign. The pure rules live here (types,
// which fields each type takes, totals of inputs; any status may change to any other); lib/labours/service.ts
// reads and writes them. docs/decisions.md, "Labours".
import { as, type EntityOf, entity, nullable, num, str, strOr } from '../db/entity';
import { keys } from '../db/keys';

export const LABOUR_TYPE = { APPLICATION: 1, HARVEST: 2, SOWING: 3, OTHER: 4 } as const;
export type LabourTypeId = (typeof LABOUR_TYPE)[keyof typeof LABOUR_TYPE];
export const STATUS = { PLANNED: 1, EXECUTED: 2, CANCELLED: 3 } as const;
export type Status = (typeof STATUS)[keyof typeof STATUS];

/** application_type_id and seeding_type_id (values not shown by the spec; docs/decisions.md). */
export const APPLICATION_TYPES: Record<number, string> = {
  1: 'Terrestre',
  2: 'Aérea',
  3: 'Quimigación (por riego)',
  4: 'Tratamiento de semillas',
};
export const SEEDING_TYPES: Record<number, string> = {
  1: 'Siembra directa',
  2: 'Siembra convencional',
  3: 'Siembra al voleo',
  4: 'Trasplante',
};

/** The type fields of each labour type (the spec's names); others sent with that type are refused. */
export const TYPE_FIELDS: Record<LabourTypeId, readonly string[]> = {
  [LABOUR_TYPE.APPLICATION]: ['application_type_id', 'end_cycle', 'map_id', 'inputs'],
  [LABOUR_TYPE.HARVEST]: [
    'end_cycle',
    'layer',
    'expected_unit',
    'harvested_unit',
    'expected_yield',
    'harvested_yield',
    'quality',
    'humidity',
    'yield_zones',
  ],
  [LABOUR_TYPE.SOWING]: [
    'seed_total',
    'seed_rate',
    'actual_seed_rate',
    'row_width',
    'seeding_type_id',
    'variety_id',
    'variety_name',
    'inputs',
  ],
  [LABOUR_TYPE.OTHER]: ['name'],
};
/** At most this many inputs in one labour (one transaction holds the labour and every input it creates). */
export const LABOUR_INPUTS_MAX = 40;

export const takesInputs = (typeId: LabourTypeId) => TYPE_FIELDS[typeId].includes('inputs');

/** The type fields sent that the type does not take. */
export const foreignTypeFields = (typeId: LabourTypeId, sent: readonly string[]): string[] =>
  sent.filter((name) => !TYPE_FIELDS[typeId].includes(name));

export interface Amount {
  unit: string;
  value: number;
}

export interface Costs {
  labour: Amount | null;
  /** By input uuid. */
  inputs: Record<string, Amount>;
  /** Sowings only. */
  seed: Amount | null;
}

/** An input of an application or sowing, as kept in the labour. */
export interface LabourInput {
  labourInputUuid: string;
  inputUuid: string;
  inputId: number;
  /** Owner of a personal input (null for a master input): where its current name is read. */
  ownerId: number | null;
  /** The input's name when the labour was written (shown if the input is gone). */
  name: string;
  dose: number;
  unit: string;
  observations: string | null;
  pestUuid: string | null;
  warehouseUuid: string | null;
  justifyId: number | null;
  stock: unknown;
}

export const Labour = entity(
  'labour',
  {
    uuid: str('labour_uuid'),
    typeId: as<LabourTypeId>('labour_type_id'),
    status: as<Status>('status'),
    yeargroup: num('yeargroup'),
    date: str('date'),
    fieldId: num('field_id'),
    farmId: num('farm_id'),
    /**
     * The uuid and name of its field, as they were when the labour was written (neither ever
     * changes): a list by farm shows them without reading the field. Null on items written before.
     */
    fieldUuid: nullable(str('field_uuid')),
    fieldName: nullable(str('field_name')),
    campaignId: num('cicle_id'),
    rotationUuid: nullable(str('rotation_uuid')),
    mapId: nullable(num('map_id')),
    surface: num('surface'),
    observations: str('observations'),
    attachments: as<string[]>('attachments', []),
    stock: as<unknown[]>('stock', []),
    resources: as<unknown[]>('resources', []),
    staff: as<string[]>('staff', []),
    costs: as<Costs>('costs', { labour: null, inputs: {}, seed: null }),
    inputs: as<LabourInput[]>('inputs', []),
    /** The type fields other than inputs and map_id, under the spec's names. */
    details: as<Record<string, unknown>>('details', {}),
    createdBy: num('created_by'),
    /** What the create sent (lib/util/fingerprint.ts): its uuid sent again with another body conflicts. '' when not known. */
    createdWith: strOr('created_with', ''),
    createdAt: str('created_at'),
    updatedAt: str('updated_at'),
    version: num('version'),
  },
  // the list's order within the field's campaign (gsi1) and within the farm's (gsi2), so that a page
  // reads its labours only, for named fields or for every farm the caller reads
  {
    derived: (l) => ({
      ...keys.labourByDateIndex(l.fieldId, l.yeargroup, l.date, l.createdAt, l.uuid),
      ...keys.labourByFarmIndex(l.farmId, l.yeargroup, l.date, l.createdAt, l.uuid, l.fieldId),
    }),
  },
);
export type Labour = EntityOf<typeof Labour>;

/** The unit of an input's total: a dose per hectare totals in the unit without "/ha". */
export const totalUnit = (unit: string): string => unit.replace(/\s*\/\s*ha$/i, '').trim() || unit;

/** How much of an input the labour uses: dose x surface for a dose per hectare, else the dose. */
export const inputTotal = (dose: number, unit: string, surfaceHa: number): number =>
  /\/\s*ha$/i.test(unit) ? Math.round(dose * surfaceHa * 1000) / 1000 : dose;

/** Query filters of GET /activities/labour (spec 3), combined with AND. */
export interface LabourFilters {
  yeargroup: number;
  farmIds?: number[];
  fieldIds?: number[];
  fieldUuids?: string[];
  farmUuids?: string[];
  status?: number;
  /** YYYY-MM-DD, both included. */
  dateFrom?: string;
  dateTo?: string;
  cropIds?: number[];
  typeId?: number;
}

/** Whether a labour passes the filters that read the labour itself (crop filters need its rotation's crop). */
export function matches(labour: Labour, filters: LabourFilters, cropId: number | undefined): boolean {
  return (
    labour.yeargroup === filters.yeargroup &&
    (filters.status === undefined || labour.status === filters.status) &&
    (filters.typeId === undefined || labour.typeId === filters.typeId) &&
    (filters.dateFrom === undefined || labour.date >= filters.dateFrom) &&
    (filters.dateTo === undefined || labour.date <= filters.dateTo) &&
    (filters.cropIds === undefined || (cropId !== undefined && filters.cropIds.includes(cropId)))
  );
}

export const LABOUR_PAGE_SIZE = { DEFAULT: 50, MAX: 500 } as const;

/** Page `page` (from 1) of `items`, and how many pages there are. */
export function paginate<T>(items: T[], page: number, pageSize: number): { items: T[]; totalPages: number } {
  return { items: items.slice((page - 1) * pageSize, page * pageSize), totalPages: Math.ceil(items.length / pageSize) };
}

/** List order: by date, then creation, then uuid. */
export const byDate = (a: Labour, b: Labour) =>
  a.date.localeCompare(b.date) || a.createdAt.localeCompare(b.createdAt) || a.uuid.localeCompare(b.uuid);
