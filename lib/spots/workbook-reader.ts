// The rows of an imported spot sheet in .xlsx or .xls, read by lib/util/spreadsheet.ts (SheetJS's
// reader): loaded on first use by lib/spots/sheets.ts (ADR 0008), so that a csv import never loads
// SheetJS and the import function does not load it at its cold start.
import type { DomainError } from '../errors';
import { firstSheetRows, type SheetBounds } from '../util/spreadsheet';

/** The first sheet's rows, undefined when the workbook has none; `refuse` when it cannot be read or its parts exceed the bounds. */
export const workbookRows = (
  content: Buffer,
  bounds: SheetBounds,
  refuse: (detail: string) => DomainError,
): Promise<unknown[][] | undefined> => firstSheetRows(content, bounds, { zip: refuse, sheet: refuse });
