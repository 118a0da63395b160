// Fields (spec 2): POST /api/agregarlote creates a field in an existing farm or in the caller's
// farm of a name (created when absent), with its hectares counted against the owner's and
// workspace quotas in the same write; GET /api/borrarlotes deletes it and gives its hectares back
// (what else hangs from the field is removed by the worker, FIELD_DELETED.V1).
//
// The service is built from its repository, the gate, the platform's users and the publisher
// (services take them as parameters): its rules run against DynamoDB in the functions
// (lib/fields/repository.ts, wired in lib/fields/instance.ts) and against memory in
// tests/unit/fields.test.ts.

import type { Principal } from '../auth/principal';
import type { FieldGate } from '../authz/gate';
import { retryLostRace } from '../db/retry';
import { Conflict, type DomainError, Forbidden, NotFound } from '../errors';
import { geometryKit } from '../geo/geometry';
import { log } from '../log';
import type { Farm, Field, Space, User } from '../platform/model';
import { newUuid } from '../util/uuid';
import { FIELD_CODES, FIELD_DELETE_CODES } from './codes';
import { countryOf } from './country';
import { FIELD_DELETED_JOB } from './jobs';
import type { HectareCharge } from './quota';
import {
  checkFarmName,
  checkFieldArea,
  checkFieldExtent,
  checkFieldName,
  quotaCeiling,
  spaceQuotaExceeded,
  userQuotaExceeded,
} from './rules';
import { fieldShapeFrom } from './shape';

/** Where fields and farms are written. */
export interface FieldRepository {
  nextId(sequence: 'field' | 'farm'): Promise<number>;
  /** The id of the owner's farm with this name (case-insensitive), if any. */
  farmIdByName(ownerId: number, farmName: string): Promise<number | undefined>;
  farm(farmId: number): Promise<Farm | undefined>;
  /**
   * Stores a field (its name unique in the farm: `nameTaken`) with its hectares charged, in its farm,
   * which is created with it when `newFarm` (a LostRace when the owner made a farm of that name meanwhile).
   */
  create(
    change: { field: Field; farm: Farm; newFarm: boolean; charge: HectareCharge },
    nameTaken: () => DomainError,
  ): Promise<void>;
  /** Deletes a field (`notFound` when it is gone), giving its hectares back when charged. */
  remove(field: Field, charge: HectareCharge | undefined, notFound: () => DomainError): Promise<void>;
}

export interface FieldDeps {
  repository: FieldRepository;
  gate: FieldGate;
  users: (userId: number) => Promise<User | undefined>;
  spaces: (spaceId: number) => Promise<Space | undefined>;
  publish: (name: string, data: Record<string, unknown>) => Promise<unknown>;
  /** Asks for a new field's satellite imagery, its newest scene first (docs/imagery.md, "Lanes"). */
  requestImagery?: (fieldId: number, ownerId: number) => Promise<unknown>;
  maxFieldHectares: () => number;
  now?: () => Date;
}

export interface CreateFieldInput {
  name: string;
  shape: string;
  farmId?: number;
  farmName?: string;
}

/** POST /api/agregarlote. */
export function fieldCreationService({
  repository,
  gate,
  users,
  spaces,
  maxFieldHectares,
  requestImagery,
  now = () => new Date(),
}: Omit<FieldDeps, 'publish'>) {
  /** The farm the field goes to: an existing farm the caller may add fields to, or one of its own by name. */
  async function targetFarm(
    principal: Principal,
    input: CreateFieldInput,
  ): Promise<{ farm?: Farm; newFarmName?: string }> {
    if (input.farmId !== undefined) {
      const refuse = () =>
        new Forbidden(`farm ${input.farmId} does not exist or the user cannot add fields to it`, {
          code: FIELD_CODES.USER_DATA,
        });
      return {
        farm: (await gate.farm(principal, input.farmId, 'addField', { notFound: refuse, forbidden: refuse })).farm,
      };
    }
    const farmName = checkFarmName(input.farmName ?? '');
    const existingId = await repository.farmIdByName(principal.user.id, farmName);
    const farm = existingId !== undefined ? await repository.farm(existingId) : undefined;
    return farm ? { farm } : { newFarmName: farmName };
  }

  return {
    async createField(principal: Principal, input: CreateFieldInput): Promise<{ fieldId: number; farmId: number }> {
      const name = checkFieldName(input.name);
      const shape = fieldShapeFrom(await geometryKit(), input.shape, now().toISOString().slice(0, 10));
      checkFieldArea(shape.areaHa, maxFieldHectares());
      checkFieldExtent(shape.bounds);

      const created = await retryLostRace(async () => {
        const { farm, newFarmName } = await targetFarm(principal, input);
        const owner = farm ? await users(farm.ownerId) : principal.user;
        if (!owner) throw new Forbidden('the owner of the farm no longer exists', { code: FIELD_CODES.USER_DATA });
        const space = await spaces(owner.spaceId);
        if (!space) throw new Forbidden("the user's workspace does not exist", { code: FIELD_CODES.USER_DATA });
        const charge: HectareCharge = {
          userId: owner.id,
          spaceId: space.id,
          deltaHa: shape.areaHa,
          userCeiling: quotaCeiling(owner.hectareQuota, shape.areaHa, userQuotaExceeded),
          spaceCeiling: quotaCeiling(space.hectareQuota, shape.areaHa, spaceQuotaExceeded),
        };
        const fieldId = await repository.nextId('field');
        const at = now().toISOString();
        const target: Farm = farm ?? {
          id: await repository.nextId('farm'),
          uuid: newUuid(),
          name: newFarmName!,
          ownerId: owner.id,
          createdAt: at,
          deletingFieldIds: [],
        };
        const field: Field = {
          id: fieldId,
          uuid: newUuid(),
          farmId: target.id,
          ownerId: owner.id,
          name,
          country: countryOf(shape.centroid),
          shape,
          shapeCampaigns: [],
          hectaresCharged: shape.areaHa,
          createdAt: at,
          createdBy: principal.user.id,
        };
        await repository.create(
          { field, farm: target, newFarm: !farm, charge },
          () => new Conflict(`a field named '${name}' already exists in the farm`, { code: FIELD_CODES.NAME_REPEATED }),
        );
        return { fieldId, farmId: target.id, ownerId: owner.id };
      });
      // The field exists whatever happens here: a lost imagery request is made good by the daily
      // schedule. Its webhook event (FIELD_CREATED.V1) comes from the table's stream, as its feed
      // entry does (lib/webhooks/record-events.ts).
      await requestImagery?.(created.fieldId, created.ownerId).catch((error: unknown) =>
        log.warn('imagery not requested for the new field', { fieldId: created.fieldId, error }),
      );
      return { fieldId: created.fieldId, farmId: created.farmId };
    },
  };
}

/** GET /api/borrarlotes. */
export function fieldDeletionService({
  repository,
  gate,
  users,
  publish,
}: Pick<FieldDeps, 'repository' | 'gate' | 'users' | 'publish'>) {
  return {
    async deleteField(principal: Principal, fieldId: number): Promise<Field> {
      const notFound = () => new NotFound(`field ${fieldId} not found`, { code: FIELD_DELETE_CODES.NOT_FOUND });
      const { field } = await gate.field(principal, fieldId, 'deleteField', {
        notFound,
        forbidden: () =>
          new Forbidden('the user lacks permission to delete this field', { code: FIELD_DELETE_CODES.NO_PERMISSION }),
      });
      const owner = await users(field.ownerId);
      const charge = owner
        ? {
            userId: owner.id,
            spaceId: owner.spaceId,
            deltaHa: -field.hectaresCharged,
            userCeiling: null,
            spaceCeiling: null,
          }
        : undefined;
      await repository.remove(field, charge, notFound);
      // the cleanup job (its webhook event, FIELD_DELETED.V1, comes from the table's stream)
      await publish(FIELD_DELETED_JOB, { field_id: field.id, farm_id: field.farmId });
      return field;
    },
  };
}

/** The whole service. */
export function fieldsService(deps: FieldDeps) {
  return { ...fieldCreationService(deps), ...fieldDeletionService(deps) };
}
