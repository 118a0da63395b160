// The record of a livestock transaction, as stored in herd histories and answered to clients.
import { isoSeconds } from '../util/time';

export interface TransactionRecord {
  transaction_uuid: string;
  /** paddock: a move between paddocks; exit: animals leaving a herd; entry: new animals. */
  kind: 'paddock' | 'exit' | 'entry';
  /** YYYY-MM-DDTHH:MM:SSZ */
  transaction_date: string;
  animal_count: number;
  weight: number;
  weight_unit: string;
  origin_herd_uuid: string | null;
  destination_herd_uuid: string | null;
  origin_paddock_uuid: string | null;
  destination_paddock_uuid: string | null;
  destination_type: number | null;
  destination_type_name: string | null;
  note: string | null;
  created_at: string;
}

export const historyEntry = (record: TransactionRecord) => ({ kind: 'herd_log', record });

/** A client date-time as YYYY-MM-DDTHH:MM:SSZ (UTC). */
export const normalizeDate = (value: string): string => isoSeconds(value);
