// Spreadsheets, with SheetJS 0.20.3 (npm @e965/xlsx, with the fixes of CVE-2023-30533 and
// CVE-2024-22363): the first sheet of an uploaded .xlsx or .xls read as rows, and one sheet of rows
// written as .xlsx. The one place the platform reads and writes workbooks (spot sheets, the
// spreadsheets inside layer files, work orders), so that every upload is bounded the same way.
// Delimited text (.csv, .txt) is read and written by lib/util/delimited.ts instead: SheetJS reads a
// UTF-8 csv without its byte-order mark as Latin-1 (Fósforo came back FÃ³sforo).
import * as XLSX from '@e965/xlsx';
import type { DomainError } from '../errors';
import { isZip, unzipper } from './zip';

/** How much of an upload is read: an xlsx's zip parts (count, inflated bytes) and the rows of its sheet. */
export interface SheetBounds {
  entries: number;
  bytes: number;
  rows: number;
}

/** The area's errors: for an xlsx whose zip exceeds the bounds or cannot be opened, and for a file SheetJS cannot read. */
export interface SheetRefusals {
  zip: (detail: string) => DomainError;
  sheet: (detail: string) => DomainError;
}

export type Cell = string | number | null;

/**
 * The rows of a workbook's first sheet (undefined when the file has none): at most `bounds.rows`,
 * each an array of cells (null where empty), blank rows left out. An xlsx is a zip: its parts are
 * bounded before SheetJS inflates them (a small file may inflate to gigabytes).
 */
export async function firstSheetRows(
  bytes: Uint8Array,
  bounds: SheetBounds,
  refuse: SheetRefusals,
): Promise<unknown[][] | undefined> {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isZip(content))
    (await unzipper()).unzipBounded(content, { entries: bounds.entries, bytes: bounds.bytes }, refuse.zip);
  try {
    const book = XLSX.read(content, {
      type: 'buffer',
      dense: true,
      sheetRows: bounds.rows,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
    const first = book.SheetNames[0];
    const sheet = first ? book.Sheets[first] : undefined;
    return sheet
      ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: false })
      : undefined;
  } catch (error) {
    throw refuse.sheet(error instanceof Error ? error.message : String(error));
  }
}

/**
 * One sheet of rows as an .xlsx workbook; `columnWidths` in characters, first column first.
 * SheetJS's `writeXLSX` writes only xlsx; its `write` reaches every format's writer (xls, ods, xlsb,
 * html, ...), which a bundle then carries and compiles at every cold start (docs/adr/0008).
 */
export function xlsxOf(rows: Cell[][], sheetName: string, columnWidths?: number[]): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows);
  if (columnWidths) sheet['!cols'] = columnWidths.map((wch) => ({ wch }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, sheetName);
  return XLSX.writeXLSX(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}
