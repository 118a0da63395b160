// Spot sheet export (spec 1, GET /api/spots/sheet): the user's spots and their variables as xlsx
// (SheetJS's xlsx writer, lib/spots/workbook-writer.ts) or csv (Papa Parse, lib/spots/sheets.ts's
// textKit). Both writers and the geometry kit (the spots' centroids) are loaded on first use and
// preloaded as the export starts, so that their imports overlap the reads of spots and fields
// instead of following them (ADR 0008). The columns and the header of a variable ("name [unit]")
// are the import's, so that an export imports back. A module of its own: in the import's module,
// its static import of SheetJS put SheetJS in what the import function loads at its cold start.
import type { Principal } from '../auth/principal';
import { readableFields } from '../authz/reach';
import { geometryKit } from '../geo/geometry';
import { onFirstUse, preload } from '../util/first-use';
import type { Cell } from '../util/spreadsheet';
import type { SpotFilters } from './list';
import { spotSheets as spots } from './repository';
import { headerOf, INFO_COLUMNS, plainDecimal, SPOT_ID_COLUMN, textKit } from './sheets';
import { tagRefKey } from './tags';

const workbookWriter = /* @__PURE__ */ onFirstUse(() => import('./workbook-writer'));

export async function exportSheet(principal: Principal, filters: SpotFilters, format: 'xlsx' | 'csv'): Promise<Buffer> {
  preload(geometryKit);
  preload(format === 'csv' ? textKit : workbookWriter);
  const page = await spots.listSpots(principal, { ...filters, includeSampleSpots: true }, { page: 0, pageSize: -1 });
  const fields = new Map((await readableFields(principal)).map((f) => [f.field.id, f]));
  const columns = new Map<string, string>();
  for (const spot of page.spots)
    for (const v of spot.variables ?? []) if (!columns.has(v.name)) columns.set(v.name, headerOf(v.name, v.unit_id));
  const names = [...columns.keys()].sort((a, b) => a.localeCompare(b));
  const rows: Cell[][] = [[SPOT_ID_COLUMN, ...INFO_COLUMNS, ...names.map((n) => columns.get(n)!)]];
  const { readWkt } = await geometryKit();
  for (const spot of page.spots) {
    const field = fields.get(spot.fieldId);
    const centroid = readWkt(spot.shape).getCentroid().getCoordinate();
    const values = new Map((spot.variables ?? []).map((v) => [v.name, v.value]));
    rows.push([
      spot.uuid,
      spot.code,
      spot.name ?? '',
      field?.farm.name ?? '',
      field?.field.name ?? '',
      spot.creationTs,
      Number(centroid.x.toFixed(7)),
      Number(centroid.y.toFixed(7)),
      spot.tags.map((ref) => page.tags.get(tagRefKey(ref))?.tag ?? ref.uuid).join(', '),
      ...names.map((n) => values.get(n) ?? null),
    ]);
  }
  // csv: numbers as text with every digit, never rounded nor in exponent form
  if (format === 'csv')
    return (await textKit()).csvOf(
      rows.map((row) => row.map((cell) => (typeof cell === 'number' ? plainDecimal(cell) : cell))),
    );
  return (await workbookWriter()).spotWorkbook(rows);
}
