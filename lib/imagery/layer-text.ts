// The rows of a delimited table inside a layer file (.csv, .txt), read by lib/util/delimited.ts
// (Papa Parse): loaded on first use by lib/imagery/layer-file.ts (ADR 0008), as its sheets and
// shapefiles are, so that a layer file loads the reader of the formats it holds.
import type { DomainError } from '../errors';
import { decodeText, delimitedRows } from '../util/delimited';
import { LAYER_FILE_LIMITS } from './layer-limits';

/**
 * Rows of a table's text, cells trimmed: delimited (the delimiter of , ; tab | that splits the rows
 * consistently, quotes honoured), else split at runs of spaces; `refuse` past the row limit.
 */
export function textRows(bytes: Uint8Array, refuse: (message: string) => DomainError): string[][] {
  const text = decodeText(bytes);
  const read = delimitedRows(text, LAYER_FILE_LIMITS.FEATURES + 1);
  if (read.truncated) throw refuse(`a table holds more than ${LAYER_FILE_LIMITS.FEATURES} rows`);
  if (read.delimiter === undefined) return text.split(/\r\n|\n|\r/).filter((line) => line.trim() !== '').map((line) => line.trim().split(/\s+/));
  return read.rows.map((row) => row.map((cell) => cell.trim()));
}
