// An exported spot sheet as .xlsx, written by lib/util/spreadsheet.ts (SheetJS's xlsx writer):
// loaded on first use by lib/spots/sheet-export.ts (ADR 0008), which starts loading it when an xlsx
// export begins, so that the import of SheetJS overlaps the export's reads.
import { type Cell, xlsxOf } from '../util/spreadsheet';

export const spotWorkbook = (rows: Cell[][]): Buffer => xlsxOf(rows, 'Spots');
