// Record revisions (docs/integrations.md "ETags"). Every write of a record's main item
// (a field, a labour, a spot, a herd, ...) stamps it with a new `rev`, whoever writes it (a handler,
// a worker, a transaction that moves a herd): the record's ETag is its rev. A request that sends
// `If-Match` (or `If-None-Match: *`) runs in a revision scope: every read of a record of the route's
// kind checks the precondition (nothing is written yet: 412), and every write of one is made
// conditional on it in DynamoDB itself (the write and the check are one atomic operation), so two
// clients that read the same revision cannot both write over it.
//
// The scope lives in an AsyncLocalStorage set by the handler factory (lib/http/conditional.ts); the
// table helpers (lib/db/table.ts) consult it. Services and repositories know nothing of it.

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { DomainError, type ErrorOptions } from '../errors';
import type { Key } from './keys';

/** Kinds of records that carry a revision (and so an ETag). */
export type RecordKind =
  | 'field'
  | 'farm'
  | 'farm_metadata'
  | 'season_shape'
  | 'rotation'
  | 'labour'
  | 'input'
  | 'work_order'
  | 'map'
  | 'sampling'
  | 'paddock'
  | 'herd'
  | 'spot'
  | 'sensor_group'
  | 'sensor_variable'
  | 'storage_value'
  | 'storage_file'
  | 'scale_template'
  | 'farm_tag';

/**
 * A farm's fields deleted whose clean-up has not ended (a number set on the farm's item,
 * lib/platform/model.ts `deletingFieldIds`).
 */
export const FARM_DELETING_FIELDS = 'fields_deleting';

/**
 * Attributes of a record's item that are the table's bookkeeping, not the record: written without a
 * new revision (lib/db/table.ts `tx.bookkeeping`), never shown in the change feed, and a write that
 * changes only them is no change of the record (lib/changes/classify.ts).
 */
export const BOOKKEEPING_ATTRIBUTES: ReadonlySet<string> = new Set([FARM_DELETING_FIELDS]);

/** The record kind of an item's key; undefined for the items that are not a record (refs, indexes, counters). */
export function recordKindOf(key: Key): RecordKind | undefined {
  const { pk, sk } = key;
  const hash = sk.indexOf('#');
  const prefix = hash < 0 ? sk : sk.slice(0, hash);
  if (pk.startsWith('FIELD#')) {
    switch (prefix) {
      case 'PROFILE':
        return 'field';
      case 'SHAPE':
        return 'season_shape';
      case 'ROTATION':
        return 'rotation';
      case 'LABOUR':
        return 'labour';
      case 'MAP':
        return 'map';
      case 'SAMPLING':
        return 'sampling';
      case 'PADDOCK':
        return 'paddock';
      case 'HERD':
        return 'herd';
      case 'SPOT':
        return 'spot';
    }
  } else if (pk.startsWith('FARM#')) {
    if (sk === 'PROFILE') return 'farm';
    if (sk === 'METADATA') return 'farm_metadata';
  } else if (pk.startsWith('USER#')) {
    switch (prefix) {
      case 'INPUT':
        return 'input';
      case 'WORKORDER':
        return 'work_order';
      case 'SCALE':
        return 'scale_template';
      case 'FARMTAG':
        return 'farm_tag';
    }
  } else if (pk.startsWith('SENSORUSER#') && prefix === 'GROUP') return 'sensor_group';
  else if (pk.startsWith('SENSORGROUPVARS#') && prefix === 'VAR') return 'sensor_variable';
  // extension storage lives in the partition of its user, field or farm
  if (prefix === 'KV' && /^(USER|FIELD|FARM)#/.test(pk)) return 'storage_value';
  if (prefix === 'FILE' && /^(USER|FIELD|FARM)#/.test(pk)) return 'storage_file';
  return undefined;
}

/** The item attribute that holds a record's revision. */
export const REV = 'rev';
/** The revision of a record written before revisions existed (its ETag until its next write). */
export const NO_REV = '0';

/** A new revision: sortable by time, unique (48 bits of time, 48 random bits), 16 characters. */
export function newRev(now = Date.now()): string {
  return now.toString(36).padStart(9, '0') + randomBytes(5).toString('base64url').slice(0, 7);
}

export const revOf = (item: Record<string, unknown>): string =>
  typeof item[REV] === 'string' ? (item[REV] as string) : NO_REV;

/** A record changed since the revision the client named (or exists, for `If-None-Match: *`): 412. */
export class PreconditionFailed extends DomainError {
  constructor(message = 'the record changed since the revision named in If-Match', options?: ErrorOptions) {
    super('precondition_failed', message, options);
  }
}

/** What a conditional request asks of the records of its route's kind. */
export interface RevisionScope {
  kind: RecordKind;
  /** Revisions the record must have (If-Match), or '*' (it must exist). */
  ifMatch?: readonly string[] | '*';
  /** `If-None-Match: *`: the record must not exist (a create by client uuid). */
  ifNoneMatch?: boolean;
  /** Revisions of the records of the kind this request read, by `pk|sk`. */
  read: Map<string, string>;
  /** Revisions this request wrote, by `pk|sk` (undefined: deleted). */
  written: Map<string, string | undefined>;
}

const storage = new AsyncLocalStorage<RevisionScope>();

export const newScope = (kind: RecordKind, conditions: Pick<RevisionScope, 'ifMatch' | 'ifNoneMatch'> = {}) => ({
  kind,
  ...conditions,
  read: new Map<string, string>(),
  written: new Map<string, string | undefined>(),
});

export const runInScope = <T>(scope: RevisionScope, work: () => Promise<T>): Promise<T> => storage.run(scope, work);

const scopeFor = (key: Key): RevisionScope | undefined => {
  const scope = storage.getStore();
  return scope && recordKindOf(key) === scope.kind ? scope : undefined;
};

const keyOf = (key: Key) => `${key.pk}|${key.sk}`;

/**
 * A read item of the scope's kind: remembered. The precondition is not checked at read time (a
 * service reads a record before it knows whether the caller may see it, and a 412 there would tell
 * another tenant that the record exists): it is checked by the conditional write, atomically, and
 * after the handler for a request that wrote nothing (settle, lib/http/conditional.ts).
 */
export function noteRead(item: Record<string, unknown> | undefined, key: Key): void {
  const scope = scopeFor(key);
  if (!scope || !item) return;
  if (!scope.written.has(keyOf(key))) scope.read.set(keyOf(key), revOf(item));
}

/**
 * The condition a write of `key` must meet for the request's precondition, ANDed with its own (and
 * its placeholders); undefined when the write is not of the scope's kind or the request has none.
 */
export function preconditionOf(
  key: Key,
): { expression: string; names: Record<string, string>; values: Record<string, unknown> } | undefined {
  const scope = scopeFor(key);
  if (!scope) return undefined;
  if (scope.ifNoneMatch)
    return { expression: 'attribute_not_exists(#surco_rev_pk)', names: { '#surco_rev_pk': 'pk' }, values: {} };
  if (scope.ifMatch === '*')
    return { expression: 'attribute_exists(#surco_rev_pk)', names: { '#surco_rev_pk': 'pk' }, values: {} };
  if (!scope.ifMatch) return undefined;
  const names = { '#surco_rev': REV };
  const values: Record<string, unknown> = {};
  const parts = scope.ifMatch.map((rev, i) => {
    if (rev === NO_REV) return 'attribute_not_exists(#surco_rev)';
    values[`:surco_rev${i}`] = rev;
    return `#surco_rev = :surco_rev${i}`;
  });
  return { expression: `(${parts.join(' OR ')})`, names, values };
}

/** Whether a request's precondition is what failed a conditional write of `key` (the caller re-reads the item). */
export const guarded = (key: Key): boolean => {
  const scope = scopeFor(key);
  return Boolean(scope && (scope.ifMatch || scope.ifNoneMatch));
};

/** Whether `current` (the item as it is now) breaks the request's precondition. */
export function breaksPrecondition(key: Key, current: Record<string, unknown> | undefined): boolean {
  const scope = scopeFor(key);
  if (!scope) return false;
  if (scope.ifNoneMatch) return current !== undefined;
  if (scope.ifMatch === '*') return current === undefined;
  if (!scope.ifMatch) return false;
  return !current || !scope.ifMatch.includes(revOf(current));
}

export function noteWrite(key: Key, rev: string | undefined): void {
  const scope = scopeFor(key);
  if (scope) scope.written.set(keyOf(key), rev);
}

/** Adds `SET #rev = :rev` to an update expression (into its SET clause if it has one). */
export function stampUpdate(expression: string): string {
  const set = /\bSET\s+/i.exec(expression);
  if (!set) return `SET #surco_rev_set = :surco_rev_set ${expression}`;
  const at = set.index + set[0].length;
  return `${expression.slice(0, at)}#surco_rev_set = :surco_rev_set, ${expression.slice(at)}`;
}
