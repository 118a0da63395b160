// Soil samplings (spec 3): read by extensions through /api/sampling, created and closed by the
// platform through the internal API. A sampling lives in its field's partition (deleted with it);
// a ref finds it by uuid. Its samples are read from the spots of its sample set.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { farmFor, fieldFor } from '../authz/guard';
import { keys } from '../db/keys';
import { getItem, NOT_EXISTS, queryAll, transact, tx, updateItem } from '../db/table';
import { Conflict, Forbidden, Invalid, NotFound } from '../errors';
import { getField } from '../fields/repository';
import { readableFields } from '../fields/list';
import { spots as spotsService } from '../spots/repository';
import type { Spot } from '../spots/model';
import type { Field } from '../platform/model';
import { Sampling, type AnalysisVariable, type SamplingGroup, type SamplingPoint, type SamplingZoning } from './model';

export const SAMPLING_CODES = { INSUFFICIENT_PERMISSIONS: -11, WRONG_FORMAT: -4 } as const;
const insufficient = () => new Forbidden('insufficient permissions', { code: SAMPLING_CODES.INSUFFICIENT_PERMISSIONS });

export interface SamplingInput {
  uuid?: string;
  name: string;
  fieldId: number;
  yeargroup: number;
  sampleSetUuid?: string;
  zoning: SamplingZoning;
  analysis: Record<string, AnalysisVariable[]>;
  groups: Array<{ group_uuid?: string; color: string; name: string }>;
  points: Array<{ point_uuid?: string; geometry: string; group_uuid: string; checked?: number }>;
  groupAssignedId?: number;
}

/** POST /internal/samplings: a sampling of a field; a repeated uuid answers the sampling made the first time. */
export async function createSampling(input: SamplingInput): Promise<Sampling> {
  const field = await getField(input.fieldId);
  if (!field) throw new NotFound(`field ${input.fieldId} not found`);
  const uuid = (input.uuid ?? randomUUID()).toLowerCase();
  const existing = await getItem(keys.samplingRef(uuid));
  if (existing) return located(uuid, Number(existing.field_id));
  const groups: SamplingGroup[] = input.groups.map((g) => ({ group_uuid: (g.group_uuid ?? randomUUID()).toLowerCase(), group_data: { sampling: { color: g.color, name: g.name } } }));
  const groupUuids = new Set(groups.map((g) => g.group_uuid));
  const now = new Date().toISOString();
  const points: SamplingPoint[] = input.points.map((p) => {
    if (!groupUuids.has(p.group_uuid.toLowerCase())) throw new Invalid(`point of an unknown group ${p.group_uuid}`);
    return { point_uuid: (p.point_uuid ?? randomUUID()).toLowerCase(), geometry: p.geometry, checked: p.checked ?? 0, created_at: now, group_uuid: p.group_uuid.toLowerCase() };
  });
  const sampling: Sampling = {
    uuid,
    name: input.name,
    sampleSetUuid: (input.sampleSetUuid ?? randomUUID()).toLowerCase(),
    fieldId: field.id,
    yeargroup: input.yeargroup,
    createdAt: now,
    closedAt: null,
    groupAssignedId: input.groupAssignedId ?? 0,
    zoning: input.zoning,
    analysis: input.analysis,
    groups,
    points,
  };
  try {
    await transact([
      tx.put({ ...keys.sampling(field.id, uuid), ...Sampling.toItem(sampling) }, NOT_EXISTS),
      tx.put({ ...keys.samplingRef(uuid), kind: 'sampling_ref', field_id: field.id }, NOT_EXISTS, () => new Conflict(`sampling ${uuid} exists`)),
    ]);
  } catch (error) {
    if (error instanceof Conflict) return located(uuid, field.id); // the same uuid sent twice at once
    throw error;
  }
  return sampling;
}

/** The sampling of a uuid; `fieldId` when its ref was already read. */
async function located(uuid: string, fieldId?: number): Promise<Sampling> {
  const field = fieldId ?? Number((await getItem(keys.samplingRef(uuid)))?.field_id);
  const item = Number.isInteger(field) ? await getItem(keys.sampling(field, uuid)) : undefined;
  if (!item) throw new NotFound(`sampling ${uuid} not found`);
  return Sampling.fromItem(item);
}

/** Closes (or reopens, with null) a sampling. */
export async function closeSampling(uuid: string, closedAt: string | null): Promise<Sampling> {
  const sampling = await located(uuid.toLowerCase());
  await updateItem(keys.sampling(sampling.fieldId, sampling.uuid), { expression: 'SET closed_at = :at', condition: 'attribute_exists(pk)', values: { ':at': closedAt } });
  return { ...sampling, closedAt };
}

/** The samplings of a field (or the one of a uuid) the caller can read, with that field; -11 for a field it cannot. */
async function samplingsFor(principal: Principal, filter: { fieldId?: number; samplingUuid?: string }): Promise<{ field?: Field; samplings: Sampling[] }> {
  const readable = (fieldId: number) => fieldFor(principal, fieldId, 'read', { notFound: insufficient, forbidden: insufficient });
  if (filter.samplingUuid !== undefined) {
    const uuid = filter.samplingUuid.toLowerCase();
    const ref = await getItem(keys.samplingRef(uuid));
    if (!ref) return { samplings: [] };
    const { field } = await readable(Number(ref.field_id));
    return { field, samplings: [await located(uuid, field.id)] };
  }
  if (filter.fieldId === undefined) throw new Invalid('send field_id or sampling_uuid', { code: SAMPLING_CODES.WRONG_FORMAT });
  const { field } = await readable(filter.fieldId);
  return { field, samplings: (await queryAll(keys.samplingsOfField(field.id))).map(Sampling.fromItem) };
}

const sample = (spot: Spot, analysis: Record<string, AnalysisVariable[]>) => {
  const names = Object.keys(analysis);
  return {
    code: spot.code,
    spot_uuid: spot.uuid,
    spot_data: {
      variables: (spot.variables ?? []).map((v) => ({ name: v.name, ...(typeof v.value === 'number' ? { value: v.value } : {}), unit_id: v.unit_id })),
      // the analysis a sample is for: the one its spot is named after, else the sampling's first
      sampling: { analysis: (spot.name && names.includes(spot.name) ? spot.name : names[0]) ?? '' },
    },
  };
};

/** GET /api/sampling: each sampling with its groups' samples (the spots of its sample set). */
export async function readSamplings(principal: Principal, filter: { fieldId?: number; samplingUuid?: string }) {
  const { field, samplings } = await samplingsFor(principal, filter);
  return Promise.all(
    samplings.map(async (s) => {
      const { spots } = await spotsService.listSpots(principal, { fieldId: s.fieldId, sampleSetUuid: s.sampleSetUuid }, { page: 0, pageSize: -1 });
      return {
        sampling_uuid: s.uuid,
        sampling_name: s.name,
        sample_set_uuid: s.sampleSetUuid,
        field_id: s.fieldId,
        field_uuid: field?.uuid ?? null,
        yeargroup: s.yeargroup,
        created_at: s.createdAt,
        closed_at: s.closedAt,
        group_assigned_id: s.groupAssignedId,
        zoning: s.zoning,
        analysis: s.analysis,
        groups: s.groups.map((g) => ({ ...g, samples: spots.filter((spot) => spot.groupUuid === g.group_uuid).map((spot) => sample(spot, s.analysis)) })),
        points: s.points,
      };
    }),
  );
}

/** GET /api/sampling/analysis: what each sampling analyses, by field, farm or uuid. */
export async function samplingAnalyses(principal: Principal, filter: { fieldId?: number; farmId?: number; samplingUuid?: string }) {
  let samplings: Sampling[];
  let farmId: number;
  if (filter.samplingUuid !== undefined || filter.fieldId !== undefined) {
    const found = await samplingsFor(principal, filter);
    samplings = found.samplings;
    farmId = found.field?.farmId ?? 0;
  } else if (filter.farmId !== undefined) {
    await farmFor(principal, filter.farmId, 'read', { notFound: insufficient, forbidden: insufficient });
    const fieldIds = (await readableFields(principal)).filter((entry) => entry.farm.id === filter.farmId).map((entry) => entry.field.id);
    samplings = (await Promise.all(fieldIds.map((id) => queryAll(keys.samplingsOfField(id))))).flat().map(Sampling.fromItem);
    farmId = filter.farmId;
  } else {
    throw new Invalid('send field_id, farm_id or sampling_uuid', { code: SAMPLING_CODES.WRONG_FORMAT });
  }
  // one field, or the fields of one farm: every sampling is of that farm
  return samplings.map((s) => ({
    farm_id: farmId,
    field_id: s.fieldId,
    sampling_name: s.name,
    sampling_uuid: s.uuid,
    sample_set_uuid: s.sampleSetUuid,
    zoning: s.zoning,
    analysis: s.analysis,
  }));
}

/** What points to a sampling from outside its field's partition (lib/fields/cleanup.ts deletes it with the field). */
export const samplingPointers = (item: Record<string, unknown>) => [keys.samplingRef(String(item.sampling_uuid))];
