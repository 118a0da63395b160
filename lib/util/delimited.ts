// Delimited text (.csv, .txt), with Papa Parse 5.7.1: the one reader and writer of delimited text,
// for spot sheets (imports and csv exports) and the tables inside layer files (.csv, .txt).
// Uploaded bytes are decoded first (decodeText), then split into rows (delimitedRows); rows are
// written as csv by csvOf. Loaded on first use (ADR 0008): its users load it through a loader of
// their own (`onFirstUse`), never import it statically, and hand it on as a `DelimitedReader`.
// Workbooks (.xlsx, .xls) are read and written by lib/util/spreadsheet.ts (SheetJS), which a csv
// therefore never loads.
import Papa from 'papaparse';
import { decodeText } from './decoding';
import type { Cell } from './spreadsheet';

export { decodeText };

export type DelimitedReader = typeof import('./delimited');

/** The delimiters guessed, in this order of preference when two split the rows equally well. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

export interface DelimitedRows {
  /** Rows as text cells, blank rows (only spaces and delimiters) left out; rows may differ in length. */
  rows: string[][];
  /** The delimiter used; undefined when none of DELIMITERS splits the rows consistently (the rows are then whole lines). */
  delimiter: string | undefined;
  /** Whether the text holds more rows than `maxRows` (only the first `maxRows` are read). */
  truncated: boolean;
}

/**
 * Rows of a delimited text (RFC 4180 quoting: quoted cells may hold delimiters, quotes doubled and
 * line breaks; lines end in \n, \r\n or \r). The delimiter is the one of , ; tab | that splits the
 * first rows into the most consistent number of cells, or the one named by a first line `sep=;`
 * (Excel's hint, left out of the rows). Cells are kept as text, untrimmed: numbers, decimal commas
 * included, are the caller's to read.
 */
export function delimitedRows(text: string, maxRows: number): DelimitedRows {
  const hint = /^sep=([^\r\n])[ \t]*(?:\r\n|\n|\r|$)/.exec(text);
  const body = hint ? text.slice(hint[0].length) : text;
  const rows: string[][] = [];
  let delimiter: string | undefined;
  let guessed = true;
  let truncated = false;
  Papa.parse<string[]>(body, {
    ...(hint ? { delimiter: hint[1] } : { delimitersToGuess: [...DELIMITERS] }),
    skipEmptyLines: 'greedy',
    step: (result, parser) => {
      if (delimiter === undefined) {
        delimiter = result.meta.delimiter;
        guessed = !result.errors.some((error) => error.code === 'UndetectableDelimiter');
      }
      if (rows.length >= maxRows) {
        truncated = true;
        parser.abort();
        return;
      }
      rows.push(result.data);
    },
  });
  return { rows, delimiter: guessed ? delimiter : undefined, truncated };
}

/**
 * Rows as csv text in UTF-8, lines ending in \n: a cell is quoted when it holds a comma, a quote
 * (doubled), a line break or spaces at either end; null is an empty cell; numbers as String gives them.
 */
export const csvOf = (rows: Cell[][]): Buffer => Buffer.from(Papa.unparse(rows, { newline: '\n' }), 'utf8');
