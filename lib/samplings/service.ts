// Soil samplings (spec 3): read by extensions through /api/sampling, created and closed by the
// platform through the internal API. A sampling lives in its field's partition (deleted with it);
// a ref finds it by uuid. Its samples are read from the spots of its sample set.
//
// The service is built from its repository, the gate, the platform's fields and the spots it reads
// (services take them as parameters): its rules run against DynamoDB in the functions
// (lib/samplings/repository.ts) and against memory in tests/unit/samplings.test.ts.
import type { Principal } from '../auth/principal';
import { farmReach } from '../authz/by-farm';
import type { FieldGate } from '../authz/gate';
import { Forbidden, Invalid, NotFound } from '../errors';
import type { Field } from '../platform/model';
import type { Spot } from '../spots/model';
import { mapLimit } from '../util/map-limit';
import { isoSeconds } from '../util/time';
import { newUuid } from '../util/uuid';
import { SAMPLING_CODES } from './codes';
import type { AnalysisVariable, Sampling, SamplingGroup, SamplingPoint, SamplingZoning } from './model';

const insufficient = () => new Forbidden('insufficient permissions', { code: SAMPLING_CODES.INSUFFICIENT_PERMISSIONS });

/** Where samplings are kept. */
export interface SamplingRepository {
  /** The field of the sampling of a uuid. */
  fieldOf(uuid: string): Promise<number | undefined>;
  sampling(fieldId: number, uuid: string): Promise<Sampling | undefined>;
  samplingsOf(fieldId: number): Promise<Sampling[]>;
  /** A farm's samplings (those of one field of it), by field then uuid, from the farm's index. */
  samplingsOfFarm(farmId: number, fieldId?: number): Promise<Sampling[]>;
  /** Whether the farms' index holds every sampling (its backfill is done). */
  byFarm(): Promise<boolean>;
  /** Stores a new sampling; false when its uuid was taken meanwhile. */
  create(sampling: Sampling): Promise<boolean>;
  setClosed(sampling: Sampling, closedAt: string | null): Promise<void>;
}

export interface SamplingDeps {
  repository: SamplingRepository;
  fields: FieldGate;
  /** A field by id, for the platform's own calls (the internal API has no caller to check). */
  fieldById: (fieldId: number) => Promise<Field | undefined>;
  /** The spots of a sample set in a field, as the caller reads them. */
  samplesOf: (principal: Principal, fieldId: number, sampleSetUuid: string) => Promise<Spot[]>;
  now?: () => Date;
}

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

const sample = (spot: Spot, analysis: Record<string, AnalysisVariable[]>) => {
  const names = Object.keys(analysis);
  return {
    code: spot.code,
    spot_uuid: spot.uuid,
    spot_data: {
      variables: (spot.variables ?? []).map((v) => ({
        name: v.name,
        ...(typeof v.value === 'number' ? { value: v.value } : {}),
        unit_id: v.unit_id,
      })),
      // the analysis a sample is for: the one its spot is named after, else the sampling's first
      sampling: { analysis: (spot.name && names.includes(spot.name) ? spot.name : names[0]) ?? '' },
    },
  };
};

export function samplingsService({ repository, fields, fieldById, samplesOf, now = () => new Date() }: SamplingDeps) {
  /** The sampling of a uuid; `fieldId` when its field is already known. */
  async function located(uuid: string, fieldId?: number): Promise<Sampling> {
    const field = fieldId ?? (await repository.fieldOf(uuid));
    const sampling = field !== undefined ? await repository.sampling(field, uuid) : undefined;
    if (!sampling) throw new NotFound(`sampling ${uuid} not found`);
    return sampling;
  }

  /** The samplings of a field (or the one of a uuid) the caller can read, with that field; -11 for a field it cannot. */
  async function samplingsFor(
    principal: Principal,
    filter: { fieldId?: number; samplingUuid?: string },
  ): Promise<{ field?: Field; samplings: Sampling[] }> {
    const readable = (fieldId: number) =>
      fields.field(principal, fieldId, 'read', { notFound: insufficient, forbidden: insufficient });
    if (filter.samplingUuid !== undefined) {
      // a sampling of a field the caller cannot read is answered as a uuid nobody used: an empty list
      const uuid = filter.samplingUuid.toLowerCase();
      const fieldId = await repository.fieldOf(uuid);
      const hidden = () => new NotFound('hidden');
      const scope =
        fieldId === undefined
          ? undefined
          : await fields
              .field(principal, fieldId, 'read', { notFound: hidden, forbidden: hidden })
              .catch((error) => (error instanceof NotFound ? undefined : Promise.reject(error)));
      if (!scope) return { samplings: [] };
      return { field: scope.field, samplings: [await located(uuid, scope.field.id)] };
    }
    if (filter.fieldId === undefined)
      throw new Invalid('send field_id or sampling_uuid', { code: SAMPLING_CODES.WRONG_FORMAT });
    const { field } = await readable(filter.fieldId);
    return { field, samplings: await repository.samplingsOf(field.id) };
  }

  return {
    /** POST /internal/samplings: a sampling of a field; a repeated uuid answers the sampling made the first time. */
    async createSampling(input: SamplingInput): Promise<Sampling> {
      const field = await fieldById(input.fieldId);
      if (!field) throw new NotFound(`field ${input.fieldId} not found`);
      const uuid = (input.uuid ?? newUuid()).toLowerCase();
      const existing = await repository.fieldOf(uuid);
      if (existing !== undefined) return located(uuid, existing);
      const groups: SamplingGroup[] = input.groups.map((g) => ({
        group_uuid: (g.group_uuid ?? newUuid()).toLowerCase(),
        group_data: { sampling: { color: g.color, name: g.name } },
      }));
      const groupUuids = new Set(groups.map((g) => g.group_uuid));
      const at = now().toISOString();
      const points: SamplingPoint[] = input.points.map((p) => {
        if (!groupUuids.has(p.group_uuid.toLowerCase())) throw new Invalid(`point of an unknown group ${p.group_uuid}`);
        return {
          point_uuid: (p.point_uuid ?? newUuid()).toLowerCase(),
          geometry: p.geometry,
          checked: p.checked ?? 0,
          created_at: at,
          group_uuid: p.group_uuid.toLowerCase(),
        };
      });
      const sampling: Sampling = {
        uuid,
        name: input.name,
        sampleSetUuid: (input.sampleSetUuid ?? newUuid()).toLowerCase(),
        fieldId: field.id,
        farmId: field.farmId,
        yeargroup: input.yeargroup,
        createdAt: at,
        closedAt: null,
        groupAssignedId: input.groupAssignedId ?? 0,
        zoning: input.zoning,
        analysis: input.analysis,
        groups,
        points,
      };
      // the same uuid sent twice at once: the other request made it
      if (!(await repository.create(sampling))) return located(uuid, field.id);
      return sampling;
    },

    /** Closes (or reopens, with null) a sampling. */
    async closeSampling(uuid: string, closedAt: string | null): Promise<Sampling> {
      const sampling = await located(uuid.toLowerCase());
      await repository.setClosed(sampling, closedAt);
      return { ...sampling, closedAt };
    },

    /** GET /api/sampling: each sampling with its groups' samples (the spots of its sample set). */
    async readSamplings(principal: Principal, filter: { fieldId?: number; samplingUuid?: string }) {
      const { field, samplings } = await samplingsFor(principal, filter);
      return Promise.all(
        samplings.map(async (s) => {
          const spots = await samplesOf(principal, s.fieldId, s.sampleSetUuid);
          return {
            sampling_uuid: s.uuid,
            sampling_name: s.name,
            sample_set_uuid: s.sampleSetUuid,
            field_id: s.fieldId,
            field_uuid: field?.uuid ?? null,
            yeargroup: s.yeargroup,
            created_at: isoSeconds(s.createdAt),
            closed_at: s.closedAt,
            group_assigned_id: s.groupAssignedId,
            zoning: s.zoning,
            analysis: s.analysis,
            groups: s.groups.map((g) => ({
              ...g,
              samples: spots.filter((spot) => spot.groupUuid === g.group_uuid).map((spot) => sample(spot, s.analysis)),
            })),
            points: s.points.map((p) => ({ ...p, created_at: isoSeconds(p.created_at) })),
          };
        }),
      );
    },

    /** GET /api/sampling/analysis: what each sampling analyses, by field, farm or uuid. */
    async samplingAnalyses(principal: Principal, filter: { fieldId?: number; farmId?: number; samplingUuid?: string }) {
      let samplings: Sampling[];
      let farmId: number;
      if (filter.samplingUuid !== undefined || filter.fieldId !== undefined) {
        const found = await samplingsFor(principal, filter);
        samplings = found.samplings;
        farmId = found.field?.farmId ?? 0;
      } else if (filter.farmId !== undefined) {
        await fields.farm(principal, filter.farmId, 'read', { notFound: insufficient, forbidden: insufficient });
        // the farm's samplings from its index (one query when the caller reads it whole, one per field
        // shared alone), kept by the caller's grants and the farm's fields being deleted: no field read
        const id = filter.farmId;
        const reach = await farmReach(fields, principal, undefined, [id]);
        if (await repository.byFarm()) {
          const found = reach.wholeFarms.some((farm) => farm.id === id)
            ? await repository.samplingsOfFarm(id)
            : (
                await mapLimit(
                  reach.singleFields.filter(({ farm }) => farm.id === id),
                  8,
                  ({ fieldId }) => repository.samplingsOfFarm(id, fieldId),
                )
              ).flat();
          samplings = found.filter((s) => reach.listedFarm(s.fieldId, id));
        } else {
          // before the backfill: the farm's fields the caller reads (its membership), each one's samplings
          const fieldIds = await reach.fieldIdsIn(id);
          samplings = (await mapLimit(fieldIds, 8, (fieldId) => repository.samplingsOf(fieldId))).flat();
        }
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
    },
  };
}
