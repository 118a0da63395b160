// POST /api/fields/convert (spec 2, Fields: "KML/KMZ/Shapefile to WKT conversion"; docs/decisions.md
// "Boundary files"): real files built here with independent writers (KML text, jszip, shp-write),
// read back as WKT in EPSG 4326; and every hostile input answered with a clear 400.

import shpwrite from '@mapbox/shp-write';
import JSZip from 'jszip';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { call, newUser, type TestUser, unique } from './helpers/api';
import { ellipsoidRectangleHectares, relative } from './helpers/geodesy';
import * as hostile from './helpers/hostile-files';

const convert = (
  user: TestUser | undefined,
  content: Buffer | string,
  filename: string,
  query: Record<string, string> = {},
) => {
  const form = new FormData();
  form.set('file', new Blob([content]), filename);
  return call('POST', '/api/fields/convert', { token: user?.token, body: form, query });
};

/** Pairs of numbers of a WKT. */
const coordinates = (wkt: string) =>
  [...wkt.matchAll(/(-?[\d.e-]+) (-?[\d.e-]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
const near = (actual: number[][], expected: number[][]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach(([x, y], i) => {
    expect(Math.abs(x! - expected[i]![0]!)).toBeLessThan(1e-6);
    expect(Math.abs(y! - expected[i]![1]!)).toBeLessThan(1e-6);
  });
};
const rectangle = (lon: number, lat: number, size: number) => [
  [lon, lat],
  [lon + size, lat],
  [lon + size, lat + size],
  [lon, lat + size],
  [lon, lat],
];
const kmlRing = (ring: number[][]) => ring.map(([x, y]) => `${x},${y},120`).join(' ');

const OUTER = rectangle(-60.5, -33.9, 0.02);
const HOLE = rectangle(-60.495, -33.895, 0.005);
const SECOND = rectangle(-60.4, -33.9, 0.01);

const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Placemark><name>Lote Norte</name><Polygon>
    <outerBoundaryIs><LinearRing><coordinates>${kmlRing(OUTER)}</coordinates></LinearRing></outerBoundaryIs>
    <innerBoundaryIs><LinearRing><coordinates>${kmlRing(HOLE)}</coordinates></LinearRing></innerBoundaryIs>
  </Polygon></Placemark>
  <Placemark><name>Lote Sur</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(SECOND)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
  <Placemark><name>Molino</name><Point><coordinates>-60.45,-33.85,0</coordinates></Point></Placemark>
</Document></kml>`;

const zip = async (files: Record<string, string | Buffer>) => {
  const archive = new JSZip();
  for (const [name, content] of Object.entries(files)) archive.file(name, content);
  return archive.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
};

function expectKmlPolygons(body: any) {
  const { polygons, skipped } = body.data;
  expect(polygons.map((p: any) => [p.name, p.part, p.valid, p.code])).toEqual([
    ['Lote Norte', null, true, 0],
    ['Lote Sur', null, true, 0],
  ]);
  // the hole is kept; altitudes are dropped
  const [outer, hole] = polygons[0].wkt.slice('POLYGON('.length, -1).split('),(');
  near(coordinates(outer), OUTER);
  near(coordinates(hole), HOLE);
  near(coordinates(polygons[1].wkt), SECOND);
  expect(
    relative(polygons[0].area, ellipsoidRectangleHectares(-33.9, 0.02) - ellipsoidRectangleHectares(-33.895, 0.005)),
  ).toBeLessThan(0.0001);
  expect(relative(polygons[1].area, ellipsoidRectangleHectares(-33.9, 0.01))).toBeLessThan(0.0001);
  expect(skipped).toEqual([{ name: 'Molino', type: 'Point', reason: 'not a polygon' }]);
}

describe('POST /api/fields/convert', () => {
  it('reads a KML: every polygon with its name, holes, area and code; points are skipped; agregarlote takes the result', async () => {
    const user = await newUser();
    const response = await convert(user, KML, 'lotes.kml');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ res: 'ok', code: 0, data: { format: 'kml' } });
    expectKmlPolygons(response.body);
    const created = await call('POST', '/api/agregarlote', {
      token: user.token,
      form: {
        nombre: response.body.data.polygons[0].name,
        shape: response.body.data.polygons[0].wkt,
        nombrecampo: unique('Campo').slice(0, 40),
      },
    });
    expect([created.status, created.body.code]).toEqual([200, 0]);
  });

  it('reads the same KML inside a KMZ', async () => {
    const user = await newUser();
    const response = await convert(
      user,
      await zip({ 'doc.kml': KML, 'files/icon.png': Buffer.from([0x89, 0x50]) }),
      'lotes.kmz',
    );
    expect(response.status).toBe(200);
    expect(response.body.data.format).toBe('kmz');
    expectKmlPolygons(response.body);
  });

  it('reads a KML saved with a UTF-8 byte-order mark, and one in ISO-8859-1 or Windows-1252 as its declaration says', async () => {
    const user = await newUser();
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(KML, 'utf8')]);
    for (const [content, filename] of [
      [withBom, 'lotes.kml'],
      [await zip({ 'doc.kml': withBom }), 'lotes.kmz'],
    ] as const) {
      const response = await convert(user, content, filename);
      expect(response.status, `${filename}: ${response.text}`).toBe(200);
      expectKmlPolygons(response.body);
    }
    // names with accents, ñ and (Windows-1252 only) the euro sign and curly quotes, one byte each
    const named = (encoding: string, name: string) =>
      `<?xml version="1.0" encoding="${encoding}"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>${name}</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(SECOND)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`;
    const latin1 = 'Lote Ñandú, cañada Pérez';
    const cp1252 = 'Potrero “Añejo” €';
    for (const [encoding, name, bytes] of [
      ['ISO-8859-1', latin1, Buffer.from(named('ISO-8859-1', latin1), 'latin1')],
      [
        'windows-1252',
        cp1252,
        Buffer.from(
          named('windows-1252', cp1252).replace('“', '\x93').replace('”', '\x94').replace('€', '\x80'),
          'latin1',
        ),
      ],
    ] as const) {
      expect(bytes.includes(Buffer.from('ñ', 'utf8')), encoding).toBe(false);
      const response = await convert(user, bytes, 'lote.kml');
      expect(response.status, `${encoding}: ${response.text}`).toBe(200);
      expect(response.body.data.polygons.map((p: any) => p.name)).toEqual([name]);
    }
  });

  it('reads a zipped shapefile in UTM 20S: reprojected from its .prj, names decoded with its .cpg', async () => {
    const utm20s = '+proj=utm +zone=20 +south +datum=WGS84 +units=m +no_defs';
    const prj =
      'PROJCS["WGS 84 / UTM zone 20S",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],' +
      'PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",-63],PARAMETER["scale_factor",0.9996],' +
      'PARAMETER["false_easting",500000],PARAMETER["false_northing",10000000],UNIT["metre",1]]';
    const toUtm = (ring: number[][]) => ring.map((p) => proj4('EPSG:4326', utm20s, p));
    const a = rectangle(-63.2, -31.5, 0.01);
    const b = rectangle(-63.1, -31.5, 0.01);
    const geojson = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { NOMBRE: 'Potrero Ñandú', CODIGO: 'P-1' },
          geometry: { type: 'Polygon', coordinates: [toUtm(a).reverse()] },
        },
        {
          type: 'Feature',
          properties: { NOMBRE: 'Lote Añejo', CODIGO: 'L-2' },
          geometry: { type: 'Polygon', coordinates: [toUtm(b).reverse()] },
        },
      ],
    };
    const written = await JSZip.loadAsync(
      (await shpwrite.zip(
        geojson as never,
        { outputType: 'nodebuffer', prj, types: { polygon: 'lotes' } } as never,
      )) as Buffer,
    );
    written.file('lotes.cpg', 'ISO-8859-1');
    const file = await written.generateAsync({ type: 'nodebuffer' });
    const user = await newUser();
    const response = await convert(user, file, 'lotes.zip');
    expect(response.status).toBe(200);
    expect(response.body.data.format).toBe('shapefile');
    const polygons = response.body.data.polygons;
    expect(polygons.map((p: any) => [p.name, p.valid])).toEqual([
      ['Potrero Ñandú', true],
      ['Lote Añejo', true],
    ]);
    // the same vertices, whatever the ring's start and orientation
    const sorted = (ring: number[][]) => ring.slice(0, -1).sort((p, q) => p[0]! - q[0]! || p[1]! - q[1]!);
    near(sorted(coordinates(polygons[0].wkt)), sorted(a));
    near(sorted(coordinates(polygons[1].wkt)), sorted(b));
    expect(relative(polygons[0].area, ellipsoidRectangleHectares(-31.5, 0.01))).toBeLessThan(0.001);
    const byCode = await convert(user, file, 'lotes.zip', { name_field: 'codigo' });
    expect(byCode.body.data.polygons.map((p: any) => p.name)).toEqual(['P-1', 'L-2']);
    const created = await call('POST', '/api/agregarlote', {
      token: user.token,
      form: { nombre: polygons[0].name, shape: polygons[0].wkt, nombrecampo: unique('Campo').slice(0, 40) },
    });
    expect([created.status, created.body.code]).toEqual([200, 0]);
  });

  it('answers the code agregarlote would give (10 invalid, 11 too large) and splits multi-polygons into parts', async () => {
    const bowtie = [
      [-60.5, -33.9],
      [-60.49, -33.89],
      [-60.49, -33.9],
      [-60.5, -33.89],
      [-60.5, -33.9],
    ];
    const huge = rectangle(-62, -35, 1);
    const kml = `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>
      <Placemark><name>Moño</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(bowtie)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
      <Placemark><name>Enorme</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(huge)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
      <Placemark><name>Dos partes</name><MultiGeometry>
        <Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(OUTER)}</coordinates></LinearRing></outerBoundaryIs></Polygon>
        <Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(SECOND)}</coordinates></LinearRing></outerBoundaryIs></Polygon>
        <LineString><coordinates>-60.5,-33.9 -60.4,-33.8</coordinates></LineString>
      </MultiGeometry></Placemark>
    </Document></kml>`;
    const response = await convert(await newUser(), kml, 'mixed.kml');
    expect(response.status).toBe(200);
    expect(response.body.data.polygons.map((p: any) => [p.name, p.part, p.valid, p.code])).toEqual([
      ['Moño', null, false, 10],
      ['Enorme', null, false, 11],
      ['Dos partes', 1, true, 0],
      ['Dos partes', 2, true, 0],
    ]);
    expect(response.body.data.skipped).toEqual([{ name: 'Dos partes', type: 'LineString', reason: 'not a polygon' }]);
  });

  it('answers code 11 for a sliver small in area and huge in extent, as agregarlote would', async () => {
    const sliver = [
      [-61, -34],
      [-60.25, -33.25],
      [-60.25, -33.24999],
      [-61, -33.99999],
      [-61, -34],
    ];
    const kml = `<kml><Placemark><name>Franja</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(sliver)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`;
    const response = await convert(await newUser(), kml, 'franja.kml');
    expect(response.status).toBe(200);
    expect(response.body.data.polygons).toMatchObject([{ name: 'Franja', valid: false, code: 11 }]);
    expect(response.body.data.polygons[0].info).toMatch(/imagery grid would pass/);
  });

  describe('hostile and broken files: a clear 400 in the general dialect, never a 500 or a hang', () => {
    const refused = async (content: Buffer | string, filename: string, message: RegExp) => {
      const response = await convert(await newUser(), content, filename);
      expect([response.status, response.body.res, response.body.code], response.text.slice(0, 200)).toEqual([
        400,
        'error',
        -4,
      ]);
      expect(response.body.info).toMatch(message);
    };

    it('small hostile files (a .dbf of 4 billion records, a KMZ of a 64 MiB KML, a 4 MiB KML of tiny elements, ...) within 2 s each', async () => {
      const user = await newUser();
      await convert(user, KML, 'warm.kml'); // a cold function is not what is timed
      const files: Array<[hostile.HostileFile, RegExp]> = [
        [hostile.dbfRecordsBomb(), /\.dbf declares 4294967280 records/],
        [hostile.shpVerticesBomb(), /lote\.shp" is larger than 8 MiB/],
        [hostile.kmzBomb(), /larger than 16 MiB/],
        [hostile.kmlTinyElements(), /more than 60000 tags and attributes/],
        [hostile.kmlAttributes(), /more than 60000 tags and attributes/],
        [hostile.kmlVertices(), /more than 200000 vertices/],
      ];
      for (const [file, message] of files) {
        const started = performance.now();
        const response = await convert(user, file.content, file.filename);
        expect([file.label, response.status, response.body.code]).toEqual([file.label, 400, -4]);
        expect(response.body.info).toMatch(message);
        expect(performance.now() - started, file.label).toBeLessThan(2000);
      }
    });

    it('a zip bomb (an entry of 80 MiB)', async () => {
      const bomb = await zip({ 'doc.kml': Buffer.alloc(80 * 1024 * 1024, 0x20) });
      expect(bomb.length).toBeLessThan(1024 * 1024);
      await refused(bomb, 'bomb.kmz', /uncompressed/);
    });

    it('a zip of more than 100 entries', async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 101; i++) files[`f${i}.txt`] = 'x';
      await refused(await zip(files), 'many.zip', /more than 100 entries/);
    });

    it('an entry outside its folder (path traversal)', async () => {
      await refused(await zip({ '../../evil.kml': KML }), 'evil.kmz', /outside its folder/);
    });

    it('a KML with entities (billion laughs) or an external entity', async () => {
      const laughs = `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><kml><Document><name>&c;</name></Document></kml>`;
      await refused(laughs, 'laughs.kml', /document type or entities/);
      const external = `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml><Document><name>&x;</name></Document></kml>`;
      await refused(external, 'xxe.kml', /document type or entities/);
    });

    it('more vertices than the bound', async () => {
      const ring = Array.from({ length: 200_001 }, (_, i) => `${i % 180},${Math.floor(i / 2500)}`).join(' ');
      const kml = `<kml><Document><Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`;
      await refused(kml, 'dense.kml', /200000 vertices/);
    });

    it('broken XML, a zip without a KML or shapefile, a broken shapefile, another kind of file, no file', async () => {
      await refused('<kml><Document><Placemark>', 'cut.kml', /not well-formed/);
      await refused(await zip({ 'readme.txt': 'hola' }), 'nothing.zip', /no KML and no shapefile/);
      await refused(await zip({ 'lotes.shp': Buffer.from('not a shapefile at all') }), 'broken.zip', /cannot be read/);
      await refused(Buffer.from('%PDF-1.7 ...'), 'lotes.pdf', /not a KML, a KMZ or a zipped shapefile/);
      const user = await newUser();
      const form = new FormData();
      form.set('other', 'x');
      const missing = await call('POST', '/api/fields/convert', { token: user.token, body: form });
      expect([missing.status, missing.body.code]).toEqual([400, -4]);
    });

    it('a file over 4 MiB (413) and an anonymous caller (401)', async () => {
      const big = await convert(await newUser(), Buffer.alloc(5 * 1024 * 1024, 0x20), 'big.kml');
      expect([big.status, big.body.res]).toEqual([413, 'error']);
      const anonymous = await convert(undefined, KML, 'lotes.kml');
      expect(anonymous.status).toBe(401);
    });
  });
});
