// Spreadsheets, with SheetJS 0.20.3 (npm @e965/xlsx, with the fixes of CVE-2023-30533 and
// CVE-2024-22363): the first sheet of an uploaded .xlsx or .xls read as rows, and one sheet of rows
// written as .xlsx. The one place the platform reads and writes workbooks (spot sheets, the
// spreadsheets inside layer files, work orders), so that every upload is bounded the same way.
// Delimited text (.csv, .txt) is read and written by lib/util/delimited.ts instead: SheetJS reads a
// UTF-8 csv without its byte-order mark as Latin-1 (Fósforo came back FÃ³sforo).
import * as XLSX from '@e965/xlsx';
import type { DomainError } from '../errors';
import { countStartTags } from './xml-tags';
import { isZip, unzipper } from './zip';

/**
 * How much of an upload is read: an xlsx's zip parts (count, inflated bytes, the bytes of one XML
 * part) and of its first sheet the rows kept (more are left out), the columns and the cells.
 */
export interface SheetBounds {
  entries: number;
  bytes: number;
  /** One XML part of an xlsx (a sheet, the shared strings), inflated. */
  partBytes: number;
  rows: number;
  columns: number;
  /** Cells of a sheet (and its rows, each counted on its own). */
  cells: number;
  /** Shared strings of the workbook (and their rich-text runs, each counted on its own): SheetJS keeps an object of each. */
  strings: number;
}

/** The area's errors: for an xlsx whose zip exceeds the bounds or cannot be opened, and for a file SheetJS cannot read. */
export interface SheetRefusals {
  zip: (detail: string) => DomainError;
  sheet: (detail: string) => DomainError;
}

export type Cell = string | number | null;

const WORKSHEET = /(^|\/)worksheets\/[^/]+\.xml$/i;
const SHARED_STRINGS = /(^|\/)sharedStrings\d*\.xml$/i;

/**
 * The rows of a workbook's first sheet (undefined when the file has none): at most `bounds.rows`,
 * each an array of cells (null where empty), blank rows left out. An xlsx is a zip whose small
 * file may inflate to gigabytes, and SheetJS reads every row and shared string of a part before
 * `sheetRows` applies: so its parts are bounded on the sizes the zip declares, then
 * the cells, rows, shared strings and runs of their XML counted on the bytes, all before SheetJS
 * reads them; the first sheet's columns and cells are checked again on what SheetJS read before
 * it is spread into rows (a cell in the last column would make every row 16,384 cells wide).
 */
export async function firstSheetRows(
  bytes: Uint8Array,
  bounds: SheetBounds,
  refuse: SheetRefusals,
): Promise<unknown[][] | undefined> {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isZip(content)) {
    const parts = (await unzipper()).unzipBounded(
      content,
      {
        entries: bounds.entries,
        bytes: bounds.bytes,
        entryBytes: (name) => (/\.xml$/i.test(name) ? bounds.partBytes : undefined),
      },
      refuse.zip,
    );
    for (const [name, part] of Object.entries(parts)) {
      const counts = WORKSHEET.test(name)
        ? countStartTags(part, { c: bounds.cells, row: bounds.cells })
        : SHARED_STRINGS.test(name)
          ? countStartTags(part, { si: bounds.strings, r: bounds.strings })
          : {};
      if ((counts.c ?? 0) > bounds.cells || (counts.row ?? 0) > bounds.cells)
        throw refuse.sheet(`a sheet holds more than ${bounds.cells} cells`);
      if ((counts.si ?? 0) > bounds.strings || (counts.r ?? 0) > bounds.strings)
        throw refuse.sheet(`the shared strings hold more than ${bounds.strings} strings or runs`);
    }
  }
  let sheet: XLSX.WorkSheet | undefined;
  try {
    const book = XLSX.read(content, {
      type: 'buffer',
      dense: true,
      sheets: 0,
      sheetRows: bounds.rows,
      nodim: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
    const first = book.SheetNames[0];
    sheet = first ? book.Sheets[first] : undefined;
  } catch (error) {
    throw refuse.sheet(error instanceof Error ? error.message : String(error));
  }
  if (!sheet) return undefined;
  if (sheet['!ref']) {
    const range = XLSX.utils.decode_range(sheet['!ref']);
    const columns = range.e.c - range.s.c + 1;
    const rows = Math.min(range.e.r - range.s.r + 1, bounds.rows);
    if (columns > bounds.columns) throw refuse.sheet(`the sheet spans more than ${bounds.columns} columns`);
    if (columns * rows > bounds.cells) throw refuse.sheet(`the sheet spans more than ${bounds.cells} cells`);
  }
  try {
    return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: false });
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
