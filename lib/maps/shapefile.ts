// A map as a zipped shapefile (POST /api/users/me/maps/download): .shp, .shx, .dbf, .prj (WGS84)
// and a .cpg naming the encoding of the .dbf's texts. Written with @mapbox/shp-write, whose known
// pitfalls (../shared/LIBRARIES.md) are handled here: every feature goes as a MultiPolygon (a
// collection mixing Polygons and MultiPolygons loses the Polygons), rings are wound as shapefiles
// expect (outer rings clockwise, holes counter-clockwise), and texts are written in UTF-8, said by
// the .cpg: its dbf writer stores each character's low byte (Latin-1 at best: “ ” € and any Greek
// or Cyrillic letter came out corrupted), so it is handed each text's UTF-8 bytes, one per character.
// Its writer of the three files, not its `zip` (which zips with JSZip, 125 KB and ~15 ms at a
// cold start, and leaves no room for the .cpg but to unzip and zip again): yazl zips them with the
// .prj and the .cpg in one pass, deflating with Node's own zlib (fflate, which zipped them before,
// builds its Huffman tables when it is imported: ~5 ms of every cold start; ADR 0008).
import { buffer } from 'node:stream/consumers';
import WGS84_PRJ from '@mapbox/shp-write/src/prj.js';
import writeShapefile from '@mapbox/shp-write/src/write.js';
import { ZipFile } from 'yazl';
import type { MapRecord } from './model';

type Ring = number[][];
type ShapefileParts = { shp: DataView; shx: DataView; dbf: DataView };

/** Twice the signed area of a ring in lon/lat (positive: counter-clockwise). */
const signedArea = (ring: Ring) =>
  ring.reduce((sum, p, i) => {
    const q = ring[(i + 1) % ring.length]!;
    return sum + p[0]! * q[1]! - q[0]! * p[1]!;
  }, 0);
const wound = (ring: Ring, clockwise: boolean) => (signedArea(ring) < 0 === clockwise ? ring : [...ring].reverse());

/** A file name of the map's name: letters, digits, spaces, dots, dashes and underscores. */
export const shapefileBaseName = (name: string) =>
  name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .trim()
    .slice(0, 100) || 'mapa';

/** A dBase character field holds at most this many bytes. */
const DBF_TEXT_BYTES = 254;

/**
 * A text's UTF-8 bytes as a string of one character per byte (what the dbf writer stores), cut to
 * a character field's 254 bytes at a character boundary (never half a character).
 */
export function utf8Bytes(text: string): string {
  let bytes = Buffer.from(text, 'utf8');
  if (bytes.length > DBF_TEXT_BYTES) {
    let end = DBF_TEXT_BYTES;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    bytes = bytes.subarray(0, end);
  }
  return bytes.toString('latin1');
}

export async function mapShapefile(map: MapRecord, name: string): Promise<Buffer> {
  const base = shapefileBaseName(name);
  const features = map.geojson.features;
  const geometries = features.map((feature) => {
    const parts = (
      feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates
    ) as Ring[][];
    return parts.map((rings) => rings.map((ring, i) => wound(ring, i === 0)));
  });
  // _featid is kept as the client sent it: a text column when any is a text
  const textFeatids = features.some((f) => typeof f.properties._featid === 'string');
  const rows = features.map((feature) => ({
    nombre: utf8Bytes(feature.properties.nombre ?? ''),
    id: feature.properties.id,
    _featid: textFeatids ? utf8Bytes(String(feature.properties._featid)) : feature.properties._featid,
    id_tipo: map.typeId,
  }));
  let files: ShapefileParts | undefined;
  writeShapefile(rows, 'POLYGON', geometries, (error, written) => {
    if (error) throw error;
    files = written;
  });
  const bytes = (view: DataView) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  const zip = new ZipFile();
  const entries: Array<[string, Buffer]> = [
    ['shp', bytes(files!.shp)],
    ['shx', bytes(files!.shx)],
    ['dbf', bytes(files!.dbf)],
    ['prj', Buffer.from(WGS84_PRJ, 'utf8')],
    ['cpg', Buffer.from('UTF-8', 'utf8')],
  ];
  for (const [extension, content] of entries) zip.addBuffer(content, `${base}.${extension}`);
  zip.end();
  return buffer(zip.outputStream);
}
