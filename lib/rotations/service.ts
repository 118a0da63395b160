// Rotations (spec 2): crops assigned to a field for a campaign (yeargroup) without a sowing
// record. A field has at most one campaign per yeargroup; its id is the rotation's `cicle_id`.
// `crop_order` is the position of the rotation in its campaign by start date (then creation).
//
// The service is built from its repository and field gate (services take them as parameters): its
// rules run against DynamoDB in the functions (lib/rotations/repository.ts) and against memory in
// tests/unit/rotations.test.ts.
import type { Principal } from '../auth/principal';
import { can } from '../authz/access';
import { farmReach } from '../authz/by-farm';
import type { FieldGate, FieldInScope } from '../authz/gate';
import type { Crop } from '../crops/catalogue';
import { as, type EntityOf, entity, nullable, num, numOr, str } from '../db/entity';
import { keys } from '../db/keys';
import { retryLostRace } from '../db/retry';
import { Conflict, DomainError, Forbidden, Invalid, NotFound } from '../errors';
import type { Farm, Field, FieldRef } from '../platform/model';
import { mapLimit } from '../util/map-limit';
import { newUuid } from '../util/uuid';
import { NOT_ALLOWED_MESSAGE, ROTATION_CODES } from './codes';

/** Tolerance on the field's area when checking `ha` (rounding of client-side areas). */
const AREA_TOLERANCE = 1.005;

export type RotationMetadata = Record<string, unknown>;

/** A crop of a field in a campaign (yeargroup). */
export const Rotation = entity(
  'rotation',
  {
    uuid: str('rotation_uuid'),
    fieldId: num('field_id'),
    /** The field's farm (0 in a rotation written before it was kept: the service sets it from the field). */
    farmId: numOr('farm_id', 0),
    /**
     * Its field's uuid and name (neither ever changes): a list by farm shows them without reading the
     * field. Null in a rotation written before they were kept (its next write keeps them).
     */
    fieldUuid: nullable(str('field_uuid')),
    fieldName: nullable(str('field_name')),
    yeargroup: num('yeargroup'),
    cycleId: num('cicle_id'),
    cropId: num('crop_id'),
    startDate: str('start_date'),
    endDate: str('end_date'),
    ha: num('ha'),
    yieldCrop: nullable(num('yield_crop')),
    mapId: nullable(num('map_id')),
    varietyIds: as<number[]>('variety_ids', []),
    metadata: as<RotationMetadata | null>('metadata', null),
    createdAt: str('created_at'),
    version: numOr('version', 1),
  },
  // a farm's rotations in one query (gsi1), whatever the number of its fields
  { derived: (r) => keys.rotationByFarmIndex(r.farmId, r.yeargroup, r.fieldId, r.uuid) },
);
export type Rotation = EntityOf<typeof Rotation>;

/** A rotation with what its wire form shows of its field, farm and crop. */
export interface RotationView extends Rotation {
  field: FieldRef;
  farm: Farm;
  crop: Crop | undefined;
  cropOrder: number;
}

/** Where rotations are kept. */
export interface RotationRepository {
  rotationsOf(fieldId: number): Promise<Rotation[]>;
  /**
   * A farm's rotations, of one campaign (yeargroup) and of one field of it when given: one query
   * whatever the farm's size (an index of the farm's rotations, eventually consistent), or the
   * field's partition for one field's of every campaign.
   */
  rotationsIn(farmId: number, yeargroup?: number, fieldId?: number): Promise<Rotation[]>;
  /** Whether every rotation is in the farms' index (its backfill is done): else a list reads field by field. */
  indexed(): Promise<boolean>;
  rotation(fieldId: number, uuid: string): Promise<Rotation | undefined>;
  /** The fields holding a rotation of this uuid (a uuid names a rotation within its field). */
  rotationFields(uuid: string): Promise<number[]>;
  /** Stores a new rotation (a Conflict when its uuid is taken in the field meanwhile). */
  create(rotation: Rotation): Promise<void>;
  /** Stores the next version of a rotation read at `rotation.version` (a LostRace when it changed meanwhile). */
  save(rotation: Rotation): Promise<void>;
  /** The id (`cicle_id`) of the field's campaign of a yeargroup, made on first use. */
  campaignId(fieldId: number, yeargroup: number): Promise<number>;
}

export interface RotationDeps {
  repository: RotationRepository;
  fields: FieldGate;
  /** A crop of the catalogue or of the user's own. */
  crops: (userId: number, cropId: number) => Promise<Crop | undefined>;
  now?: () => Date;
}

/** Position of each rotation in its campaign (yeargroup), starting at 1: by start date, then creation. */
export function cropOrders(rotations: Rotation[]): Map<string, number> {
  const orders = new Map<string, number>();
  const byCampaign = new Map<number, Rotation[]>();
  for (const r of rotations) byCampaign.set(r.yeargroup, [...(byCampaign.get(r.yeargroup) ?? []), r]);
  for (const list of byCampaign.values()) {
    list
      .sort(
        (a, b) =>
          a.startDate.localeCompare(b.startDate) ||
          a.createdAt.localeCompare(b.createdAt) ||
          a.uuid.localeCompare(b.uuid),
      )
      .forEach((r, index) => {
        orders.set(r.uuid, index + 1);
      });
  }
  return orders;
}

// --- listing --------------------------------------------------------------------------------

export interface RotationFilters {
  yeargroup?: number;
  fieldsId?: number[];
  fieldsUuid?: string[];
  farmsId?: number[];
  farmsUuid?: string[];
}

/** Filter priority (spec): fields_id, else fields_uuid, else farms_id, else farms_uuid. */
export function selectFields(fields: FieldInScope[], filters: RotationFilters): FieldInScope[] {
  if (filters.fieldsId) return fields.filter((f) => filters.fieldsId!.includes(f.field.id));
  if (filters.fieldsUuid) {
    const wanted = new Set(filters.fieldsUuid.map((u) => u.toLowerCase()));
    return fields.filter((f) => wanted.has(f.field.uuid.toLowerCase()));
  }
  if (filters.farmsId) return fields.filter((f) => filters.farmsId!.includes(f.farm.id));
  if (filters.farmsUuid) {
    const wanted = new Set(filters.farmsUuid.map((u) => u.toLowerCase()));
    return fields.filter((f) => wanted.has(f.farm.uuid.toLowerCase()));
  }
  return fields;
}

const notFound = (uuid: string) => new NotFound(`rotation ${uuid} not found`);
const notAllowed = () => new Forbidden(NOT_ALLOWED_MESSAGE, { code: ROTATION_CODES.NOT_ALLOWED });

export interface RotationInput {
  fieldId: number;
  cropId: number;
  yeargroup: number;
  startDate: string;
  endDate: string;
  ha?: number;
  yieldCrop?: number | null;
  metadata?: RotationMetadata | null;
  /** Client-supplied uuid: a repeated create returns the rotation already made. */
  uuid?: string;
}

/** One item of a batch: its input when it was well formed, else why it was not. */
export type RotationRequest = { input: RotationInput } | { malformed: string };

export interface RotationBatch {
  created: RotationView[];
  /** The items not created, by position, with the reason. */
  refused: Array<{ index: number; code: number | string; message: string }>;
}

export interface RotationChanges {
  ha?: number;
  cropId?: number;
  startDate?: string;
  endDate?: string;
}

export interface VarietyChoice {
  id: number;
  name: string;
  selected: boolean;
}

function checkDates(startDate: string, endDate: string): void {
  if (Date.parse(endDate) < Date.parse(startDate)) {
    throw new Invalid('end_date is before start_date', { code: ROTATION_CODES.INVALID_DATES });
  }
}

function checkMetadata(metadata: RotationMetadata | null | undefined, field: Field): void {
  if (metadata && metadata.DGC !== undefined && metadata.DGC !== null && field.country !== 'ES') {
    throw new Invalid('DGC applies only to fields in Spain', { code: ROTATION_CODES.WRONG_FORMAT });
  }
}

interface Located {
  rotation: Rotation;
  field: Field;
  farm: Farm;
  canWrite: boolean;
}

export function rotationsService({ repository, fields, crops, now = () => new Date() }: RotationDeps) {
  async function views(
    userId: number,
    field: FieldRef,
    farm: Farm,
    rotations: Rotation[],
    all?: Rotation[],
    found = new Map<number, Crop | undefined>(),
  ): Promise<RotationView[]> {
    const orders = cropOrders(all ?? rotations);
    // a list passes one `found` for all its fields: a crop is looked up once
    for (const id of new Set(rotations.map((r) => r.cropId)))
      if (!found.has(id)) found.set(id, await crops(userId, id));
    return rotations.map((r) => ({ ...r, field, farm, crop: found.get(r.cropId), cropOrder: orders.get(r.uuid) ?? 1 }));
  }

  /** The rotation of a uuid in a field the caller can read (a uuid names a rotation within its field). */
  async function locate(principal: Principal, uuid: string): Promise<Located> {
    const refuse = () => notFound(uuid);
    const { field, farm, access } = await fields.among(principal, await repository.rotationFields(uuid), 'read', {
      notFound: refuse,
      forbidden: refuse,
    });
    const found = await repository.rotation(field.id, uuid);
    if (!found) throw notFound(uuid);
    // a rotation written before it kept its farm (and its field's uuid and name) takes them from its
    // field (its next write indexes it)
    const rotation = { ...found, farmId: field.farmId, fieldUuid: field.uuid, fieldName: field.name };
    return { rotation, field, farm, canWrite: can(access, 'write') };
  }

  async function getRotation(principal: Principal, uuid: string): Promise<RotationView> {
    const { rotation, field, farm } = await locate(principal, uuid);
    const [view] = await views(principal.user.id, field, farm, [rotation], await repository.rotationsOf(field.id));
    return view!;
  }

  async function checkHectares(field: Field, yeargroup: number, ha: number): Promise<void> {
    const shape = await fields.shape(field, yeargroup);
    if (ha > shape.areaHa * AREA_TOLERANCE) {
      throw new Invalid(`ha (${ha}) exceeds the field's ${shape.areaHa.toFixed(2)} ha`, {
        code: ROTATION_CODES.HECTARES_EXCEED_FIELD,
      });
    }
  }

  async function requireCrop(userId: number, cropId: number): Promise<Crop> {
    const crop = await crops(userId, cropId);
    if (!crop) throw new Invalid(`crop ${cropId} does not exist`, { code: ROTATION_CODES.INVALID_CROP });
    return crop;
  }

  async function createRotation(principal: Principal, input: RotationInput): Promise<RotationView> {
    const userId = principal.user.id;
    // A field the caller cannot change, or cannot even read, is one answer: not allowed (-11).
    const { field, farm } = await fields.field(principal, input.fieldId, 'write', {
      notFound: notAllowed,
      forbidden: notAllowed,
    });
    if (input.uuid) {
      // sent again to this field: the rotation made the first time; a rotation of this uuid the
      // caller can see in another field conflicts; others' rotations do not exist for it
      const holders = await repository.rotationFields(input.uuid);
      if (holders.includes(field.id)) return getRotation(principal, input.uuid);
      if (await fields.readsAny(principal, holders))
        throw new Conflict(`rotation ${input.uuid} exists in another field`, { code: ROTATION_CODES.WRONG_FORMAT });
    }
    await requireCrop(userId, input.cropId);
    checkDates(input.startDate, input.endDate);
    checkMetadata(input.metadata, field);
    const ha = input.ha ?? (await fields.shape(field, input.yeargroup)).areaHa;
    await checkHectares(field, input.yeargroup, ha);
    const rotation: Rotation = {
      uuid: (input.uuid ?? newUuid()).toLowerCase(),
      fieldId: field.id,
      farmId: field.farmId,
      fieldUuid: field.uuid,
      fieldName: field.name,
      yeargroup: input.yeargroup,
      cycleId: await repository.campaignId(field.id, input.yeargroup),
      cropId: input.cropId,
      startDate: input.startDate,
      endDate: input.endDate,
      ha,
      yieldCrop: input.yieldCrop ?? null,
      mapId: null,
      varietyIds: [],
      metadata: input.metadata ?? null,
      createdAt: now().toISOString(),
      version: 1,
    };
    try {
      await repository.create(rotation);
    } catch (error) {
      // The same client uuid sent twice at once: the other request created it.
      if (input.uuid && error instanceof Conflict) return getRotation(principal, rotation.uuid);
      throw error;
    }
    const [view] = await views(userId, field, farm, [rotation], await repository.rotationsOf(field.id));
    return view!;
  }

  async function update(
    principal: Principal,
    uuid: string,
    change: (located: Located) => Promise<Rotation>,
  ): Promise<RotationView> {
    await retryLostRace(async () => {
      const located = await locate(principal, uuid);
      if (!located.canWrite) throw notAllowed();
      await repository.save(await change(located));
    });
    return getRotation(principal, uuid);
  }

  async function varietiesOf(principal: Principal, uuid: string): Promise<VarietyChoice[]> {
    const view = await getRotation(principal, uuid);
    return (view.crop?.varieties ?? []).map((v) => ({
      id: v.id,
      name: v.name,
      selected: view.varietyIds.includes(v.id),
    }));
  }

  return {
    getRotation,
    varietiesOf,

    async listRotations(principal: Principal, filters: RotationFilters): Promise<RotationView[]> {
      const result: RotationView[] = [];
      const cropsFound = new Map<number, Crop | undefined>();
      const byField = async (selected: FieldInScope[]) => {
        for (const entry of selected) {
          const all = await repository.rotationsOf(entry.field.id);
          const wanted = filters.yeargroup === undefined ? all : all.filter((r) => r.yeargroup === filters.yeargroup);
          result.push(...(await views(principal.user.id, entry.field, entry.farm, wanted, all, cropsFound)));
        }
      };
      if (filters.fieldsId) {
        // a client naming its fields by id reads those only (a query each: as many as it names)
        await byField(selectFields(await fields.readableOf(principal, filters.fieldsId), filters));
      } else if (filters.fieldsUuid || !(await repository.indexed())) {
        // by uuid (rarely many), or before the farms' index holds every rotation: field by field
        await byField(selectFields(await fields.readable(principal), filters));
      } else {
        // one query per farm the caller reads whole and one per field shared alone (the farms'
        // index, lib/authz/by-farm.ts), then the profiles of the fields answered only
        const farmsId = filters.farmsId;
        const farmsUuid = filters.farmsUuid && new Set(filters.farmsUuid.map((u) => u.toLowerCase()));
        const reach = await farmReach(
          fields,
          principal,
          (farm) => !farmsUuid || farmsUuid.has(farm.uuid.toLowerCase()),
          farmsId,
        );
        const found = (
          await mapLimit(
            [
              ...reach.wholeFarms.map((farm) => ({ farm, fieldId: undefined })),
              ...reach.singleFields.map(({ farm, fieldId }) => ({ farm, fieldId })),
            ],
            8,
            ({ farm, fieldId }) => repository.rotationsIn(farm.id, filters.yeargroup, fieldId),
          )
        ).flat();
        const ofField = new Map<number, Rotation[]>();
        for (const r of found) ofField.set(r.fieldId, [...(ofField.get(r.fieldId) ?? []), r]);
        // a field deleted (its rotations not yet cleaned up) or not readable: not answered (a rotation
        // names its field: no field read, but for rotations written before they did)
        const readable = await reach.fieldsOf(found);
        for (const [fieldId, list] of ofField) {
          const scope = readable.get(fieldId);
          if (scope) result.push(...(await views(principal.user.id, scope.field, scope.farm, list, list, cropsFound)));
        }
      }
      return result.sort((a, b) => a.fieldId - b.fieldId || a.yeargroup - b.yeargroup || a.cropOrder - b.cropOrder);
    },

    createRotation,

    /**
     * Spec 2: a POST creates what it can and lists the rest with a reason. Each rotation is written on
     * its own (a rotation is one record; a client uuid makes a retried item harmless); an item that
     * breaks a rule is refused with the rule's code, a failure that is not the item's ends the call.
     */
    async createRotations(principal: Principal, requests: RotationRequest[]): Promise<RotationBatch> {
      const batch: RotationBatch = { created: [], refused: [] };
      for (const [index, request] of requests.entries()) {
        if ('malformed' in request) {
          batch.refused.push({ index, code: ROTATION_CODES.WRONG_FORMAT, message: request.malformed });
          continue;
        }
        try {
          batch.created.push(await createRotation(principal, request.input));
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind === 'internal') throw error;
          batch.refused.push({ index, code: error.code ?? ROTATION_CODES.WRONG_FORMAT, message: error.message });
        }
      }
      // A later item may start before an earlier one: each created rotation answers its position
      // among all of its field's rotations once the whole batch is written, as a list would show it.
      const orders = new Map<string, number>();
      for (const fieldId of new Set(batch.created.map((view) => view.fieldId))) {
        for (const [uuid, order] of cropOrders(await repository.rotationsOf(fieldId))) orders.set(uuid, order);
      }
      batch.created = batch.created.map((view) => ({ ...view, cropOrder: orders.get(view.uuid) ?? view.cropOrder }));
      return batch;
    },

    patchRotation(principal: Principal, uuid: string, changes: RotationChanges): Promise<RotationView> {
      return update(principal, uuid, async ({ rotation, field }) => {
        const next = { ...rotation };
        if (changes.cropId !== undefined && changes.cropId !== rotation.cropId) {
          const crop = await requireCrop(principal.user.id, changes.cropId);
          next.cropId = crop.id;
          // Varieties belong to a crop: those of the previous crop no longer apply.
          next.varietyIds = rotation.varietyIds.filter((id) => crop.varieties.some((v) => v.id === id));
        }
        if (changes.startDate !== undefined) next.startDate = changes.startDate;
        if (changes.endDate !== undefined) next.endDate = changes.endDate;
        checkDates(next.startDate, next.endDate);
        if (changes.ha !== undefined) {
          await checkHectares(field, rotation.yeargroup, changes.ha);
          next.ha = changes.ha;
        }
        return next;
      });
    },

    async addVarieties(principal: Principal, uuid: string, varietyIds: number[]): Promise<VarietyChoice[]> {
      await update(principal, uuid, async ({ rotation }) => {
        const crop = await requireCrop(principal.user.id, rotation.cropId);
        const unknown = varietyIds.filter((id) => !crop.varieties.some((v) => v.id === id));
        if (unknown.length) {
          throw new Invalid(`varieties ${unknown.join(', ')} are not varieties of ${crop.name}`, {
            code: ROTATION_CODES.WRONG_FORMAT,
          });
        }
        return { ...rotation, varietyIds: [...new Set([...rotation.varietyIds, ...varietyIds])] };
      });
      return varietiesOf(principal, uuid);
    },

    async removeVariety(principal: Principal, uuid: string, varietyId: number): Promise<VarietyChoice[]> {
      await update(principal, uuid, async ({ rotation }) => ({
        ...rotation,
        varietyIds: rotation.varietyIds.filter((id) => id !== varietyId),
      }));
      return varietiesOf(principal, uuid);
    },
  };
}
