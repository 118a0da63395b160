// Season shapes in DynamoDB (docs/data-model.md): a shape per field and campaign in the field's
// partition, the field's lock item; a save writes the shape, the field's campaigns and charged
// hectares (versioned on them), the lock (or checks none is active) and the quotas at once.

import { platformFieldGate } from '../authz/gate';
import { config } from '../config';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import { EXISTS, queryAll, readItem, transact, tx } from '../db/table';
import { publishEvent } from '../events/publish';
import { chargeOps } from '../fields/quota';
import { SENTINEL2 } from '../imagery/layers';
import { shapeFromItem, shapeToItem } from '../platform/model';
import { getSpace, getUser } from '../platform/users';
import { emitWebhookEvent } from '../webhooks/emit';
import { type ShapeRepository, shapesService } from './service';

/** A day past its expiry, DynamoDB's TTL removes an old lock. */
const LOCK_TTL_GRACE_SECONDS = 86_400;

export const dynamoShapeRepository: ShapeRepository = {
  async lock(fieldId) {
    return readItem(keys.shapeLock(fieldId), (item) => ({
      lockId: String(item.lock_id),
      campaign: Number(item.campaign),
      startedAt: Number(item.started_at),
      expiresAt: Number(item.expires_at),
    }));
  },
  async shape(fieldId, campaign) {
    return readItem(keys.fieldShape(fieldId, campaign), shapeFromItem);
  },
  async hasImagery(fieldId, from, until) {
    const found = await queryAll({ ...keys.imageryDatesBetween(fieldId, SENTINEL2, from, until), limit: 1 });
    return found.length > 0;
  },
  async save({ field, campaign, shape, createdBy, charged, lock, now, charge }, refuse) {
    const noActiveLock = 'attribute_not_exists(pk) OR expires_at < :now';
    await transact([
      tx.put({
        ...keys.fieldShape(field.id, campaign),
        kind: 'field_shape',
        campaign,
        created_by: createdBy,
        ...shapeToItem(shape),
      }),
      tx.update(
        keys.field(field.id),
        {
          expression: 'SET shape_campaigns = :campaigns, hectares_charged = :charged',
          condition: `${EXISTS} AND (hectares_charged = :previous OR attribute_not_exists(hectares_charged))`,
          values: {
            ':campaigns': [...new Set([...field.shapeCampaigns, campaign])].sort((a, b) => a - b),
            ':charged': charged,
            ':previous': field.hectaresCharged,
          },
        },
        () => new LostRace('the field changed meanwhile'),
      ),
      lock
        ? tx.put(
            {
              ...keys.shapeLock(field.id),
              kind: 'shape_lock',
              lock_id: lock.lockId,
              campaign: lock.campaign,
              started_at: lock.startedAt,
              expires_at: lock.expiresAt,
              ttl: Math.ceil(lock.expiresAt / 1000) + LOCK_TTL_GRACE_SECONDS,
            },
            noActiveLock,
            refuse.reprocessing,
            { ':now': now },
          )
        : tx.check(keys.shapeLock(field.id), noActiveLock, refuse.reprocessing, { ':now': now }),
      ...chargeOps(charge, { user: refuse.userQuota, space: refuse.spaceQuota }),
    ]);
  },
};

/** The season-shapes service of the functions: DynamoDB, the platform's gate and users, the events queue. */
export const shapes = /* @__PURE__ */ shapesService({
  repository: dynamoShapeRepository,
  gate: platformFieldGate,
  users: getUser,
  spaces: getSpace,
  publish: publishEvent,
  emit: emitWebhookEvent,
  settings: () => config(),
});
