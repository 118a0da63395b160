// Small hostile files ("Resource exhaustion from small files"), built here, a few KB each:
// each declares or expands to far more than its bytes. Used by the readers' unit tests
// (tests/unit/hostile-files.test.ts, with heap and time bounded), the upload routes' stack tests
// and the fuzz. Zips are deflated by zlib at its highest level (deploy/zip.cjs); the large entries
// in chunks, so that building a 64 MiB entry never holds it whole.
import { createRequire } from 'node:module';
import { zipSync } from 'fflate';

export interface HostileFile {
  /** What it is, for test names. */
  label: string;
  filename: string;
  content: Buffer;
}

const text = (value: string) => new TextEncoder().encode(value);

const { zipOf: zlibZip } = createRequire(import.meta.url)('../../deploy/zip.cjs') as {
  zipOf: (entries: Record<string, Uint8Array | (() => Iterable<Uint8Array>)>, options: { level: number }) => Buffer;
};

/** A zip of the entries; a function entry yields the entry's text in chunks (streamed, never whole). */
export function zipOf(entries: Record<string, string | Uint8Array | (() => Iterable<string | Uint8Array>)>): Buffer {
  const bytes = (chunk: string | Uint8Array) => (typeof chunk === 'string' ? text(chunk) : chunk);
  return zlibZip(
    Object.fromEntries(
      Object.entries(entries).map(([name, value]) => [
        name,
        typeof value === 'function'
          ? function* () {
              for (const chunk of value()) yield bytes(chunk);
            }
          : bytes(value),
      ]),
    ),
    { level: 9 },
  );
}

/** `count` copies of `unit`, in chunks of about 1 MiB. */
function* repeated(unit: string, count: number): Iterable<string> {
  const perChunk = Math.max(1, Math.floor((1024 * 1024) / unit.length));
  const chunk = unit.repeat(perChunk);
  for (let left = count; left > 0; left -= perChunk) yield left >= perChunk ? chunk : unit.repeat(left);
}

// --- shapefiles -----------------------------------------------------------------------------

/** A .shp (and its .shx) holding one square polygon, or `points` vertices of one ring when given. */
function shapefile(points = 5): { shp: Uint8Array; shx: Uint8Array } {
  const content = 44 + 4 + points * 16; // type, bbox, parts, points, one part index, the points
  const shp = new DataView(new ArrayBuffer(100 + 8 + content));
  const header = (view: DataView, bytes: number) => {
    view.setInt32(0, 9994);
    view.setInt32(24, bytes / 2);
    view.setInt32(28, 1000, true);
    view.setInt32(32, 5, true);
    [-60.57, -33.89, -60.56, -33.88].forEach((value, i) => {
      view.setFloat64(36 + i * 8, value, true);
    });
  };
  header(shp, shp.byteLength);
  shp.setInt32(100, 1);
  shp.setInt32(104, content / 2);
  shp.setInt32(108, 5, true);
  [-60.57, -33.89, -60.56, -33.88].forEach((value, i) => {
    shp.setFloat64(112 + i * 8, value, true);
  });
  shp.setInt32(144, 1, true);
  shp.setInt32(148, points, true);
  shp.setInt32(152, 0, true);
  const square = [
    [-60.57, -33.89],
    [-60.57, -33.88],
    [-60.56, -33.88],
    [-60.56, -33.89],
    [-60.57, -33.89],
  ];
  for (let i = 0; i < points; i++) {
    const [x, y] = points === 5 ? square[i]! : [-60.57, -33.89];
    shp.setFloat64(156 + i * 16, x!, true);
    shp.setFloat64(164 + i * 16, y!, true);
  }
  const shx = new DataView(new ArrayBuffer(108));
  header(shx, 108);
  shx.setInt32(100, 50);
  shx.setInt32(104, content / 2);
  return { shp: new Uint8Array(shp.buffer), shx: new Uint8Array(shx.buffer) };
}

/** A .dbf of one character field `NAME` (10 bytes) declaring `records` records, holding `held` of them. */
function dbf(records: number, held = 1): Uint8Array {
  const headerLength = 32 + 32 + 1;
  const view = new DataView(new ArrayBuffer(headerLength + held * 11 + 1));
  view.setUint8(0, 3);
  view.setUint32(4, records, true);
  view.setUint16(8, headerLength, true);
  view.setUint16(10, 11, true);
  new Uint8Array(view.buffer).set(text('NAME'), 32);
  view.setUint8(32 + 11, 'C'.charCodeAt(0));
  view.setUint8(32 + 16, 10);
  view.setUint8(64, 0x0d);
  for (let i = 0; i < held; i++) new Uint8Array(view.buffer).set(text(' Lote 1   '), headerLength + i * 11);
  view.setUint8(view.byteLength - 1, 0x1a);
  return new Uint8Array(view.buffer);
}

/** A zipped shapefile of one polygon whose .dbf header claims ~4 billion records (385 bytes, 10 s, 504). */
export function dbfRecordsBomb(): HostileFile {
  const { shp, shx } = shapefile();
  return {
    label: 'a zipped shapefile whose .dbf declares 4 billion records',
    filename: 'lote.zip',
    content: zipOf({ 'lote.shp': shp, 'lote.shx': shx, 'lote.dbf': dbf(0xfffffff0) }),
  };
}

/** A zipped shapefile of one polygon ring of 4 million vertices (64 MiB of .shp, a few KB zipped). */
export function shpVerticesBomb(): HostileFile {
  const { shp, shx } = shapefile(4_000_000);
  return {
    label: 'a zipped shapefile of one ring of 4 million vertices',
    filename: 'lote.zip',
    content: zipOf({ 'lote.shp': shp, 'lote.shx': shx, 'lote.dbf': dbf(1) }),
  };
}

// --- KML -----------------------------------------------------------------------------------

/** A KMZ of ~61 KB holding a KML of 64 MiB of tiny elements (out of memory at 14-18 s). */
export function kmzBomb(): HostileFile {
  const element = '<a/>';
  const count = (64 * 1024 * 1024 - 64) / element.length;
  return {
    label: 'a KMZ of 61 KB holding a 64 MiB KML',
    filename: 'lote.kmz',
    content: zipOf({
      'doc.kml': function* () {
        yield '<?xml version="1.0"?><kml><Document>';
        yield* repeated(element, count);
        yield '</Document></kml>';
      },
    }),
  };
}

/** A plain KML of 4 MiB of tiny elements (a full DOM before any bound). */
export function kmlTinyElements(): HostileFile {
  return {
    label: 'a 4 MiB KML of tiny elements',
    filename: 'lote.kml',
    content: Buffer.from(`<kml><Document>${'<a/>'.repeat((4 * 1024 * 1024 - 40) / 4)}</Document></kml>`),
  };
}

/** A plain KML of one ring of a million vertices (4 MiB). */
export function kmlVertices(): HostileFile {
  return {
    label: 'a 4 MiB KML of one ring of a million vertices',
    filename: 'lote.kml',
    content: Buffer.from(
      `<kml><Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>${'1,1 '.repeat(1_000_000)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`,
    ),
  };
}

/** A plain KML of one element with 400,000 attributes (every attribute is a node of the DOM). */
export function kmlAttributes(): HostileFile {
  const attributes = Array.from({ length: 400_000 }, (_, i) => `a${i.toString(36)}=""`).join(' ');
  return {
    label: 'a KML element with 400,000 attributes',
    filename: 'lote.kml',
    content: Buffer.from(`<kml><Document ${attributes}/></kml>`),
  };
}

// --- tables (layer files, spot sheets) --------------------------------------------------------

const tableRows = (rows: number) =>
  function* () {
    yield 'lat,lon,rinde\n';
    yield* repeated('-33.88,-60.56,9\n', rows);
  };

/** A zip of 17 csv tables of 200,000 rows each (POST /files answered 504). */
export function manyTables(): HostileFile {
  const entries: Record<string, () => Iterable<string>> = {};
  for (let i = 1; i <= 17; i++) entries[`rinde-${i}.csv`] = tableRows(200_000);
  return { label: 'a zip of 17 csv tables of 200,000 rows', filename: 'rinde.zip', content: zipOf(entries) };
}

/** A zip of one csv whose rows have a million columns (POST /files answered 504). */
export function manyColumns(): HostileFile {
  return {
    label: 'a zip of a csv of a million columns',
    filename: 'rinde.zip',
    content: zipOf({
      'rinde.csv': function* () {
        yield 'lat,lon';
        yield* repeated(',c', 1_000_000);
        yield '\n-33.885,-60.565';
        yield* repeated(',1', 1_000_000);
        yield '\n';
      },
    }),
  };
}

// --- workbooks ----------------------------------------------------------------------------

/** An .xlsx of one sheet, its parts given (sheet XML, shared strings XML) and streamed when functions. */
export function xlsxOf(sheet: string | (() => Iterable<string>), sharedStrings?: string | (() => Iterable<string>)) {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const pkg = 'http://schemas.openxmlformats.org/package/2006/relationships';
  const types = 'http://schemas.openxmlformats.org/package/2006/content-types';
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return zipOf({
    '[Content_Types].xml':
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${types}">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.worksheet+xml"/>` +
      (sharedStrings ? `<Override PartName="/xl/sharedStrings.xml" ContentType="${ct}.sharedStrings+xml"/>` : '') +
      '</Types>',
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${pkg}"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${pkg}"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/>` +
      (sharedStrings ? `<Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/>` : '') +
      '</Relationships>',
    'xl/worksheets/sheet1.xml': sheet,
    ...(sharedStrings ? { 'xl/sharedStrings.xml': sharedStrings } : {}),
  });
}

const sheetXml = (rows: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
const sheetStart =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';

/** An .xlsx whose shared strings table holds 3 million strings (~50 MiB), the sheet a few cells using them. */
export function sharedStringsBomb(filename = 'planilla.xlsx'): HostileFile {
  const count = 3_000_000;
  return {
    label: 'an xlsx whose shared strings expand to 3 million strings',
    filename,
    content: xlsxOf(
      sheetXml(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
          '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>1</v></c></row>',
      ),
      function* () {
        yield `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${count}" uniqueCount="${count}">`;
        yield '<si><t>Service_Spot_ID</t></si><si><t>ph [pH]</t></si>';
        yield* repeated('<si><t>x</t></si>', count);
        yield '</sst>';
      },
    ),
  };
}

/** An .xlsx whose one shared string is 2 million rich-text runs (one string that expands as it is read). */
export function sharedStringRunsBomb(filename = 'planilla.xlsx'): HostileFile {
  return {
    label: 'an xlsx whose one shared string holds 2 million runs',
    filename,
    content: xlsxOf(
      sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>0</v></c></row>'),
      function* () {
        yield '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si>';
        yield* repeated('<r><t>x</t></r>', 2_000_000);
        yield '</si></sst>';
      },
    ),
  };
}

/** An .xlsx of 3 million (empty) cells, 300,000 rows of 10: 15 MiB of sheet, past every upload's bound of cells. */
export function cellsBomb(filename = 'planilla.xlsx'): HostileFile {
  return {
    label: 'an xlsx of 3 million cells',
    filename,
    content: xlsxOf(function* () {
      yield sheetStart;
      yield* repeated(`<row>${'<c/>'.repeat(10)}</row>`, 300_000);
      yield '</sheetData></worksheet>';
    }),
  };
}

/** An .xlsx of two cells, one in the sheet's last column, whose dimension claims the whole sheet. */
export function wideSheet(filename = 'planilla.xlsx'): HostileFile {
  return {
    label: 'an xlsx whose cells and dimension span 16,384 columns and a million rows',
    filename,
    content: xlsxOf(
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        '<dimension ref="A1:XFD1048576"/><sheetData>' +
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Service_Spot_ID</t></is></c><c r="XFD1"><v>1</v></c></row>' +
        `${Array.from({ length: 2000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>1</v></c><c r="XFD${i + 2}"><v>1</v></c></row>`).join('')}` +
        '</sheetData></worksheet>',
    ),
  };
}

/** A zip holding a workbook (layer files take tables inside a zip). */
export const zipped = (file: HostileFile, filename = 'rinde.zip'): HostileFile => ({
  label: `a zip holding ${file.label}`,
  filename,
  content: zipOf({ [file.filename]: new Uint8Array(file.content) }),
});

/** A zip of one entry that declares 1 KB and holds 64 MiB. */
export function lyingEntry(): HostileFile {
  const zip = Buffer.from(zipSync({ 'rinde.csv': new Uint8Array(64 * 1024 * 1024) }, { level: 9 }));
  // the local header's and the central directory's uncompressed sizes say 1,024 bytes
  const local = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  zip.writeUInt32LE(1024, local + 22);
  const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  zip.writeUInt32LE(1024, central + 24);
  return { label: 'a zip entry that declares 1 KB and inflates to 64 MiB', filename: 'rinde.zip', content: zip };
}
