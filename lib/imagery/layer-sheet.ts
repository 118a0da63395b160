// The rows of a spreadsheet inside a layer file (.xlsx, .xls), read with SheetJS: loaded on first
// use by lib/imagery/layer-file.ts (ADR 0008), so a csv or shapefile layer never loads SheetJS.
import * as XLSX from '@e965/xlsx';
import type { DomainError } from '../errors';
import { LAYER_FILE_LIMITS } from './layer-limits';
import { isZip, unzipper } from '../util/zip';

/** The first sheet's rows; `refuse` when the sheet cannot be read or its parts exceed the bounds. */
export async function sheetRows(name: string, bytes: Uint8Array, refuse: (message: string) => DomainError): Promise<unknown[][]> {
  // an xlsx is itself a zip: its parts are bounded as the upload's are before SheetJS inflates them
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isZip(content)) (await unzipper()).unzipBounded(content, { entries: LAYER_FILE_LIMITS.ZIP_ENTRIES * 10, bytes: LAYER_FILE_LIMITS.UNZIPPED_BYTES }, refuse);
  try {
    const book = XLSX.read(bytes, {
      type: 'array',
      dense: true,
      sheetRows: LAYER_FILE_LIMITS.FEATURES + 1,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
    const sheet = book.SheetNames[0] ? book.Sheets[book.SheetNames[0]] : undefined;
    if (!sheet) return [];
    return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: false });
  } catch (error) {
    throw refuse(`the sheet ${JSON.stringify(name.slice(0, 100))} cannot be read: ${(error as Error).message}`);
  }
}
