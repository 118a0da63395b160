// A GeoTIFF writer for rendered images: one DEFLATE-compressed strip, little-endian, with the
// georeferencing GDAL reads (ModelPixelScale, ModelTiepoint, GeoKeyDirectory) and GDAL_NODATA.
// geotiff.js (which reads the scenes) also writes GeoTIFFs, but uncompressed only and at about
// 500 ms per million float32 pixels (it builds a DataView per value): a 1000 x 1000 image took most
// of a second and 4 MB, near Lambda's 6 MB response limit once base64-encoded (docs/imagery.md).
// The tests read every image back with GDAL (gdalinfo, compiled to WebAssembly: tests/helpers/gdal.ts).
import { deflateSync } from 'node:zlib';
import { isGeographic } from './epsg';
import { type Grid, pixelHeight } from './grid';

const SHORT = 3;
const LONG = 4;
const ASCII = 2;
const DOUBLE = 12;
const SIZE: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8 };

interface Tag {
  id: number;
  type: number;
  values: number[] | string;
}

export interface GeoTiffImage {
  grid: Grid;
  /** Pixel-interleaved samples: Float32Array, Uint16Array or Uint8Array (one band, or three of 8 bits). */
  data: Float32Array | Uint16Array | Uint8Array;
  samples: 1 | 3;
  /** GDAL_NODATA, e.g. 'nan' or '0'. */
  noData: string;
}

function geoKeys(epsg: number): number[] {
  const geographic = isGeographic(epsg);
  const keys = [
    [1024, 0, 1, geographic ? 2 : 1], // GTModelTypeGeoKey: projected or geographic
    [1025, 0, 1, 1], // GTRasterTypeGeoKey: PixelIsArea
    geographic ? [2048, 0, 1, epsg] : [3072, 0, 1, epsg], // GeographicTypeGeoKey / ProjectedCSTypeGeoKey
  ];
  return [1, 1, 0, keys.length, ...keys.flat()];
}

/**
 * The header of a little-endian TIFF with one IFD: the tags, their values longer than 4 bytes after
 * it, and where the image data starts (`place` sets the data offsets before the tags are written).
 */
function headerOf(tags: Tag[], place: (dataOffset: number) => void): { header: Buffer; dataOffset: number } {
  const count = (tag: Tag) => tag.values.length;
  const ifdSize = 2 + tags.length * 12 + 4;
  // values longer than 4 bytes go after the IFD, each at an even offset
  let extra = 8 + ifdSize;
  const offsets = new Map<Tag, number>();
  for (const tag of tags) {
    const bytes = count(tag) * SIZE[tag.type]!;
    if (bytes > 4) {
      offsets.set(tag, extra);
      extra += bytes + (bytes % 2);
    }
  }
  const dataOffset = extra;
  place(dataOffset);
  const out = Buffer.alloc(dataOffset);
  out.write('II', 0, 'ascii');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(tags.length, 8);
  const writeValues = (tag: Tag, at: number) => {
    if (typeof tag.values === 'string') return void out.write(tag.values, at, 'latin1');
    tag.values.forEach((value, i) => {
      if (tag.type === SHORT) out.writeUInt16LE(value, at + i * 2);
      else if (tag.type === LONG) out.writeUInt32LE(value, at + i * 4);
      else out.writeDoubleLE(value, at + i * 8);
    });
  };
  tags.forEach((tag, i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(tag.id, at);
    out.writeUInt16LE(tag.type, at + 2);
    out.writeUInt32LE(count(tag), at + 4);
    const offset = offsets.get(tag);
    if (offset === undefined) writeValues(tag, at + 8);
    else {
      out.writeUInt32LE(offset, at + 8);
      writeValues(tag, offset);
    }
  });
  out.writeUInt32LE(0, 10 + tags.length * 12); // no next IFD
  return { header: out, dataOffset };
}

/**
 * The header of a tiled, uncompressed uint16 GeoTIFF (one band) whose blocks follow it in row-major
 * order, each `block` x `block` pixels (2 block^2 bytes, the last column and row padded): the local
 * catalogue serves such files block by block without ever holding one whole (scripts/local/catalogue.ts).
 */
export function tiledHeader({ grid, block, noData }: { grid: Grid; block: number; noData: string }): {
  header: Buffer;
  blockBytes: number;
  blocksAcross: number;
  blocksDown: number;
  size: number;
} {
  const blocksAcross = Math.ceil(grid.width / block);
  const blocksDown = Math.ceil(grid.height / block);
  const blockBytes = block * block * 2;
  const n = blocksAcross * blocksDown;
  const offsets: number[] = Array(n).fill(0);
  const tags: Tag[] = [
    { id: 256, type: LONG, values: [grid.width] },
    { id: 257, type: LONG, values: [grid.height] },
    { id: 258, type: SHORT, values: [16] },
    { id: 259, type: SHORT, values: [1] }, // no compression
    { id: 262, type: SHORT, values: [1] }, // min-is-black
    { id: 277, type: SHORT, values: [1] },
    { id: 284, type: SHORT, values: [1] },
    { id: 322, type: SHORT, values: [block] }, // TileWidth
    { id: 323, type: SHORT, values: [block] }, // TileLength
    { id: 324, type: LONG, values: offsets }, // TileOffsets, set below
    { id: 325, type: LONG, values: Array(n).fill(blockBytes) }, // TileByteCounts
    { id: 339, type: SHORT, values: [1] }, // unsigned
    { id: 33550, type: DOUBLE, values: [grid.pixel, pixelHeight(grid), 0] },
    { id: 33922, type: DOUBLE, values: [0, 0, 0, grid.x0, grid.y0, 0] },
    { id: 34735, type: SHORT, values: geoKeys(grid.epsg) },
    { id: 42113, type: ASCII, values: `${noData}\0` },
  ];
  const { header, dataOffset } = headerOf(tags, (start) => {
    for (let i = 0; i < n; i++) offsets[i] = start + i * blockBytes;
  });
  return { header, blockBytes, blocksAcross, blocksDown, size: dataOffset + n * blockBytes };
}

export function writeGeoTiff({ grid, data, samples, noData }: GeoTiffImage): Buffer {
  const float = data instanceof Float32Array;
  const bits = data.BYTES_PER_ELEMENT * 8;
  const pixels = Buffer.from(data.buffer, data.byteOffset, data.byteLength); // little-endian on every platform Node runs on
  const strip = deflateSync(pixels, { level: 1 });
  const tags: Tag[] = [
    { id: 256, type: LONG, values: [grid.width] },
    { id: 257, type: LONG, values: [grid.height] },
    { id: 258, type: SHORT, values: Array(samples).fill(bits) },
    { id: 259, type: SHORT, values: [8] }, // Adobe DEFLATE
    { id: 262, type: SHORT, values: [samples === 3 ? 2 : 1] }, // RGB / min-is-black
    { id: 273, type: LONG, values: [0] }, // StripOffsets, set below
    { id: 277, type: SHORT, values: [samples] },
    { id: 278, type: LONG, values: [grid.height] },
    { id: 279, type: LONG, values: [strip.length] },
    { id: 284, type: SHORT, values: [1] }, // chunky
    { id: 339, type: SHORT, values: Array(samples).fill(float ? 3 : 1) }, // IEEE float / unsigned
    { id: 33550, type: DOUBLE, values: [grid.pixel, pixelHeight(grid), 0] },
    { id: 33922, type: DOUBLE, values: [0, 0, 0, grid.x0, grid.y0, 0] },
    { id: 34735, type: SHORT, values: geoKeys(grid.epsg) },
    { id: 42113, type: ASCII, values: `${noData}\0` },
  ];
  const { header, dataOffset } = headerOf(tags, (offset) => {
    (tags[5]!.values as number[])[0] = offset;
  });
  const out = Buffer.alloc(dataOffset + strip.length);
  header.copy(out);
  const stripOffset = dataOffset;
  strip.copy(out, stripOffset);
  return out;
}
