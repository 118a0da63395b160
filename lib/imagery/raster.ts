// The stored form of one field's scene (one S3 object per field, layer and date; docs/imagery.md):
// a small JSON header and the bands, deflated. Index values are 16-bit integers in steps of 1e-4
// (-32768 is no data), true colour 3 x 8 bits, then the cloud mask, one byte per pixel.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { INDEX_SCALE } from './bands';
import type { Grid, Rings } from './grid';
import { INDEX_OPERATIONS, type IndexOperation } from './layers';

const MAGIC = 'SURCOIMG1';
const NO_DATA = -32768;

export interface StoredScene {
  grid: Grid;
  /** The rings of the field polygon (EPSG 4326) the scene was cut for. */
  rings: Rings;
  /** Version of the shape (docs/imagery.md): a new shape makes the scene stale. */
  shapeVersion: string;
  sceneId: string;
  /** Acquisition time, YYYY-MM-DDTHH:mm:ssZ. */
  datetime: string;
  indices: Record<IndexOperation, Float32Array>;
  rgb: Uint8Array;
  cloud: Uint8Array;
}

type Header = Omit<StoredScene, 'indices' | 'rgb' | 'cloud'>;

export function encodeScene(scene: StoredScene): Buffer {
  const { indices, rgb, cloud, ...header } = scene;
  const n = scene.grid.width * scene.grid.height;
  const values = new Int16Array(n * INDEX_OPERATIONS.length);
  INDEX_OPERATIONS.forEach((operation, band) => {
    const source = indices[operation];
    for (let i = 0; i < n; i++) {
      const value = source[i]!;
      values[band * n + i] = Number.isNaN(value) ? NO_DATA : Math.round(value * INDEX_SCALE);
    }
  });
  const payload = deflateRawSync(Buffer.concat([Buffer.from(values.buffer), Buffer.from(rgb), Buffer.from(cloud)]));
  const head = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  return Buffer.concat([Buffer.from(MAGIC), size, head, payload]);
}

export function decodeScene(bytes: Uint8Array): StoredScene {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.subarray(0, MAGIC.length).toString() !== MAGIC) throw new Error('not a stored scene');
  const headLength = buffer.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 4;
  const header = JSON.parse(buffer.subarray(start, start + headLength).toString()) as Header;
  const payload = inflateRawSync(buffer.subarray(start + headLength));
  const n = header.grid.width * header.grid.height;
  const values = new Int16Array(
    payload.buffer.slice(payload.byteOffset, payload.byteOffset + n * 2 * INDEX_OPERATIONS.length),
  );
  const indices = {} as Record<IndexOperation, Float32Array>;
  INDEX_OPERATIONS.forEach((operation, band) => {
    const target = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const value = values[band * n + i]!;
      target[i] = value === NO_DATA ? NaN : value / INDEX_SCALE;
    }
    indices[operation] = target;
  });
  const rest = n * 2 * INDEX_OPERATIONS.length;
  return {
    ...header,
    indices,
    rgb: new Uint8Array(payload.subarray(rest, rest + n * 3)),
    cloud: new Uint8Array(payload.subarray(rest + n * 3, rest + n * 4)),
  };
}

// --- layers from files and samplings: one band of values, float32 ------------------------------

const LAYER_MAGIC = 'SURCOLYR1';

/** The stored form of a layer made from a file or a sampling: the field's grid and one band of values (NaN no data). */
export interface StoredLayer {
  grid: Grid;
  rings: Rings;
  shapeVersion: string;
  /** YYYY-MM-DDTHH:mm:ssZ */
  datetime: string;
  values: Float32Array;
}

export function encodeLayer(layer: StoredLayer): Buffer {
  const { values, ...header } = layer;
  const head = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  return Buffer.concat([
    Buffer.from(LAYER_MAGIC),
    size,
    head,
    deflateRawSync(Buffer.from(values.buffer, values.byteOffset, values.byteLength)),
  ]);
}

/** A stored raster: a satellite scene or a layer of values. */
export function decodeRaster(bytes: Uint8Array): { scene: StoredScene } | { layer: StoredLayer } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.subarray(0, LAYER_MAGIC.length).toString() !== LAYER_MAGIC) return { scene: decodeScene(bytes) };
  const headLength = buffer.readUInt32LE(LAYER_MAGIC.length);
  const start = LAYER_MAGIC.length + 4;
  const header = JSON.parse(buffer.subarray(start, start + headLength).toString()) as Omit<StoredLayer, 'values'>;
  const payload = inflateRawSync(buffer.subarray(start + headLength));
  const values = new Float32Array(
    payload.buffer.slice(payload.byteOffset, payload.byteOffset + header.grid.width * header.grid.height * 4),
  );
  return { layer: { ...header, values } };
}
