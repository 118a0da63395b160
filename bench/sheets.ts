// npm run bench -- sheets
// Spot sheets at their limit (10,000 rows; the info columns and six variables), in this process:
// reading a csv upload (lib/util/delimited.ts, Papa Parse) and an xlsx one (lib/util/spreadsheet.ts,
// SheetJS), writing the export as csv and as xlsx. For comparison, the same csv read and written
// with SheetJS, as the spot sheet endpoints did before 2026-11-26 (docs/benchmarks.md, thirteenth
// run): each pair runs alternately in the same loop.
import * as XLSX from '@e965/xlsx';
import { Invalid } from '../lib/errors';
import { csvOf, decodeText, delimitedRows } from '../lib/util/delimited';
import { type Cell, firstSheetRows, xlsxOf } from '../lib/util/spreadsheet';
import { seededRandom as random } from '../tests/helpers/random';
import { stats } from './lib';

const RUNS = 9;
const ROWS = 10_000;
const bounds = {
  entries: 1000,
  bytes: 64 * 1024 * 1024,
  partBytes: 32 * 1024 * 1024,
  rows: ROWS + 1,
  columns: 1000,
  cells: 4_000_000,
  strings: 100_000,
};
const refuse = { zip: (detail: string) => new Invalid(detail), sheet: (detail: string) => new Invalid(detail) };

function sheetRows(): Cell[][] {
  const next = random(7);
  const header = [
    'Service_Spot_ID',
    'Code',
    'Name',
    'Farm',
    'Field',
    'Created',
    'Longitude',
    'Latitude',
    'Tags',
    'pH [pH]',
    'Fósforo [ppm]',
    'Nitrógeno [ppm]',
    'Materia orgánica [%]',
    'Humedad [%]',
    'Notas []',
  ];
  const rows: Cell[][] = [header];
  for (let i = 0; i < ROWS; i++) {
    const id = `${(0x10000000 + i).toString(16)}-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const values = [5 + next() * 3, next() * 40, next() * 80, 1 + next() * 5, 10 + next() * 30].map((v) =>
      Number(v.toFixed(3)),
    );
    rows.push([
      id,
      `Z${i}`,
      `Zona ${i}, "norte"`,
      'La Esperanza',
      'Lote 2',
      '2026-11-26T10:00:00Z',
      -61.3 + next() * 0.01,
      -34.2 + next() * 0.01,
      'muestreo, suelo',
      ...values,
      null,
    ]);
  }
  return rows;
}

/** Median ms of `fn` over RUNS, each pair of functions alternated in the same loop. */
function alternated(fns: Record<string, () => unknown>) {
  const samples = Object.fromEntries(Object.keys(fns).map((name) => [name, [] as number[]]));
  for (let i = 0; i < RUNS; i++) {
    for (const [name, fn] of Object.entries(fns)) {
      const start = performance.now();
      fn();
      samples[name]!.push(performance.now() - start);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, stats(ms)]));
}

export async function run(): Promise<void> {
  const rows = sheetRows();
  const text = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? String(cell) : cell)));
  const csv = csvOf(text);
  const xlsx = xlsxOf(rows, 'Spots');
  // what each reader gives must be the same rows, or the comparison means nothing
  const papa = delimitedRows(decodeText(csv), bounds.rows).rows;
  const sheetjsRead = () => {
    const book = XLSX.read(csv, {
      type: 'buffer',
      raw: true,
      dense: true,
      sheetRows: bounds.rows,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
    return XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, {
      header: 1,
      raw: true,
      defval: null,
      blankrows: false,
    });
  };
  const sheetjs = sheetjsRead().map((row) => row.map((cell) => cell ?? ''));
  // the data rows (ASCII) alike; the header not: SheetJS reads UTF-8 without its mark as Latin-1 (Fósforo -> FÃ³sforo)
  if (JSON.stringify(papa.slice(1)) !== JSON.stringify(sheetjs.slice(1)))
    throw new Error('Papa Parse and SheetJS read the csv rows differently');
  const xlsxRows = await firstSheetRows(xlsx, bounds, refuse);
  if (xlsxRows?.length !== ROWS + 1) throw new Error(`the xlsx read back ${xlsxRows?.length} rows`);
  const readCsv = alternated({
    papaParse: () => delimitedRows(decodeText(csv), bounds.rows),
    sheetjsBefore: sheetjsRead,
  });
  const writeCsv = alternated({
    papaParse: () => csvOf(text),
    sheetjsBefore: () => XLSX.utils.sheet_to_csv(XLSX.utils.aoa_to_sheet(text)),
  });
  const readXlsx: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await firstSheetRows(xlsx, bounds, refuse);
    readXlsx.push(performance.now() - start);
  }
  const writeXlsx = alternated({ sheetjs: () => xlsxOf(rows, 'Spots') });
  const results = {
    rows: ROWS,
    columns: rows[0]!.length,
    csvBytes: csv.length,
    xlsxBytes: xlsx.length,
    readCsvMs: readCsv,
    writeCsvMs: writeCsv,
    readXlsxMs: { sheetjs: stats(readXlsx) },
    writeXlsxMs: writeXlsx,
  };
  console.log(JSON.stringify({ suite: 'sheets', ...results }, null, 2));
}
