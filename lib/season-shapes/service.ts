// Season shapes (spec 2): the polygon of a field for one campaign, its expansion limits and the
// reprocessing lock. State machine (spec table): allowed --POST, images to cut again--> reprocessing
// --job done (or lock expired)--> allowed; POST while reprocessing is refused with REPROCESSING.
//
// The service is built from its repository, the gate, the platform's users and the publisher
// (services take them as parameters): its rules run against DynamoDB in the functions
// (lib/season-shapes/repository.ts) and against memory in tests/unit/season-shapes.test.ts.
import type { Principal } from '../auth/principal';
import type { FieldGate } from '../authz/gate';
import { retryLostRace } from '../db/retry';
import { Conflict, DomainError, Forbidden, Invalid, NotFound } from '../errors';
import type { HectareCharge } from '../fields/quota';
import { quotaCeiling } from '../fields/rules';
import { fieldShapeFrom } from '../fields/shape';
import { GeometryError, type GeometryKit, geometryKit } from '../geo/geometry';
import { extentRefusal } from '../imagery/grid-bound';
import type { Field, FieldShape, Space, User } from '../platform/model';
import { shapeCampaignFor } from '../platform/shapes';
import { onFirstUse, preload } from '../util/first-use';
import { newUuid } from '../util/uuid';
import type { WebhookEmitter } from '../webhooks/emit';
import { SEASON_SHAPE_CODES } from './codes';
import { SHAPE_REPROCESS_JOB } from './jobs';
import type * as Limits from './limits';

/** The reprocessing lock of a field: taken by a new shape whose campaigns have images, until they are cut again or it expires. */
export interface ShapeLock {
  lockId: string;
  campaign: number;
  /** Epoch milliseconds. */
  startedAt: number;
  expiresAt: number;
}

/** A season shape stored with what it changes: the field's campaigns and charged hectares, the lock, the quotas. */
export interface ShapeSave {
  field: Field;
  campaign: number;
  shape: FieldShape;
  createdBy: number;
  /** The field's charged hectares after the save (the largest of its shapes). */
  charged: number;
  /** The lock taken (new ground to reprocess), or none: then no lock may be active at `now`. */
  lock?: ShapeLock;
  now: number;
  charge?: HectareCharge;
}

/** Where season shapes and locks are kept. */
export interface ShapeRepository {
  /** The field's lock, expired or not. */
  lock(fieldId: number): Promise<ShapeLock | undefined>;
  shape(fieldId: number, campaign: number): Promise<FieldShape | undefined>;
  /** Whether the field has satellite dates in the campaigns from `from` to `until` (inclusive; no end when absent). */
  hasImagery(fieldId: number, from: number, until?: number): Promise<boolean>;
  /**
   * Stores it all at once: a LostRace when the field's charged hectares changed meanwhile,
   * `reprocessing` when a lock is active, the quota refusals when a ceiling would be passed.
   */
  save(
    change: ShapeSave,
    refuse: { reprocessing: () => DomainError; userQuota: () => Forbidden; spaceQuota: () => Forbidden },
  ): Promise<void>;
}

export interface ShapeDeps {
  repository: ShapeRepository;
  gate: FieldGate;
  users: (userId: number) => Promise<User | undefined>;
  spaces: (spaceId: number) => Promise<Space | undefined>;
  /** Hands the reprocessing job to the worker, after a delay. */
  publish: (name: string, data: Record<string, unknown>, options: { delaySeconds: number }) => Promise<unknown>;
  /** Events for webhooks (docs/integrations.md). */
  emit?: WebhookEmitter;
  settings: () => { maxFieldHectares: number; shapeLockTimeoutSeconds: number; shapeReprocessDelaySeconds: number };
  now?: () => Date;
}

// The expansion limits (lib/season-shapes/limits.ts, with proj4: ~105 KB) are loaded on first use, like
// the geometry kit they work with (ADR 0008): reading a field's lock never needs them.
const limitsKit: () => Promise<typeof Limits> = /* @__PURE__ */ onFirstUse(() => import('./limits'));
/** The two kits the limits and a new shape need together; `preload(shapeKits)` starts both while the field is read. */
const shapeKits = () => Promise.all([geometryKit(), limitsKit()]);

const notEnoughQuota = () =>
  new Forbidden('the hectares of the new shape exceed the user quota', { code: SEASON_SHAPE_CODES.NOT_ENOUGH_QUOTA });
const notEnoughWorkspaceQuota = () =>
  new Forbidden('the hectares of the new shape exceed the workspace quota', {
    code: SEASON_SHAPE_CODES.NOT_ENOUGH_QUOTA_WORKSPACE,
  });
const reprocessing = () =>
  new Conflict('the previous shape is still being processed', { code: SEASON_SHAPE_CODES.REPROCESSING });

export interface ShapeInput {
  fieldId: number;
  campaign: number;
  shape: string;
}

export function shapesService({
  repository,
  gate,
  users,
  spaces,
  publish,
  emit,
  settings,
  now = () => new Date(),
}: ShapeDeps) {
  /** A field the caller can read; 404 otherwise (its existence is not revealed). */
  const readableField = (principal: Principal, fieldId: number, action: 'read' | 'modifyShape' = 'read') =>
    gate.field(principal, fieldId, action, {
      notFound: () => new NotFound(`field ${fieldId} not found`),
      forbidden: () => new Forbidden('the user lacks permission 220 (modify field shape) over the field'),
    });

  /** The field's lock while it is active (an expired lock is released). */
  async function activeLock(fieldId: number, at = now().getTime()): Promise<ShapeLock | undefined> {
    const lock = await repository.lock(fieldId);
    return lock && lock.expiresAt > at ? lock : undefined;
  }

  /** Largest area among the field's shapes once `campaign` has `areaHa`. */
  async function chargedHectares(field: Field, campaign: number, areaHa: number): Promise<number> {
    const others = await Promise.all(
      field.shapeCampaigns.filter((c) => c !== campaign).map((c) => repository.shape(field.id, c)),
    );
    return Math.max(
      field.shape.areaHa,
      areaHa,
      ...others.filter((s): s is FieldShape => Boolean(s)).map((s) => s.areaHa),
    );
  }

  function fieldShapeFromGeometry(geometry: GeometryKit, wkt: string) {
    try {
      return fieldShapeFrom(geometry, wkt, now().toISOString().slice(0, 10));
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'invalid')
        throw new Invalid(error.message, { code: SEASON_SHAPE_CODES.INVALID_GEOMETRY });
      throw error;
    }
  }

  return {
    async lockState(principal: Principal, fieldId: number): Promise<{ reprocessing: boolean }> {
      await readableField(principal, fieldId);
      if (await activeLock(fieldId)) throw reprocessing();
      return { reprocessing: false };
    },

    async limitsOf(principal: Principal, fieldId: number) {
      preload(shapeKits);
      const { field } = await readableField(principal, fieldId);
      const [kit, { expansionLimits }] = await shapeKits();
      const limits = expansionLimits(kit, field);
      return { limits4326: limits.wkt4326, limits3857: limits.wkt3857 };
    },

    async postShape(principal: Principal, input: ShapeInput): Promise<{ imagesReprocessing: boolean }> {
      preload(shapeKits);
      let ownerId = 0;
      const imagesReprocessing = await retryLostRace(async () => {
        const { field } = await readableField(principal, input.fieldId, 'modifyShape');
        ownerId = field.ownerId;
        if (await activeLock(field.id)) throw reprocessing();

        const [kit, { expansionLimits }] = await shapeKits();
        let geometry;
        try {
          geometry = kit.parseGeometry(input.shape, ['Polygon']);
        } catch (error) {
          if (error instanceof GeometryError)
            throw new Invalid(error.message, { code: SEASON_SHAPE_CODES.INVALID_GEOMETRY });
          throw error;
        }
        const shape = fieldShapeFromGeometry(kit, input.shape);
        const { maxFieldHectares, shapeLockTimeoutSeconds, shapeReprocessDelaySeconds } = settings();
        if (shape.areaHa > maxFieldHectares) {
          throw new Invalid(`the shape has ${shape.areaHa.toFixed(2)} ha; at most ${maxFieldHectares} ha are allowed`, {
            code: SEASON_SHAPE_CODES.MAX_SHAPE_AREA_EXCEEDED,
          });
        }
        const extent = extentRefusal(shape.bounds);
        if (extent) throw new Invalid(extent, { code: SEASON_SHAPE_CODES.MAX_SHAPE_AREA_EXCEEDED });
        if (!expansionLimits(kit, field).geometry.covers(geometry)) {
          throw new Invalid('the shape goes beyond the expansion limits of the field', {
            code: SEASON_SHAPE_CODES.SHAPE_EXPANSION_LIMIT,
          });
        }

        // Images must be reprocessed when the polygon changes and the campaigns it applies to (this
        // one up to the next season shape) have satellite dates: each is cut again with it.
        const previousCampaign = shapeCampaignFor(field, input.campaign);
        const previous =
          (previousCampaign === undefined ? undefined : await repository.shape(field.id, previousCampaign)) ??
          field.shape;
        const later = field.shapeCampaigns.filter((c) => c > input.campaign);
        const imagesReprocessing =
          previous.polygon !== shape.polygon &&
          (await repository.hasImagery(field.id, input.campaign, later.length ? Math.min(...later) - 1 : undefined));

        const owner = await users(field.ownerId);
        const space = owner ? await spaces(owner.spaceId) : undefined;
        if (!owner || !space) throw new DomainError('internal', `owner or workspace of field ${field.id} missing`);
        const charged = await chargedHectares(field, input.campaign, shape.areaHa);
        const delta = charged - field.hectaresCharged;
        const at = now().getTime();
        const lock = imagesReprocessing
          ? {
              lockId: newUuid(),
              campaign: input.campaign,
              startedAt: at,
              expiresAt: at + shapeLockTimeoutSeconds * 1000,
            }
          : undefined;
        const charge: HectareCharge | undefined =
          delta === 0
            ? undefined
            : {
                userId: owner.id,
                spaceId: space.id,
                deltaHa: delta,
                userCeiling: delta > 0 ? quotaCeiling(owner.hectareQuota, delta, notEnoughQuota) : null,
                spaceCeiling: delta > 0 ? quotaCeiling(space.hectareQuota, delta, notEnoughWorkspaceQuota) : null,
              };
        await repository.save(
          { field, campaign: input.campaign, shape, createdBy: principal.user.id, charged, lock, now: at, charge },
          { reprocessing, userQuota: notEnoughQuota, spaceQuota: notEnoughWorkspaceQuota },
        );
        if (lock)
          await publish(
            SHAPE_REPROCESS_JOB,
            { field_id: field.id, campaign: input.campaign, lock_id: lock.lockId },
            { delaySeconds: shapeReprocessDelaySeconds },
          );
        return imagesReprocessing;
      });
      await emit?.('FIELD_RESHAPED.V1', {
        userIds: [ownerId, principal.user.id],
        fieldId: input.fieldId,
        data: { field_id: input.fieldId, campaign: input.campaign, images_reprocessing: imagesReprocessing },
      });
      return { imagesReprocessing };
    },
  };
}
