// Paddocks (spec 1, Livestock): spatial subdivisions of a field that hold herds. A paddock lies
// inside its field's current shape; its name is unique in the field; it keeps a count of the
// herds located in it, and cannot be deleted while that count is above zero.
import type { Principal } from '../auth/principal';
import { normalizeName } from '../db/keys';
import { LostRace } from '../db/retry';
import { Conflict, Invalid } from '../errors';
import { GeometryError, geometryKit } from '../geo/geometry';
import type { Field } from '../platform/model';
import { characters } from '../util/text';
import { newUuid } from '../util/uuid';
import { fieldNotFound, LIVESTOCK_CODES, paddockNotEmpty, paddockNotFound, refusals } from './codes';
import type { Paddock } from './model';
import type { LivestockDeps } from './service';

/** Vertices of a paddock polygon (docs/decisions.md, Livestock). */
export const PADDOCK_MAX_VERTICES = 2000;

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || characters(trimmed) > 100)
    throw new Invalid('the paddock name must have 1 to 100 characters', { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
  return trimmed;
}

export interface CreatePaddockInput {
  fieldId: number;
  shape: string;
  /** ISO date-time; its date becomes creation_ts. */
  date: string;
  name: string;
  uuid?: string;
}

export function paddockRules({ repository, fields, uuid = newUuid }: LivestockDeps) {
  /** The paddock polygon, checked to lie inside the field's current shape. */
  async function paddockShape(field: Field, wkt: string): Promise<{ shape: string; areaHa: number }> {
    const { areaHectares, parseGeometry, readWkt, toWkt } = await geometryKit();
    let geometry;
    try {
      geometry = parseGeometry(wkt, ['Polygon'], PADDOCK_MAX_VERTICES);
    } catch (error) {
      if (error instanceof GeometryError) throw new Invalid(error.message, { code: LIVESTOCK_CODES.INVALID_GEOMETRY });
      throw error;
    }
    if (!readWkt((await fields.shape(field)).polygon).covers(geometry)) {
      throw new Invalid('the paddock must lie inside the field', { code: LIVESTOCK_CODES.SHAPE_OUTSIDE_FIELD });
    }
    return { shape: toWkt(geometry), areaHa: areaHectares(geometry) };
  }

  /** A paddock and its field, for a caller who can read (or change) the field; 404 otherwise. */
  async function locatePaddock(principal: Principal, paddockUuid: string, action: 'read' | 'write' = 'read') {
    const { field } = await fields.among(
      principal,
      await repository.paddockFields(paddockUuid),
      action,
      refusals(() => paddockNotFound(paddockUuid)),
    );
    const paddock = await repository.paddock(field.id, paddockUuid);
    if (!paddock) throw paddockNotFound(paddockUuid);
    return { paddock, field };
  }

  return {
    locatePaddock,

    async listPaddocks(principal: Principal, filter: { fieldId?: number; uuid?: string }): Promise<Paddock[]> {
      if (filter.uuid) {
        const { paddock } = await locatePaddock(principal, filter.uuid);
        return filter.fieldId === undefined || paddock.fieldId === filter.fieldId ? [paddock] : [];
      }
      if (filter.fieldId !== undefined) {
        const { field } = await fields.field(
          principal,
          filter.fieldId,
          'read',
          refusals(() => fieldNotFound(filter.fieldId!)),
        );
        return repository.paddocksOf(field.id);
      }
      const readable = await fields.readable(principal);
      return (await Promise.all(readable.map((f) => repository.paddocksOf(f.field.id)))).flat();
    },

    async createPaddock(principal: Principal, input: CreatePaddockInput): Promise<Paddock> {
      const { field } = await fields.field(
        principal,
        input.fieldId,
        'write',
        refusals(() => fieldNotFound(input.fieldId)),
      );
      if (input.uuid) {
        // a uuid names one paddock per field: sent again to this field, it is the paddock made the
        // first time; a paddock of this uuid the caller can see in another field conflicts
        const holders = await repository.paddockFields(input.uuid);
        if (holders.includes(field.id)) return (await locatePaddock(principal, input.uuid)).paddock;
        if (await fields.readsAny(principal, holders)) {
          throw new Conflict(`paddock ${input.uuid} exists in another field`, {
            code: LIVESTOCK_CODES.INVALID_PARAMETERS,
          });
        }
      }
      const name = checkName(input.name);
      const { shape, areaHa } = await paddockShape(field, input.shape);
      const paddock: Paddock = {
        id: await repository.nextId('paddock'),
        uuid: (input.uuid ?? uuid()).toLowerCase(),
        fieldId: field.id,
        name,
        creationDate: new Date(input.date).toISOString().slice(0, 10),
        shape,
        areaHa,
        herdCount: 0,
        version: 1,
      };
      try {
        await repository.createPaddock(paddock);
      } catch (error) {
        // The same client uuid sent twice at once: the other request created it.
        if (input.uuid && error instanceof LostRace) return (await locatePaddock(principal, paddock.uuid)).paddock;
        throw error;
      }
      return paddock;
    },

    async updatePaddock(
      principal: Principal,
      paddockUuid: string,
      changes: { name?: string; shape?: string },
    ): Promise<Paddock> {
      if (changes.name === undefined && changes.shape === undefined) {
        throw new Invalid('send name and/or shape', { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
      }
      const { paddock, field } = await locatePaddock(principal, paddockUuid, 'write');
      const next: Paddock = { ...paddock, version: paddock.version + 1 };
      if (changes.name !== undefined) next.name = checkName(changes.name);
      if (changes.shape !== undefined) Object.assign(next, await paddockShape(field, changes.shape));
      await repository.updatePaddock(next, paddock);
      return next;
    },

    /** Refused while herds are located in the paddock: move or delete them first. */
    async deletePaddock(principal: Principal, paddockUuid: string): Promise<void> {
      const { paddock } = await locatePaddock(principal, paddockUuid, 'write');
      if (paddock.herdCount > 0) throw paddockNotEmpty();
      await repository.deletePaddock(paddock);
    },
  };
}

export type PaddockRules = ReturnType<typeof paddockRules>;

/** Whether a paddock's new name needs its name record moved (names are unique, compared normalised). */
export const renamed = (next: Paddock, previous: Paddock): boolean =>
  normalizeName(next.name) !== normalizeName(previous.name);
