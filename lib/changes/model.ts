// The change feed (docs/integrations.md "Change feed"): every change to a record a user can read,
// oldest first, in a feed of that user's, built from the table's change stream by the changes
// worker. What a change says, which kinds of records it covers and how long it is kept.

import type { Claim } from '../auth/claims';
import type { RecordKind } from '../db/revision';

/** The kinds of records the feed follows (a subset of the records that carry a revision). */
export const FEED_KINDS = [
  'field',
  'farm',
  'season_shape',
  'rotation',
  'labour',
  'input',
  'work_order',
  'map',
  'sampling',
  'paddock',
  'herd',
  'spot',
  'spot_text',
  'spot_image',
  'sensor_group',
  'sensor_variable',
  'storage_value',
  'storage_file',
] as const satisfies readonly (RecordKind | 'spot_text' | 'spot_image')[];
export type FeedKind = (typeof FEED_KINDS)[number];
export const isFeedKind = (kind: string | undefined): kind is FeedKind =>
  kind !== undefined && (FEED_KINDS as readonly string[]).includes(kind);

/** Partitions whose items may be a change of the feed: the stream's filter keeps only these. */
export const FEED_PARTITIONS = [
  'FIELD#',
  'FARM#',
  'USER#',
  'SENSORUSER#',
  'SENSORGROUPVARS#',
  'SPOTMSGS#',
  'SPOTIMG#',
] as const;

/** What happened to the record: its own writes, or the caller's access to it through a share. */
export const CHANGE_TYPES = ['created', 'changed', 'deleted', 'access_gained', 'access_lost'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/**
 * The claim an extension needs to see a kind's changes (the claim its routes need to read it); the
 * user's own session sees every kind. Reading the record's field (or farm) is checked besides.
 */
export const KIND_CLAIMS: Partial<Record<FeedKind, Claim>> = {
  rotation: 'CAMPAIGN',
  labour: 'SEASON_VIEW',
  work_order: 'SEASON_VIEW',
  paddock: 'LIVESTOCK',
  herd: 'LIVESTOCK',
  spot: 'MANAGEMENT_ZONES',
  spot_text: 'MANAGEMENT_ZONES',
  spot_image: 'MANAGEMENT_ZONES',
  sensor_group: 'VARIABLE_GROUPS_READ',
  sensor_variable: 'VARIABLES_READ',
  storage_value: 'STORAGE',
  storage_file: 'STORAGE',
};

/** Whose record it is: who may read it is worked out from this (lib/changes/audience.ts). */
export type ChangeScope =
  | { field: number }
  | { farm: number }
  /** A record of the user's own; `extension`: of one extension of it (sensors, storage). */
  | { user: number; extension?: string }
  /** A spot's text or image: the spot's field, found by the worker. */
  | { spot: number };

/** A change as the worker makes it from a stream record, before it is written to its readers' feeds. */
export interface Change {
  kind: FeedKind;
  change: ChangeType;
  /** The record's integer id (fields, farms, maps, spots, herds, ...) or its campaign (season shapes). */
  id: number | null;
  uuid: string | null;
  /** The record's revision after the change (its ETag), or before it for a delete. */
  rev: string | null;
  scope: ChangeScope;
  /** The field and farm the record belongs to, when it belongs to one. */
  fieldId?: number;
  farmId?: number;
  /** Sensors and storage: the extension whose record it is. */
  extensionId?: string;
  /** Storage: the key, and the resource kind (users, fields, farms). */
  key?: string;
  /** The record after the change (absent: a deletion or access lost, whose entry is a tombstone). */
  record?: Record<string, unknown>;
  /** access_gained / access_lost: the user whose access changed (the only reader of that change). */
  to?: number;
  /** When it happened (the stream record's time), ISO. */
  at: string;
  /** The item after (or, deleted, before) the change: where its owner and farm are read from. */
  image?: Record<string, unknown>;
  /** The index, in the worker's batch, of the stream record it comes from (the first, for a move). */
  source?: number;
}

export const CHANGE_LIMITS = {
  /** How long a change stays in a feed; an older cursor answers 410 (the client resyncs from the lists). */
  RETENTION_DAYS: 30,
  /** Changes a page answers by default, and at most. */
  PAGE_DEFAULT: 100,
  PAGE_MAX: 500,
  /** A record larger than this (its JSON) is answered without its body (`record_omitted`): GET it. */
  RECORD_BYTES: 100 * 1024,
} as const;
