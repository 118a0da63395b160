// lib/util/spreadsheet.ts: the one reader and writer of sheets (spot sheets, layer files, work
// orders). What it writes is read back by exceljs; what it reads is written by exceljs or by hand.
// Delimited text is lib/util/delimited.ts's (tests/unit/delimited.test.ts).
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { Invalid } from '../../lib/errors';
import { firstSheetRows, xlsxOf } from '../../lib/util/spreadsheet';

const refuse = {
  zip: (detail: string) => new Invalid(`zip: ${detail}`),
  sheet: (detail: string) => new Invalid(`sheet: ${detail}`),
};
const bounds = {
  entries: 100,
  bytes: 10 * 1024 * 1024,
  partBytes: 10 * 1024 * 1024,
  rows: 1000,
  columns: 100,
  cells: 10_000,
  strings: 1000,
};

async function workbook(rows: unknown[][], name = 'Hoja'): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(name);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('sheets written', () => {
  it('as xlsx: one sheet of the given name, cells and column widths as given', async () => {
    const content = xlsxOf(
      [
        ['Labor', 'Dosis', 'Notas'],
        [1, 2.5, null],
        ['ñandú', -0.125, 'sí'],
      ],
      'Orden de trabajo',
      [8, 10, 30],
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(content as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Orden de trabajo']);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Labor', 'Dosis', 'Notas']);
    expect(sheet.getRow(2).values).toEqual([undefined, 1, 2.5]);
    expect(sheet.getRow(3).values).toEqual([undefined, 'ñandú', -0.125, 'sí']);
    // SheetJS writes a width in characters with its padding: 8 characters are 8.83...
    expect([1, 2, 3].map((i) => Math.floor(sheet.getColumn(i).width!))).toEqual([8, 10, 30]);
  });

  it("as xlsx through SheetJS's xlsx-only writer: the same zip parts, byte for byte, as its general writer", async () => {
    const rows = [
      ['Service_Spot_ID', 'ph', 'nota'],
      ['a', 6.5, null],
      ['ñandú', -0.125, 'sí'],
    ];
    const general = (() => {
      const sheet = XLSX.utils.aoa_to_sheet(rows);
      sheet['!cols'] = [{ wch: 12 }];
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, sheet, 'Spots');
      return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    })();
    const parts = async (content: Buffer) => {
      const zip = await JSZip.loadAsync(content);
      const names = Object.keys(zip.files).sort();
      return Promise.all(names.map(async (name) => [name, await zip.file(name)!.async('string')]));
    };
    const ours = await parts(xlsxOf(rows, 'Spots', [12]));
    expect(ours.map(([name]) => name)).toContain('xl/worksheets/sheet1.xml');
    expect(ours).toEqual(await parts(general));
  });
});

describe('sheets read', () => {
  it('gives the first sheet of an xlsx as rows, null where a cell is empty, blank rows left out', async () => {
    const content = await workbook([['Service_Spot_ID', 'ph'], ['a', 6.5], [], ['b', null, 'x']]);
    expect(await firstSheetRows(content, bounds, refuse)).toEqual([
      ['Service_Spot_ID', 'ph', null],
      ['a', 6.5, null],
      ['b', null, 'x'],
    ]);
  });

  it('reads no more rows than the bounds allow', async () => {
    const content = await workbook(Array.from({ length: 50 }, (_, i) => [`row${i}`, i]));
    expect(await firstSheetRows(content, { ...bounds, rows: 3 }, refuse)).toEqual([
      ['row0', 0],
      ['row1', 1],
      ['row2', 2],
    ]);
  });

  it('refuses an xlsx whose zip holds more entries or bytes than the bounds, before SheetJS inflates it', async () => {
    const content = await workbook([['a', 1]]);
    await expect(firstSheetRows(content, { ...bounds, entries: 3 }, refuse)).rejects.toThrow(
      /^zip: the zip holds more than 3 entries/,
    );
    const inflating = new JSZip();
    inflating.file('xl/big.bin', Buffer.alloc(20 * 1024 * 1024, 0x20));
    const bomb = await inflating.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(firstSheetRows(bomb, bounds, refuse)).rejects.toThrow(
      /^zip: the zip holds more than 10 MiB uncompressed/,
    );
  });

  it('reads an empty file as a sheet without rows', async () => {
    expect(await firstSheetRows(Buffer.alloc(0), bounds, refuse)).toEqual([]);
  });

  it("refuses what SheetJS cannot read with the caller's error", async () => {
    const broken = new JSZip();
    broken.file('[Content_Types].xml', '<Types/>');
    broken.file('xl/workbook.xml', '<not-a-workbook');
    await expect(firstSheetRows(await broken.generateAsync({ type: 'nodebuffer' }), bounds, refuse)).rejects.toThrow(
      /^sheet: /,
    );
    await expect(
      firstSheetRows(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 1, 2, 3]), bounds, refuse),
    ).rejects.toThrow(/^sheet: /);
  });
});
