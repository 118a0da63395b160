// Finding a spot, a text or an image by the uuid a client sends. A client uuid names a record
// within its scope (docs/decisions.md, "Client uuids"), so one uuid may name records of several
// tenants: the lookup keeps the ones in fields the caller can read (in field order) and takes the
// first the caller may act on. Records the caller cannot read are never named nor hinted at: they
// get the same 404 as a uuid that names nothing.

import type { Principal } from '../auth/principal';
import { can } from '../authz/access';
import type { FieldInScope } from '../authz/gate';
import { type DomainError, Forbidden, NotFound } from '../errors';
import type { Farm, Field } from '../platform/model';
import { SPOT_CODES } from './codes';
import type { DeclaredImage } from './images';
import type { Spot, SpotMessage } from './model';
import type { SpotDeps } from './service';

export interface SpotScope {
  spot: Spot;
  field: Field;
  farm: Farm;
  canWrite: boolean;
}

export type SpotAction = 'read' | 'write';

export const spotNotFound = (uuid: string) => new NotFound(`spot ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });
export const noPermission = () =>
  new Forbidden('the user has no permission over the spot', { code: SPOT_CODES.NO_PERMISSION });

const toScope = (spot: Spot, field: FieldInScope): SpotScope => ({
  spot,
  field: field.field,
  farm: field.farm,
  canWrite: can(field.access, 'write'),
});

export function locateRules({ repository, fields }: Pick<SpotDeps, 'repository' | 'fields'>) {
  /** The first of `fieldIds` the caller may act on; 403 (12) when it can only read them, `notFound` when it reads none. */
  const reachableField = (
    principal: Principal,
    fieldIds: number[],
    action: SpotAction,
    notFound: () => DomainError,
  ): Promise<FieldInScope> => fields.among(principal, fieldIds, action, { notFound, forbidden: noPermission });

  /** Among records of one uuid, each in a spot, the one in a spot the caller can reach. */
  async function amongSpots<T>(
    principal: Principal,
    found: Array<{ spotId: number; record: T }>,
    action: SpotAction,
    notFound: () => DomainError,
  ): Promise<{ scope: SpotScope; record: T }> {
    const candidates: Array<{ spot: Spot; record: T }> = [];
    for (const { spotId, record } of found) {
      const spot = await repository.spotById(spotId);
      if (spot) candidates.push({ spot, record });
    }
    const field = await reachableField(
      principal,
      candidates.map((c) => c.spot.fieldId),
      action,
      notFound,
    );
    const chosen = candidates.find((c) => c.spot.fieldId === field.field.id)!;
    return { scope: toScope(chosen.spot, field), record: chosen.record };
  }

  return {
    /** The spot `uuid` that the caller can reach (404 otherwise; 403, 12, when it can only read it and asks to write). */
    async locateSpot(principal: Principal, uuid: string, action: SpotAction = 'read'): Promise<SpotScope> {
      const field = await reachableField(principal, await repository.spotFields(uuid), action, () =>
        spotNotFound(uuid),
      );
      const spot = await repository.spot(field.field.id, uuid);
      if (!spot) throw spotNotFound(uuid);
      return toScope(spot, field);
    },

    /** A text by its uuid, in a spot the caller can reach for `action`. */
    async locateMessage(
      principal: Principal,
      uuid: string,
      action: SpotAction,
      notFound: () => DomainError,
    ): Promise<{ scope: SpotScope; message: SpotMessage }> {
      const found: Array<{ spotId: number; record: SpotMessage }> = [];
      for (const spotId of await repository.messageSpots(uuid)) {
        const message = await repository.message(spotId, uuid);
        if (message) found.push({ spotId, record: message });
      }
      const { scope, record } = await amongSpots(principal, found, action, notFound);
      return { scope, message: record };
    },

    /** An image declared in a text of a spot the caller can reach for `action`, and that spot. */
    async locateImage(
      principal: Principal,
      uuid: string,
      action: SpotAction,
      notFound: () => DomainError,
    ): Promise<{ image: DeclaredImage; scope: SpotScope }> {
      const images = await repository.images(uuid);
      const { scope, record } = await amongSpots(
        principal,
        images.map((image) => ({ spotId: image.spotId, record: image })),
        action,
        notFound,
      );
      return { image: record, scope };
    },
  };
}

export type LocateRules = ReturnType<typeof locateRules>;
