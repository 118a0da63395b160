// Season shapes (spec 2): the polygon of a field for one campaign, its expansion limits and the
// reprocessing lock. State machine (spec table): allowed --POST, new ground covered--> reprocessing
// --job done (or lock expired)--> allowed; POST while reprocessing is refused with REPROCESSING.
import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { EXISTS, getItem, transact, tx, type TxOp } from '../db/table';
import { Conflict, DomainError, Forbidden, Invalid, NotFound } from '../errors';
import { publishEvent } from '../events/publish';
import { fieldFor } from '../authz/guard';
import type { Principal } from '../auth/principal';
import { GeometryError, parseGeometry, readWkt } from '../geo/wkt';
import { shapeFromItem, shapeToItem, type Field } from '../platform/model';
import { getSpace, getUser } from '../platform/users';
import { shapeCampaignFor } from '../fields/current-shape';
import { fieldShapeFrom } from '../fields/shape';
import { hectaresUpdate } from '../fields/quota';
import { quotaCeiling } from '../fields/rules';
import { expansionLimits } from './limits';
import { SHAPE_REPROCESS_JOB } from './jobs';


const notEnoughQuota = () => new Forbidden('the hectares of the new shape exceed the user quota', { code: 'NOT_ENOUGH_QUOTA' });
const notEnoughWorkspaceQuota = () =>
  new Forbidden('the hectares of the new shape exceed the workspace quota', { code: 'NOT_ENOUGH_QUOTA_WORKSPACE' });
const reprocessing = () => new Conflict('the previous shape is still being processed', { code: 'REPROCESSING' });

/** A field the caller can read; 404 otherwise (its existence is not revealed). */
const readableField = (principal: Principal, fieldId: number, action: 'read' | 'modifyShape' = 'read') =>
  fieldFor(principal, fieldId, action, {
    notFound: () => new NotFound(`field ${fieldId} not found`),
    forbidden: () => new Forbidden('the user lacks permission 220 (modify field shape) over the field'),
  });

interface Lock {
  lockId: string;
  campaign: number;
  expiresAt: number;
}

async function activeLock(fieldId: number, now = Date.now()): Promise<Lock | undefined> {
  const item = await getItem(keys.shapeLock(fieldId));
  if (!item || Number(item.expires_at) <= now) return undefined; // an expired lock is released
  return { lockId: String(item.lock_id), campaign: Number(item.campaign), expiresAt: Number(item.expires_at) };
}

export async function lockState(principal: Principal, fieldId: number): Promise<{ reprocessing: boolean }> {
  await readableField(principal, fieldId);
  if (await activeLock(fieldId)) throw reprocessing();
  return { reprocessing: false };
}

export async function limitsOf(principal: Principal, fieldId: number) {
  const { field } = await readableField(principal, fieldId);
  const limits = expansionLimits(field);
  return { limits4326: limits.wkt4326, limits3857: limits.wkt3857 };
}

export interface ShapeInput {
  fieldId: number;
  campaign: number;
  shape: string;
}

/** Largest area among the field's shapes once `campaign` has `areaHa`. */
async function chargedHectares(field: Field, campaign: number, areaHa: number): Promise<number> {
  const others = field.shapeCampaigns.filter((c) => c !== campaign);
  const items = await Promise.all(others.map((c) => getItem(keys.fieldShape(field.id, c))));
  return Math.max(field.shape.areaHa, areaHa, ...items.filter(Boolean).map((item) => shapeFromItem(item!).areaHa));
}

export async function postShape(principal: Principal, input: ShapeInput): Promise<{ imagesReprocessing: boolean }> {
  const imagesReprocessing = await retryLostRace(async () => {
    const { field } = await readableField(principal, input.fieldId, 'modifyShape');
    if (await activeLock(field.id)) throw reprocessing();

    let geometry;
    try {
      geometry = parseGeometry(input.shape, ['Polygon']);
    } catch (error) {
      if (error instanceof GeometryError) throw new Invalid(error.message, { code: 'INVALID_GEOMETRY' });
      throw error;
    }
    const shape = fieldShapeFromGeometry(input.shape);
    if (shape.areaHa > config().maxFieldHectares) {
      throw new Invalid(`the shape has ${shape.areaHa.toFixed(2)} ha; at most ${config().maxFieldHectares} ha are allowed`, {
        code: 'MAX_SHAPE_AREA_EXCEEDED',
      });
    }
    if (!expansionLimits(field).geometry.covers(geometry)) {
      throw new Invalid('the shape goes beyond the expansion limits of the field', { code: 'SHAPE_EXPANSION_LIMIT' });
    }

    // Images must be reprocessed when the new shape covers ground the previous one did not.
    const previousCampaign = shapeCampaignFor(field, input.campaign);
    const previousItem = previousCampaign === undefined ? undefined : await getItem(keys.fieldShape(field.id, previousCampaign));
    const previous = previousItem ? shapeFromItem(previousItem) : field.shape;
    const imagesReprocessing = !readWkt(previous.polygon).covers(geometry);

    const owner = await getUser(field.ownerId);
    const space = owner ? await getSpace(owner.spaceId) : undefined;
    if (!owner || !space) throw new DomainError('internal', `owner or workspace of field ${field.id} missing`);
    const charged = await chargedHectares(field, input.campaign, shape.areaHa);
    const delta = charged - field.hectaresCharged;
    const now = Date.now();
    const lockTimeoutMs = config().shapeLockTimeoutSeconds * 1000;
    const lockId = randomUUID();
    const noActiveLock = 'attribute_not_exists(pk) OR expires_at < :now';
    const ops: TxOp[] = [
      tx.put({ ...keys.fieldShape(field.id, input.campaign), kind: 'field_shape', campaign: input.campaign, created_by: principal.user.id, ...shapeToItem(shape) }),
      tx.update(
        keys.field(field.id),
        {
          expression: 'SET shape_campaigns = :campaigns, hectares_charged = :charged',
          condition: `${EXISTS} AND (hectares_charged = :previous OR attribute_not_exists(hectares_charged))`,
          values: {
            ':campaigns': [...new Set([...field.shapeCampaigns, input.campaign])].sort((a, b) => a - b),
            ':charged': charged,
            ':previous': field.hectaresCharged,
          },
        },
        () => new LostRace('the field changed meanwhile'),
      ),
      imagesReprocessing
        ? tx.put(
            { ...keys.shapeLock(field.id), kind: 'shape_lock', lock_id: lockId, campaign: input.campaign, started_at: now, expires_at: now + lockTimeoutMs, ttl: Math.ceil((now + lockTimeoutMs) / 1000) + 86400 },
            noActiveLock,
            reprocessing,
            { ':now': now },
          )
        : tx.check(keys.shapeLock(field.id), noActiveLock, reprocessing, { ':now': now }),
    ];
    if (delta > 0) {
      ops.push(
        hectaresUpdate(keys.user(owner.id), delta, quotaCeiling(owner.hectareQuota, delta, notEnoughQuota), notEnoughQuota),
        hectaresUpdate(keys.space(space.id), delta, quotaCeiling(space.hectareQuota, delta, notEnoughWorkspaceQuota), notEnoughWorkspaceQuota),
      );
    } else if (delta < 0) {
      ops.push(
        hectaresUpdate(keys.user(owner.id), delta, null, notEnoughQuota),
        hectaresUpdate(keys.space(space.id), delta, null, notEnoughWorkspaceQuota),
      );
    }
    await transact(ops);
    if (imagesReprocessing) {
      await publishEvent(
        SHAPE_REPROCESS_JOB,
        { field_id: field.id, campaign: input.campaign, lock_id: lockId },
        { delaySeconds: config().shapeReprocessDelaySeconds },
      );
    }
    return imagesReprocessing;
  });
  return { imagesReprocessing };
}

function fieldShapeFromGeometry(wkt: string) {
  try {
    return fieldShapeFrom(wkt, new Date().toISOString().slice(0, 10));
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'invalid') throw new Invalid(error.message, { code: 'INVALID_GEOMETRY' });
    throw error;
  }
}
