// The rows of a spreadsheet inside a layer file (.xlsx, .xls), read by lib/util/spreadsheet.ts
// (SheetJS): loaded on first use by lib/imagery/layer-file.ts (ADR 0008), so a csv or shapefile
// layer never loads SheetJS.
import type { DomainError } from '../errors';
import { firstSheetRows } from '../util/spreadsheet';
import { LAYER_FILE_LIMITS } from './layer-limits';

/** The first sheet's rows (none when it has no sheet); `refuse` when it cannot be read or its parts exceed the bounds or the budget left. */
export async function sheetRows(
  name: string,
  bytes: Uint8Array,
  budget: { rows: number; cells: number },
  refuse: (message: string) => DomainError,
): Promise<unknown[][]> {
  const bounds = {
    entries: LAYER_FILE_LIMITS.ZIP_ENTRIES * 10,
    bytes: LAYER_FILE_LIMITS.UNZIPPED_BYTES,
    partBytes: LAYER_FILE_LIMITS.TABLE_BYTES,
    rows: budget.rows + 2, // one more than the budget holds, so that a sheet past it is refused, not cut
    columns: LAYER_FILE_LIMITS.TABLE_COLUMNS,
    cells: budget.cells,
    strings: LAYER_FILE_LIMITS.SHARED_STRINGS,
  };
  const sheet = (detail: string) => refuse(`the sheet ${JSON.stringify(name.slice(0, 100))} cannot be read: ${detail}`);
  return (await firstSheetRows(bytes, bounds, { zip: refuse, sheet })) ?? [];
}
