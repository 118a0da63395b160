// Delimited text (.csv, .txt), with Papa Parse 5.7.1: the one reader and writer of delimited text,
// for spot sheets (imports and csv exports) and the tables inside layer files (.csv, .txt).
// Uploaded bytes are decoded first (decodeText), then split into rows (delimitedRows); rows are
// written as csv by csvOf. Loaded on first use (ADR 0008): its users load it through a loader of
// their own (`onFirstUse`), never import it statically, and hand it on as a `DelimitedReader`.
// Workbooks (.xlsx, .xls) are read and written by lib/util/spreadsheet.ts (SheetJS), which a csv
// therefore never loads.
import Papa from 'papaparse';
import type { Cell } from './spreadsheet';

export type DelimitedReader = typeof import('./delimited');

/** The delimiters guessed, in this order of preference when two split the rows equally well. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Windows-1252's bytes 0x80-0x9F (the WHATWG index; the five it leaves undefined stay C1 controls).
 * Node's TextDecoder('windows-1252') decodes them as Latin-1 before Node 23 (nodejs/node#56542),
 * so the text is decoded as Latin-1 and these are mapped here.
 */
const WINDOWS_1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';
const windows1252 = (content: Buffer): string =>
  content.toString('latin1').replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);

/**
 * Text of an uploaded file: UTF-8 (with or without its byte-order mark), UTF-16 with its mark,
 * and otherwise Windows-1252, which is what a spreadsheet saved "as CSV" on a Spanish or
 * Portuguese Windows writes (ó as the one byte 0xF3). Bytes that are valid UTF-8 are read as
 * UTF-8: a text in Windows-1252 with accents is practically never valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): string {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf)
    return new TextDecoder('utf-8').decode(content.subarray(3));
  if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder('utf-16le').decode(content.subarray(2));
  if (content[0] === 0xfe && content[1] === 0xff) {
    const swapped = Buffer.from(content.subarray(2, 2 + ((content.length - 2) & ~1)));
    return new TextDecoder('utf-16le').decode(swapped.swap16());
  }
  try {
    return UTF8.decode(content);
  } catch {
    return windows1252(content);
  }
}

export interface DelimitedRows {
  /** Rows as text cells, blank rows (only spaces and delimiters) left out; rows may differ in length. */
  rows: string[][];
  /** The delimiter used; undefined when none of DELIMITERS splits the rows consistently (the rows are then whole lines). */
  delimiter: string | undefined;
  /** Whether the text holds more rows than `maxRows` (only the first `maxRows` are read). */
  truncated: boolean;
  /** Set when reading stopped at a row of more than `bounds.columns` cells, or past `bounds.cells` cells in all. */
  overflow?: 'columns' | 'cells';
}

/** Bounds of the cells read, checked row by row as they are read (the rows kept never pass them). */
export interface CellBounds {
  /** Cells of one row. */
  columns: number;
  /** Cells of every row read. */
  cells: number;
}

/**
 * Whether a physical line of the text holds more than `limit` characters that may separate cells
 * (, ; tab |): a cheap scan before Papa Parse, which builds a row whole (and, guessing the
 * delimiter, the first rows once per delimiter) before any callback could refuse it.
 */
function hasLongRow(text: string, limit: number): boolean {
  let separators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) separators = 0;
    else if ((c === 0x2c || c === 0x3b || c === 0x09 || c === 0x7c) && ++separators > limit) return true;
  }
  return false;
}

/**
 * Rows of a delimited text (RFC 4180 quoting: quoted cells may hold delimiters, quotes doubled and
 * line breaks; lines end in \n, \r\n or \r). The delimiter is the one of , ; tab | that splits the
 * first rows into the most consistent number of cells, or the one named by a first line `sep=;`
 * (Excel's hint, left out of the rows). Cells are kept as text, untrimmed: numbers, decimal commas
 * included, are the caller's to read.
 */
export function delimitedRows(text: string, maxRows: number, bounds?: CellBounds): DelimitedRows {
  const hint = /^sep=([^\r\n])[ \t]*(?:\r\n|\n|\r|$)/.exec(text);
  const body = hint ? text.slice(hint[0].length) : text;
  const rows: string[][] = [];
  let delimiter: string | undefined;
  let guessed = true;
  let truncated = false;
  let overflow: DelimitedRows['overflow'];
  let cells = 0;
  if (bounds && hasLongRow(body, bounds.columns)) return { rows, delimiter, truncated, overflow: 'columns' };
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
      if (bounds) {
        cells += result.data.length;
        overflow = result.data.length > bounds.columns ? 'columns' : cells > bounds.cells ? 'cells' : undefined;
        if (overflow) {
          parser.abort();
          return;
        }
      }
      rows.push(result.data);
    },
  });
  return { rows, delimiter: guessed ? delimiter : undefined, truncated, ...(overflow ? { overflow } : {}) };
}

/**
 * Cells a spreadsheet would run as a formula when it opens a csv (OWASP, "CSV Injection"): those
 * starting with = + - @ tab or carriage return, except a plain number (a negative longitude, written
 * as text with all its digits, is a number there, not a formula).
 */
export const FORMULA_LEADING = /^(?![-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$)[=+\-@\t\r]/;

/**
 * Rows as csv text in UTF-8, lines ending in \n: a cell is quoted when it holds a comma, a quote
 * (doubled), a line break or spaces at either end; null is an empty cell; numbers as String gives
 * them. A cell a spreadsheet would run as a formula (FORMULA_LEADING) is written inert, quoted with
 * a leading apostrophe, as OWASP recommends (Papa Parse's `escapeFormulae`): a collaborator's spot
 * named `=HYPERLINK(...)` is text in the owner's spreadsheet.
 */
export const csvOf = (rows: Cell[][]): Buffer =>
  Buffer.from(Papa.unparse(rows, { newline: '\n', escapeFormulae: FORMULA_LEADING }), 'utf8');

/** A cell as it was before csvOf made it inert: the apostrophe before a formula's first character dropped. */
export const unescapedCell = (cell: string): string => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);
