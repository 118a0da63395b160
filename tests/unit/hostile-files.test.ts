// Resource exhaustion from small files: every upload route's reader refuses a hostile
// file with the route's documented 400 within 2 s and under 128 MB of heap, however the file is
// built. Each file is generated here (tests/helpers/hostile-files.ts, a few KB each) and read by the
// reader the route's function calls, bundled as the functions are and run in a worker thread whose
// V8 heap is capped at 128 MB (tests/unit/helpers/bounded.ts): a reader that needs more ends the
// worker out of memory and fails the test. Before the bounds: the .dbf bomb and the KMZ ran out of
// 1 GB of heap, the 4 MiB KML took 41 s and 880 MB, the workbooks ran out of 128 MB.
import { afterAll, describe, expect, it } from 'vitest';
import * as hostile from '../helpers/hostile-files';
import { readBounded, type Upload } from './helpers/bounded';

const HEAP_MB = 128;
const SECONDS = 2;

/** A benign file of each route, read first so that loading the reader is not timed. */
const warm: Record<string, Upload> = {
  convert: {
    filename: 'lote.kml',
    content: Buffer.from(
      '<kml><Placemark><name>Lote</name><Polygon><outerBoundaryIs><LinearRing><coordinates>-60.57,-33.89 -60.57,-33.88 -60.56,-33.88 -60.56,-33.89 -60.57,-33.89</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>',
    ),
  },
  layerFile: {
    filename: 'rinde.zip',
    content: hostile.zipOf({ 'rinde.csv': 'lat,lon,rinde\n-33.885,-60.565,9000\n' }),
  },
  spotSheet: {
    filename: 'planilla.xlsx',
    content: hostile.xlsxOf(
      '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Service_Spot_ID</t></is></c></row></sheetData></worksheet>',
    ),
  },
};

/** Each route's refusal: what its function answers with status 400. */
const refusal = {
  convert: { kind: 'invalid' }, // general dialect, code -4
  layerFile: { kind: 'invalid', code: 'ERROR_ARCHIVO' },
  spotSheet: { kind: 'invalid', code: 52 }, // error loading sheet
};

const cases: Array<[keyof typeof refusal, () => hostile.HostileFile, RegExp]> = [
  [
    'convert',
    hostile.dbfRecordsBomb,
    /the \.dbf declares 4294967280 records of 11 bytes, more than its \d+ bytes hold/,
  ],
  ['convert', hostile.shpVerticesBomb, /lote\.shp" is larger than 8 MiB/],
  ['convert', hostile.kmzBomb, /entry "doc\.kml" is larger than 16 MiB/],
  ['convert', hostile.kmlTinyElements, /more than 60000 tags and attributes/],
  ['convert', hostile.kmlAttributes, /more than 60000 tags and attributes/],
  ['convert', hostile.kmlVertices, /more than 200000 vertices/],
  ['layerFile', hostile.manyTables, /the tables hold more than 200000 rows/],
  ['layerFile', hostile.manyColumns, /a table holds more than 1000 columns/],
  ['layerFile', () => hostile.zipped(hostile.sharedStringsBomb()), /sharedStrings\.xml" is larger than 16 MiB/],
  ['layerFile', () => hostile.zipped(hostile.sharedStringRunsBomb()), /sharedStrings\.xml" is larger than 16 MiB/],
  ['layerFile', () => hostile.zipped(hostile.cellsBomb()), /a sheet holds more than 2000000 cells/],
  ['layerFile', () => hostile.zipped(hostile.wideSheet()), /the sheet spans more than 1000 columns/],
  [
    'layerFile',
    hostile.dbfRecordsBomb,
    /the \.dbf declares 4294967280 records of 11 bytes, more than its \d+ bytes hold/,
  ],
  ['layerFile', hostile.shpVerticesBomb, /lote\.shp" is larger than 32 MiB/],
  ['layerFile', hostile.lyingEntry, /no point or polygon/],
  ['spotSheet', hostile.sharedStringsBomb, /error loading sheet/],
  ['spotSheet', hostile.sharedStringRunsBomb, /error loading sheet/],
  ['spotSheet', hostile.cellsBomb, /error loading sheet/],
  ['spotSheet', hostile.wideSheet, /error loading sheet/],
];

describe(`hostile files: refused with the route's 400 within ${SECONDS} s and ${HEAP_MB} MB of heap`, () => {
  const figures: string[] = [];
  afterAll(() => {
    if (figures.length) console.log(`hostile files (reader, ms, heap MB):\n${figures.join('\n')}`);
  });
  for (const [reader, make, message] of cases) {
    const file = make();
    it(`${reader}: ${file.label} (${Math.ceil(file.content.length / 1024)} KB)`, async () => {
      expect(file.content.length).toBeLessThan(4 * 1024 * 1024); // every upload route takes it
      const outcome = await readBounded(reader, file, { heapMb: HEAP_MB, warm: warm[reader] });
      figures.push(`${reader}\t${Math.round(outcome.ms)}\t${Math.round(outcome.heapMb)}\t${file.label}`);
      expect(outcome.ok, outcome.value).toBe(false);
      expect(outcome.error).toMatchObject(refusal[reader]);
      expect(outcome.error!.message).toMatch(message);
      expect(outcome.ms).toBeLessThan(SECONDS * 1000);
      expect(outcome.heapMb).toBeLessThan(HEAP_MB);
    }, 60_000);
  }

  it('the spot sheet tells which bound (in detail)', async () => {
    const { readSheetRows } = await import('../../lib/spots/sheets');
    await expect(readSheetRows(hostile.cellsBomb())).rejects.toMatchObject({
      extra: { detail: 'a sheet holds more than 2090209 cells' },
    });
    await expect(readSheetRows(hostile.sharedStringsBomb())).rejects.toMatchObject({
      extra: { detail: 'the zip\'s entry "xl/sharedStrings.xml" is larger than 16 MiB uncompressed' },
    });
  });
});
