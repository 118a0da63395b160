// Spot sheets (spec 1): GET exports the user's spots and their variables as xlsx (or csv),
// lib/spots/sheet-export.ts; POST imports .csv/.xls/.xlsx with a Service_Spot_ID column and merges
// the variables of its other columns into those spots, here. A .csv is read and written by
// lib/util/delimited.ts (Papa Parse), an imported .xlsx or .xls read by lib/util/spreadsheet.ts
// (SheetJS, through lib/spots/workbook-reader.ts), each loaded when a function first reads or
// writes that format: the import function loads neither at its cold start (ADR 0008). Uploads are
// limited in size and rows and read as arrays.

import type { Principal } from '../auth/principal';
import { DomainError, Forbidden, Invalid } from '../errors';
import { onFirstUse } from '../util/first-use';
import { isUuid } from '../util/uuid';
import { isZip } from '../util/zip';
import { type Unit, unitById, unitByLabel } from './catalogue';
import { SPOT_CODES } from './codes';
import type { Spot, SpotVariable } from './model';
import { spotSheets as spots } from './repository';

export const SPOT_ID_COLUMN = 'Service_Spot_ID';
export const SHEET_MAX_BYTES = 5 * 1024 * 1024;
export const SHEET_MAX_ROWS = 10_000;
export const SHEET_MAX_VARIABLES = 200;
export const INFO_COLUMNS = ['Code', 'Name', 'Farm', 'Field', 'Created', 'Longitude', 'Latitude', 'Tags'];
const FORMATS = ['.csv', '.xls', '.xlsx'];

const sheetError = (code: number, info: string, detail?: string) =>
  new Invalid(info, { code, ...(detail ? { extra: { detail } } : {}) });

/**
 * "name [unit]" as exported (`[]` for no unit); a hand-made "name (unit)" names a unit only when the
 * parentheses hold a known one, so that "ph (agua)" is a name; a bare name has no unit. A name may
 * hold line breaks (the csv export quotes them).
 */
export function parseHeader(header: string): { name: string; unit: Unit | undefined } {
  const text = header.trim();
  const bracket = /^(.*?)\s*\[([^\]]*)\]$/s.exec(text);
  if (bracket) return { name: bracket[1]!.trim(), unit: unitByLabel(bracket[2]!) };
  const paren = /^(.*?)\s*\(([^()]*)\)$/s.exec(text);
  const unit = paren ? unitByLabel(paren[2]!) : undefined;
  if (paren && unit) return { name: paren[1]!.trim(), unit };
  return { name: text, unit: unitById(0) };
}

/** "name [unit]": the unit always in brackets, `[]` when there is none, so any name reads back. */
export const headerOf = (name: string, unitId: number) => `${name} [${unitById(unitId)?.symbol ?? ''}]`;

/** A number from a cell: numbers as they are; text with a decimal comma or point, or an exponent. */
export function cellNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/\s/g, '');
  if (!/^[-+]?\d+([.,]\d+)?([eE][-+]?\d+)?$/.test(text)) return undefined;
  const number = Number(text.replace(',', '.'));
  return Number.isFinite(number) ? number : undefined;
}

/** Every digit of a number (its shortest exact form) in plain decimal notation, without exponent. */
export function plainDecimal(value: number): string {
  const text = String(value);
  const m = /^(-?)(\d)(?:\.(\d+))?e([-+]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, rest = '', exp] = m;
  const digits = lead! + rest;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// --- import -----------------------------------------------------------------------------------

export type ImportedVariable = { name: string; unit_id: number; unit: string; values: number } | null;

/** What each format's content starts with: a zip (xlsx), an OLE2 compound file (xls); csv is text (UTF-16 only with its mark). */
function matchesFormat(content: Buffer, extension: string): boolean {
  if (extension === '.xlsx') return isZip(content);
  if (extension === '.xls')
    return content.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  const utf16 = (content[0] === 0xff && content[1] === 0xfe) || (content[0] === 0xfe && content[1] === 0xff);
  return content.length > 0 && (utf16 || !content.includes(0));
}

/** Columns of a sheet read (the identifier, the informative columns and the variables fit many times over). */
export const SHEET_MAX_COLUMNS = 1_000;
/**
 * Bounds of an upload: an xlsx's parts (an xlsx is a zip: a small file may inflate to gigabytes
 * inside SheetJS), the rows kept, and the columns and cells read, checked as the file is read
 * (lib/util/spreadsheet.ts, lib/util/delimited.ts): a full sheet of the identifier, the
 * informative columns and SHEET_MAX_VARIABLES variables.
 */
const SHEET_BOUNDS = {
  entries: 1000,
  bytes: 64 * 1024 * 1024,
  partBytes: 16 * 1024 * 1024,
  rows: SHEET_MAX_ROWS + 1,
  columns: SHEET_MAX_COLUMNS,
  cells: (SHEET_MAX_ROWS + 1) * (1 + INFO_COLUMNS.length + SHEET_MAX_VARIABLES),
  /** Distinct texts of an xlsx (ids, names, farms, fields, tags: a few a row). */
  strings: 100_000,
} as const;
const notLoaded = (detail: string) => sheetError(SPOT_CODES.SHEET_NOT_LOADED, 'error loading sheet', detail);
/**
 * Loaded at the first file of their format (ADR 0008): SheetJS's reader for an imported workbook,
 * Papa Parse for a csv, imported or exported. The export's xlsx writer is lib/spots/sheet-export.ts's.
 */
const workbookReader = /* @__PURE__ */ onFirstUse(() => import('./workbook-reader'));
export const textKit = /* @__PURE__ */ onFirstUse(() => import('../util/delimited'));

/**
 * The first sheet's rows: a csv's cells as text (cellNumber reads numbers, decimal commas
 * included, without guessing), a workbook's as SheetJS gives them.
 */
async function readRows(content: Buffer, extension: string): Promise<unknown[][]> {
  if (extension === '.csv') {
    const { decodeText, delimitedRows, unescapedCell } = await textKit();
    const read = delimitedRows(decodeText(content), SHEET_BOUNDS.rows, SHEET_BOUNDS);
    if (read.overflow === 'columns') throw notLoaded(`a row holds more than ${SHEET_BOUNDS.columns} cells`);
    if (read.overflow === 'cells') throw notLoaded(`the sheet holds more than ${SHEET_BOUNDS.cells} cells`);
    // the header of an exported csv names variables as written, before the export made them inert
    if (read.rows[0]) read.rows[0] = read.rows[0].map(unescapedCell);
    return read.rows;
  }
  const rows = await (await workbookReader()).workbookRows(content, SHEET_BOUNDS, notLoaded);
  if (!rows) throw notLoaded('the file has no sheet');
  return rows;
}

export interface UploadedSheet {
  filename: string;
  content: Buffer;
}

/**
 * The rows of an uploaded sheet, format and bounds checked: 400 with the sheet codes for a format
 * other than .csv, .xls, .xlsx, a file over SHEET_MAX_BYTES, content that is not its format, or
 * a file that cannot be read within the bounds.
 */
export async function readSheetRows(file: UploadedSheet): Promise<unknown[][]> {
  const extension = (/\.[^.]+$/.exec(file.filename.toLowerCase()) ?? [''])[0];
  if (!FORMATS.includes(extension)) {
    throw sheetError(SPOT_CODES.FORMAT_NOT_SUPPORTED, 'file format not supported. It must be one of .csv, .xls, .xlsx');
  }
  if (file.content.length > SHEET_MAX_BYTES)
    throw sheetError(SPOT_CODES.SHEET_NOT_LOADED, 'error loading sheet', `at most ${SHEET_MAX_BYTES} bytes`);
  if (!matchesFormat(file.content, extension)) {
    throw sheetError(
      SPOT_CODES.SHEET_NOT_LOADED,
      'error loading sheet',
      `the content of the file is not ${extension.slice(1)}`,
    );
  }
  return readRows(file.content, extension);
}

export async function importSheet(
  principal: Principal,
  file: UploadedSheet,
): Promise<Record<string, ImportedVariable>> {
  const rows = await readSheetRows(file);
  const header = (rows[0] ?? []).map((cell) => (cell === null || cell === undefined ? '' : String(cell).trim()));
  const idColumn = header.findIndex((h) => h.toLowerCase() === SPOT_ID_COLUMN.toLowerCase());
  if (idColumn < 0) throw sheetError(SPOT_CODES.MISSING_COLUMN, `missing column: ${SPOT_ID_COLUMN}`);

  // Rows whose id is a uuid of a spot the caller can read; the others are skipped.
  const body = rows.slice(1, SHEET_MAX_ROWS + 1);
  const located = new Map<string, { spot: Spot; canWrite: boolean }>();
  const rowSpots: Array<[unknown[], string]> = [];
  for (const row of body) {
    const id = String(row[idColumn] ?? '')
      .trim()
      .toLowerCase();
    if (!isUuid(id)) continue;
    if (!located.has(id)) {
      const scope = await spots.locateSpot(principal, id).catch((error: unknown) => {
        if (error instanceof DomainError && error.kind === 'not_found') return undefined;
        throw error;
      });
      if (scope) located.set(id, { spot: scope.spot, canWrite: scope.canWrite });
    }
    if (located.has(id)) rowSpots.push([row, id]);
  }
  if (!rowSpots.length) throw sheetError(SPOT_CODES.NO_VALID_RECORD, 'No valid record was found');
  if ([...located.values()].some((l) => !l.canWrite)) {
    throw new Forbidden('the user has no permission over at least one spot of the sheet', {
      code: SPOT_CODES.NO_PERMISSION,
    });
  }

  // A Map, not an object: column names such as __proto__ are data here.
  const result = new Map<string, ImportedVariable>();
  const updates = new Map<string, SpotVariable[]>();
  const variableColumns = header
    .map((h, index) => ({ h, index }))
    .filter(({ h, index }) => index !== idColumn && h && !INFO_COLUMNS.some((c) => c.toLowerCase() === h.toLowerCase()))
    .slice(0, SHEET_MAX_VARIABLES);
  for (const { h, index } of variableColumns) {
    const { name, unit } = parseHeader(h);
    if (!name || !unit) {
      result.set(name || h, null);
      continue;
    }
    let count = 0;
    for (const [row, id] of rowSpots) {
      const value = cellNumber(row[index]);
      if (value === undefined) continue;
      count++;
      updates.set(id, [...(updates.get(id) ?? []), { name, unit_id: unit.id, value }]);
    }
    result.set(name, count ? { name, unit_id: unit.id, unit: unit.symbol, values: count } : null);
  }
  if (![...result.values()].some(Boolean))
    throw sheetError(SPOT_CODES.NO_VALID_VARIABLES, 'No valid variables were found');

  const pending = [...updates];
  const workers = Array.from({ length: Math.min(8, pending.length) }, async () => {
    for (let next = pending.shift(); next; next = pending.shift())
      await spots.mergeVariables(principal, next[0], next[1]);
  });
  await Promise.all(workers);
  return Object.fromEntries(result);
}
