// The field (and farm) gate a service is built with: the one guard of lib/authz/guard.ts behind an interface,
// so that services take it as a parameter (their rules then run against memory in unit tests).
// Each area passes its own dialect's refusals.
import type { Principal } from '../auth/principal';
import { NotFound } from '../errors';
import type { Farm, Field, FieldShape } from '../platform/model';
import { fieldIdsOfFarm, getFieldByUuid, getFields } from '../platform/records';
import { shapeFor } from '../platform/shapes';
import type { Access, Action } from './access';
import {
  type FarmInScope,
  type FieldInScope,
  farmFor,
  fieldAmong,
  fieldFor,
  type Refusals,
  readableAmong,
} from './guard';
import { reach, readableFields } from './reach';

export type { FarmInScope, FieldInScope, Refusals };

/** A farm the caller reads and which of its fields, known without reading them (its grants only). */
export interface FarmScope {
  farm: Farm;
  /** Every field of the farm, or only these (shared one by one). */
  fieldIds: 'all' | number[];
  /** The caller's access to a field of this farm. */
  accessTo(fieldId: number): Access;
}

export interface FieldGate {
  /** The field for `action`: notFound when absent or unreadable, forbidden when the action is not allowed. */
  field(principal: Principal, fieldId: number, action: Action, refuse: Refusals): Promise<FieldInScope>;
  /** The field of a uuid, as `field`. */
  fieldByUuid(principal: Principal, uuid: string, action: Action, refuse: Refusals): Promise<FieldInScope>;
  /** The first (by id) of these fields the caller may `action` (a client uuid names a record within its field). */
  among(principal: Principal, fieldIds: number[], action: Action, refuse: Refusals): Promise<FieldInScope>;
  /** Whether the caller reads one of these fields. */
  readsAny(principal: Principal, fieldIds: number[]): Promise<boolean>;
  /** The farm for `action`: notFound when absent or unreadable, forbidden when the action is not allowed. */
  farm(principal: Principal, farmId: number, action: Action, refuse: Refusals): Promise<FarmInScope>;
  /** Every field the caller reads, with its farm and access. */
  readable(principal: Principal): Promise<FieldInScope[]>;
  /**
   * Those of these fields the caller reads (the others left out, as `readable` would), by id:
   * reads these fields only, where `readable` reads every field the caller reaches.
   */
  readableOf(principal: Principal, fieldIds: readonly number[]): Promise<FieldInScope[]>;
  /**
   * The farms the caller reads (own, shared, of users it supervises) and which of their fields, from
   * its grants, without reading a field: a listing queries what hangs from them by farm, then reads
   * the fields it answers (`fieldsById`). A farm reached twice is listed twice, first as the caller's.
   * With `farmIds` (a listing's farm filter), of those farms only: the others are not read.
   */
  scope(principal: Principal, farmIds?: readonly number[]): Promise<FarmScope[]>;
  /**
   * These fields as stored, by id (a deleted one left out); access is the caller's business
   * (`scope`). `consistent: false`: read eventually consistent (what answers from an index does).
   */
  fieldsById(fieldIds: readonly number[], options?: { consistent?: boolean }): Promise<Map<number, Field>>;
  /** The ids of a farm's fields (its membership, strongly consistent), whoever reads them: access is `scope`'s. */
  fieldIdsOfFarm(farmId: number): Promise<number[]>;
  /** The field's shape in a campaign (the current one when absent). */
  shape(field: Field, campaign?: number): Promise<FieldShape>;
}

/** The gate of the functions: the platform's grants in DynamoDB. */
export const platformFieldGate: FieldGate = {
  field: (principal, fieldId, action, refuse) => fieldFor(principal, fieldId, action, refuse),
  fieldByUuid: async (principal, uuid, action, refuse) =>
    fieldFor(principal, await getFieldByUuid(uuid), action, refuse),
  among: fieldAmong,
  readsAny: readableAmong,
  farm: (principal, farmId, action, refuse) => farmFor(principal, farmId, action, refuse),
  readableOf: async (principal, fieldIds) => {
    // a field the caller does not read is left out; any other failure (the table) is one
    const unreadable = new NotFound('unreadable');
    const refuse = { notFound: () => unreadable, forbidden: () => unreadable };
    const found = await Promise.all(
      [...new Set(fieldIds)].map((fieldId) =>
        fieldFor(principal, fieldId, 'read', refuse).catch((error: unknown) => {
          if (error === unreadable) return undefined;
          throw error;
        }),
      ),
    );
    return found.filter((entry): entry is FieldInScope => entry !== undefined).sort((a, b) => a.field.id - b.field.id);
  },
  readable: async (principal) =>
    (await readableFields(principal)).map(({ field, farm, access, shape }) => ({ field, farm, access, shape })),
  scope: async (principal, farmIds) => {
    const listing = await reach(principal, farmIds);
    return [...listing.farms, ...listing.supervised.flatMap((s) => s.farms)].map((reached) => ({
      farm: reached.farm,
      fieldIds: reached.whole ? 'all' : reached.sharedFieldIds,
      accessTo: reached.accessTo,
    }));
  },
  fieldsById: (fieldIds, options) => getFields([...new Set(fieldIds)], options),
  fieldIdsOfFarm,
  shape: async (field, campaign) => (await shapeFor(field, campaign)).shape,
};
