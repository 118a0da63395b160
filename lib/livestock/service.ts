// Livestock (spec 1): paddocks, herds and the transactions between them, as one service built from
// its repository and its field gate (services take them as parameters, docs/conventions): the
// rules in herds.ts, paddocks.ts and transactions.ts run against DynamoDB in the functions
// (lib/livestock/repository.ts) and against memory in tests/unit/livestock.test.ts.
import type { FieldGate, FieldInScope } from '../authz/gate';
import type { WebhookEmitter } from '../webhooks/emit';
import { herdRules } from './herds';
import type { Herd, Paddock } from './model';
import { paddockRules } from './paddocks';
import type { TransactionRecord } from './records';
import { transactionRules } from './transactions';

export type { FieldGate, FieldInScope };

/** A transaction recorded under a client uuid, for the origin herd: what a repeated request answers. */
export interface RecordedTransaction {
  originHerdId: number;
  record: TransactionRecord;
  herdUuids: string[];
}

/**
 * One atomic change of herds: all of it is stored, or none (a DynamoDB transaction). A herd whose
 * field changed moves to its new field. Conflicts are answered with the refusals of codes.ts:
 * `staleHerd` when a herd changed meanwhile, a LostRace when a created herd's uuid or a recorded
 * transaction appeared meanwhile (the service then retries or answers what is there).
 */
export interface HerdChange {
  /** New herds (refused when the uuid is taken in the field). */
  created?: Herd[];
  /** Each herd's next state over the previous one, as it was read (refused when it changed meanwhile). */
  updated?: Array<{ next: Herd; previous: Herd }>;
  /** Herds deleted, as they were read (refused when they changed meanwhile). */
  deleted?: Herd[];
  /** Herd counts of paddocks (which must exist). */
  paddockCounts?: Array<{ fieldId: number; paddockUuid: string; delta: number }>;
  /** Entries of herd histories. */
  history?: Array<{ herdId: number; record: TransactionRecord }>;
  /** The transaction, recorded once under its uuid. */
  recorded?: RecordedTransaction;
  /** The field that must still exist. */
  fieldExists?: number;
}

/** Where paddocks, herds and their histories are kept. */
export interface LivestockRepository {
  nextId(sequence: 'herd' | 'paddock'): Promise<number>;
  herd(fieldId: number, uuid: string): Promise<Herd | undefined>;
  herdsOf(fieldId: number): Promise<Herd[]>;
  /** The fields holding a herd of this uuid (a uuid names a record within its field). */
  herdFields(uuid: string): Promise<number[]>;
  paddock(fieldId: number, uuid: string): Promise<Paddock | undefined>;
  /** The paddocks of a field, by id. */
  paddocksOf(fieldId: number): Promise<Paddock[]>;
  paddockFields(uuid: string): Promise<number[]>;
  recorded(originHerdId: number, transactionUuid: string): Promise<RecordedTransaction | undefined>;
  /** A herd's history, latest first. */
  history(herdId: number): Promise<TransactionRecord[]>;
  deleteHistory(herdId: number): Promise<void>;
  commit(change: HerdChange): Promise<void>;
  /** Stores a new paddock with its name (LostRace when the uuid is taken; `nameTaken` when the name is). */
  createPaddock(paddock: Paddock): Promise<void>;
  /** Replaces a paddock read as `previous` (stale refusal when it changed meanwhile; `nameTaken` for a taken new name). */
  updatePaddock(next: Paddock, previous: Paddock): Promise<void>;
  /** Deletes an empty paddock (`paddockNotEmpty` when a herd arrived meanwhile). */
  deletePaddock(paddock: Paddock): Promise<void>;
}

export interface LivestockDeps {
  repository: LivestockRepository;
  fields: FieldGate;
  /** Events for webhooks (docs/integrations.md). */
  emit?: WebhookEmitter;
  now?: () => Date;
  uuid?: () => string;
}

export function livestockService(deps: LivestockDeps) {
  const paddocks = paddockRules(deps);
  const herds = herdRules(deps, paddocks);
  return { ...paddocks, ...herds, ...transactionRules(deps, herds, paddocks) };
}
