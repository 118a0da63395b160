// Reading a user's change feed (GET /api/changes): the page after a cursor, oldest first, of what
// the caller may see now. Rules only; the feed's storage and the gate come in as parameters
// (lib/changes/repository.ts gives the functions' instance; tests/unit/changes.test.ts, memory).
//
// What the caller sees is decided when it reads, not only when the change was written: a change of
// a record whose field or farm it no longer reads is left out (its access_lost says so), a kind
// whose claim the extension lacks is left out, and sensors and storage are the calling extension's
// only. The cursor still moves past what was left out.

import type { Principal } from '../auth/principal';
import { Invalid } from '../errors';
import { decodeCursor, encodeCursor, positionAt, seqTime } from './cursor';
import { CHANGE_LIMITS, type ChangeType, type FeedKind, KIND_CLAIMS } from './model';

/** A change as a user's feed holds it. */
export interface FeedEntry {
  seq: string;
  kind: FeedKind;
  change: ChangeType;
  id: number | null;
  uuid: string | null;
  rev: string | null;
  fieldId?: number;
  farmId?: number;
  extensionId?: string;
  key?: string;
  record?: Record<string, unknown>;
  /** The record was too large for the feed: GET it. */
  recordOmitted?: boolean;
  at: string;
}

export interface ChangeStore {
  /** The entries of a user's feed after `afterSeq` up to `untilSeq`, oldest first, at most `limit`. */
  read(userId: number, afterSeq: string, untilSeq: string, limit: number): Promise<FeedEntry[]>;
}

/** What the caller reads now, among some fields and farms. */
export interface ChangeAccess {
  readableFields(principal: Principal, fieldIds: number[]): Promise<Set<number>>;
  readableFarms(principal: Principal, farmIds: number[]): Promise<Set<number>>;
}

export interface ChangeSettings {
  retentionDays: number;
  settleMs: number;
}

export interface ChangePage {
  changes: FeedEntry[];
  cursor: string;
  /** More changes wait after the cursor now: ask again at once. */
  hasMore: boolean;
}

/** `since` that names the feed's present: an empty page and the cursor of now (start of a sync). */
const SINCE_NOW = 'now';

const cursorExpired = () =>
  new Invalid(
    `the cursor is older than the feed's retention (${CHANGE_LIMITS.RETENTION_DAYS} days by default): resync from the lists and start again with since=now`,
    { code: 'CURSOR_EXPIRED', status: 410 },
  );

export function changeService(
  store: ChangeStore,
  access: ChangeAccess,
  settings: () => ChangeSettings,
  now: () => number = Date.now,
) {
  const visibleKind = (principal: Principal, entry: FeedEntry): boolean => {
    const claim = KIND_CLAIMS[entry.kind];
    if (claim && principal.extensionId !== undefined && !principal.claims.has(claim)) return false;
    // sensors and storage belong to one extension of the user (its own session sees them all)
    if (entry.extensionId !== undefined && principal.extensionId !== undefined)
      return entry.extensionId === principal.extensionId;
    return true;
  };

  return {
    async page(principal: Principal, since: string | undefined, limit: number): Promise<ChangePage> {
      const { retentionDays, settleMs } = settings();
      const at = now();
      const horizon = positionAt(at - settleMs);
      const oldest = at - retentionDays * 86_400_000;
      if (since === SINCE_NOW) return { changes: [], cursor: encodeCursor(horizon), hasMore: false };
      let after: string;
      if (since === undefined) after = positionAt(oldest);
      else {
        const seq = decodeCursor(since);
        if (!seq) throw new Invalid('since is not a cursor of the change feed (or "now")');
        if (seqTime(seq) < oldest) throw cursorExpired();
        after = seq;
      }
      if (after >= horizon) return { changes: [], cursor: encodeCursor(after), hasMore: false };
      const read = await store.read(principal.user.id, after, horizon, limit + 1);
      const hasMore = read.length > limit;
      const entries = read.slice(0, limit);
      const cursor = hasMore ? entries[entries.length - 1]!.seq : horizon;

      const candidates = entries.filter((entry) => visibleKind(principal, entry));
      const fieldIds = [...new Set(candidates.flatMap((e) => (e.fieldId !== undefined ? [e.fieldId] : [])))];
      const farmIds = [
        ...new Set(candidates.flatMap((e) => (e.fieldId === undefined && e.farmId !== undefined ? [e.farmId] : []))),
      ];
      const [fields, farms] = await Promise.all([
        fieldIds.length ? access.readableFields(principal, fieldIds) : new Set<number>(),
        farmIds.length ? access.readableFarms(principal, farmIds) : new Set<number>(),
      ]);
      const changes = candidates.filter((entry) => {
        // a loss of access is news to the one who lost it; a tombstone says nothing but the id of
        // a record the reader read when it was deleted (its field may be gone with it)
        if (entry.change === 'access_lost' || entry.change === 'deleted') return true;
        if (entry.fieldId !== undefined) return fields.has(entry.fieldId);
        if (entry.farmId !== undefined) return farms.has(entry.farmId);
        return true;
      });
      return { changes, cursor: encodeCursor(cursor), hasMore };
    },
  };
}
