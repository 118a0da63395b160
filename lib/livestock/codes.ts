// Codes and refusals of the livestock dialect (spec 1; docs/decisions.md, Livestock).

import type { Refusals } from '../authz/guard';
import { LostRace } from '../db/retry';
import { Conflict, type DomainError, Forbidden, Invalid, NotFound } from '../errors';

export const LIVESTOCK_CODES = {
  INVALID_PARAMETERS: 'INVALID_PARAMETERS',
  INVALID_GEOMETRY: 'INVALID_GEOMETRY',
  SHAPE_OUTSIDE_FIELD: 'SHAPE_OUTSIDE_FIELD',
  PERMISSION_ERROR: 'PERMISSION_ERROR',
  MODULE_DISABLED: 'MODULE_DISABLED',
  FIELD_NOT_FOUND: 'FIELD_NOT_FOUND',
  PADDOCK_NOT_FOUND: 'PADDOCK_NOT_FOUND',
  HERD_NOT_FOUND: 'HERD_NOT_FOUND',
  NAME_TAKEN: 'NAME_TAKEN',
  PADDOCK_NOT_EMPTY: 'PADDOCK_NOT_EMPTY',
  NOT_ENOUGH_ANIMALS: 'NOT_ENOUGH_ANIMALS',
  NOT_ENOUGH_WEIGHT: 'NOT_ENOUGH_WEIGHT',
  STALE: 'STALE_RECORD',
} as const;

// --- the refusals the service and its repositories share -----------------------------------------

export const invalid = (message: string) => new Invalid(message, { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
export const herdNotFound = (uuid: string) =>
  new NotFound(`herd ${uuid} not found`, { code: LIVESTOCK_CODES.HERD_NOT_FOUND });
export const paddockNotFound = (uuid: string) =>
  new NotFound(`paddock ${uuid} not found`, { code: LIVESTOCK_CODES.PADDOCK_NOT_FOUND });
export const fieldNotFound = (fieldId: number) =>
  new NotFound(`field ${fieldId} not found`, { code: LIVESTOCK_CODES.FIELD_NOT_FOUND });
export const staleHerd = () => new LostRace('the herd changed meanwhile; try again', { code: LIVESTOCK_CODES.STALE });
export const stalePaddock = () =>
  new LostRace('the paddock changed meanwhile; try again', { code: LIVESTOCK_CODES.STALE });
export const nameTaken = (name: string) =>
  new Conflict(`a paddock named '${name}' already exists in the field`, { code: LIVESTOCK_CODES.NAME_TAKEN });
export const paddockNotEmpty = () =>
  new Conflict('the paddock holds herds; move or delete them before deleting it', {
    code: LIVESTOCK_CODES.PADDOCK_NOT_EMPTY,
  });
// Livestock access: the records of a field are read with read access to it and changed with
// "edit data" (110); a field the caller cannot read is answered as not found (lib/authz/guard.ts).
// Paddock and herd uuids name records within their field (docs/decisions.md, "Client uuids").
export const forbidden = () =>
  new Forbidden('the user cannot change livestock records of this field', { code: LIVESTOCK_CODES.PERMISSION_ERROR });
/** The refusals of a field gate call: `notFound` for a record the caller cannot read, PERMISSION_ERROR when it reads only. */
export const refusals = (notFound: () => DomainError): Refusals => ({ notFound, forbidden });
