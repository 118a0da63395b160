// The rows of an uploaded spot sheet in .xlsx or .xls, read by lib/util/spreadsheet.ts (SheetJS):
// loaded on first use by lib/spots/sheets.ts (ADR 0008), so a .csv import never loads SheetJS.
import type { DomainError } from '../errors';
import { firstSheetRows, type SheetBounds } from '../util/spreadsheet';

/** The first sheet's rows, undefined when the workbook has none; `refuse` when it cannot be read or its parts exceed the bounds. */
export const workbookRows = (content: Buffer, bounds: SheetBounds, refuse: (detail: string) => DomainError): Promise<unknown[][] | undefined> =>
  firstSheetRows(content, bounds, { zip: refuse, sheet: refuse });
