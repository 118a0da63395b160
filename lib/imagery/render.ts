// Rendering a stored scene (spec 2, GET /api/geoserver/v2; docs/imagery.md): onto the target grid
// (the scene's own grid, or a reprojection, or a bbox with width and height) by nearest-neighbour
// warping, then to PNG (RGBA through the operation's colour scale), GeoTIFF (float32 with NODATA
// nan, or 3 x uint8 with NODATA 0) or encoded PNG (16 bits in R and G).
import { encode as encodePng } from 'fast-png';
import { COLOUR_SCALES, colourIn, INDEX_RANGE, type ValueRange } from './colours';
import { type Point, transformer } from './crs';
import { writeGeoTiff } from './geotiff-writer';
import type { Rings } from './grid';
import { type Grid, gridBounds, pixelHeight, projectRings, rasterize, ringBounds } from './grid';
import type { Operation } from './layers';
import type { StoredScene } from './raster';
import { classBoundaries, classOf, type ScaleTemplate } from './scales';

export type ImageFormat = 'image/png' | 'image/tiff' | 'image/encoded';

export interface RenderRequest {
  operation: Operation;
  format: ImageFormat;
  /** Target EPSG (the scene's UTM zone when absent). */
  epsg?: number;
  /** [xmin, ymin, xmax, ymax] in the target EPSG, with the image's width and height. */
  bbox?: [number, number, number, number];
  width?: number;
  height?: number;
  transparent: boolean;
  /** PNG of an index: colour by this scale template's classes instead of the default scale. */
  scale?: ScaleTemplate;
}

/** Exact transforms every LATTICE pixels, linear in between (under 0.05 px off for field-sized images). */
const LATTICE = 16;

/** The grid of the image a request asks for. */
export async function targetGrid(
  scene: { grid: Grid; rings?: Rings },
  request: Pick<RenderRequest, 'epsg' | 'bbox' | 'width' | 'height'>,
): Promise<Grid> {
  const epsg = request.epsg ?? scene.grid.epsg;
  if (request.bbox && request.width && request.height) {
    const [xmin, ymin, xmax, ymax] = request.bbox;
    return {
      epsg,
      x0: xmin,
      y0: ymax,
      pixel: (xmax - xmin) / request.width,
      pixelY: (ymax - ymin) / request.height,
      width: request.width,
      height: request.height,
    };
  }
  if (epsg === scene.grid.epsg) return scene.grid;
  if (scene.rings?.length) return fieldGridIn(scene.grid, scene.rings, epsg);
  // The scene's extent, reprojected (its edges sampled), with as many pixels as the scene.
  const [x0, y0, x1, y1] = gridBounds(scene.grid);
  const toTarget = await transformer(scene.grid.epsg, epsg);
  const edges: Point[] = [];
  for (let i = 0; i <= 32; i++) {
    const t = i / 32;
    edges.push([x0 + t * (x1 - x0), y0], [x0 + t * (x1 - x0), y1], [x0, y0 + t * (y1 - y0)], [x1, y0 + t * (y1 - y0)]);
  }
  const [minX, minY, maxX, maxY] = ringBounds([edges.map(toTarget)]);
  const { width, height } = scene.grid;
  return { epsg, x0: minX, y0: maxY, pixel: (maxX - minX) / width, pixelY: (maxY - minY) / height, width, height };
}

/**
 * The field's grid in another EPSG: the bounding box of its polygon there plus 2 pixels on every
 * side, with square pixels about as large as the stored pixel at the field's centre (the geometric
 * mean of its sides there). The width holds the box exactly; the last row may reach under one pixel
 * further down, so that pixels stay square.
 */
async function fieldGridIn(source: Grid, rings: Rings, epsg: number): Promise<Grid> {
  const [minX, minY, maxX, maxY] = ringBounds(projectRings(rings, await transformer(4326, epsg)));
  const fromSource = await transformer(source.epsg, epsg);
  const sourcePixelY = pixelHeight(source);
  const cx = source.x0 + (source.width * source.pixel) / 2;
  const cy = source.y0 - (source.height * sourcePixelY) / 2;
  const [ax, ay] = fromSource([cx, cy]);
  const [bx, by] = fromSource([cx + source.pixel, cy]);
  const [dx, dy] = fromSource([cx, cy + sourcePixelY]);
  const estimate = Math.sqrt(Math.hypot(bx - ax, by - ay) * Math.hypot(dx - ax, dy - ay));
  const columns = Math.max(1, Math.round((maxX - minX) / estimate));
  const pixel = maxX > minX ? (maxX - minX) / columns : estimate;
  const rows = Math.max(1, Math.ceil((maxY - minY) / pixel - 1e-9));
  return { epsg, x0: minX - 2 * pixel, y0: maxY + 2 * pixel, pixel, width: columns + 4, height: rows + 4 };
}

/**
 * For each pixel of `target`, the index of the source pixel whose area holds its centre, or -1
 * outside the source. Coordinates are transformed exactly on a lattice and interpolated between.
 */
export async function sourceIndices(source: Grid, target: Grid): Promise<Int32Array> {
  if (target === source) return Int32Array.from({ length: source.width * source.height }, (_, i) => i);
  const toSource = await transformer(target.epsg, source.epsg);
  const tpy = pixelHeight(target);
  const spy = pixelHeight(source);
  const cols = Math.ceil(target.width / LATTICE) + 1;
  const rows = Math.ceil(target.height / LATTICE) + 1;
  const lattice = new Float64Array(cols * rows * 2);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const px = Math.min(c * LATTICE, target.width);
      const py = Math.min(r * LATTICE, target.height);
      const [x, y] = toSource([target.x0 + px * target.pixel, target.y0 - py * tpy]);
      lattice[(r * cols + c) * 2] = (x - source.x0) / source.pixel;
      lattice[(r * cols + c) * 2 + 1] = (source.y0 - y) / spy;
    }
  }
  const out = new Int32Array(target.width * target.height);
  for (let row = 0; row < target.height; row++) {
    const fy = row + 0.5;
    const r = Math.min(Math.floor(fy / LATTICE), rows - 2);
    const y0 = r * LATTICE;
    const ty = (fy - y0) / (Math.min((r + 1) * LATTICE, target.height) - y0);
    for (let col = 0; col < target.width; col++) {
      const fx = col + 0.5;
      const c = Math.min(Math.floor(fx / LATTICE), cols - 2);
      const x0 = c * LATTICE;
      const tx = (fx - x0) / (Math.min((c + 1) * LATTICE, target.width) - x0);
      const a = (r * cols + c) * 2,
        b = a + 2,
        d = a + cols * 2,
        e = d + 2;
      const sx =
        (lattice[a]! * (1 - tx) + lattice[b]! * tx) * (1 - ty) + (lattice[d]! * (1 - tx) + lattice[e]! * tx) * ty;
      const sy =
        (lattice[a + 1]! * (1 - tx) + lattice[b + 1]! * tx) * (1 - ty) +
        (lattice[d + 1]! * (1 - tx) + lattice[e + 1]! * tx) * ty;
      const sc = Math.floor(sx);
      const sr = Math.floor(sy);
      out[row * target.width + col] =
        sc >= 0 && sr >= 0 && sc < source.width && sr < source.height ? sr * source.width + sc : -1;
    }
  }
  return out;
}

export { COLOUR_SCALES, COLOUR_STOPS, colourIn, colourOf, INDEX_RANGE, type ValueRange } from './colours';

/** The colour scale in 1024 steps from its first stop to its last (a lookup per pixel instead of the interpolation). */
const RAMP_STEPS = 1024;
let ramp: Uint8Array | undefined;
function rampSteps(): Uint8Array {
  if (!ramp) {
    ramp = new Uint8Array(RAMP_STEPS * 3);
    for (let i = 0; i < RAMP_STEPS; i++) ramp.set(colourIn({ min: 0, max: 1 }, i / (RAMP_STEPS - 1)), i * 3);
  }
  return ramp;
}

/**
 * Encoded PNG: value v in [min, max] (an index: [-1, 1]) is round((v - min) / (max - min) * 65534) + 1,
 * in R (high byte) and G; 0 is no data. A layer of one value (min = max) codes it as 1.
 */
export const ENCODED_LEVELS = 65534;
export const encodeValue = (value: number, range: ValueRange = INDEX_RANGE): number =>
  Number.isNaN(value)
    ? 0
    : Math.round(
        ((Math.max(range.min, Math.min(range.max, value)) - range.min) / (range.max - range.min || 1)) * ENCODED_LEVELS,
      ) + 1;
export const decodeValue = (code: number, range: ValueRange = INDEX_RANGE): number =>
  code === 0 ? NaN : range.min + ((code - 1) / ENCODED_LEVELS) * (range.max - range.min);

export interface RenderedImage {
  body: Buffer;
  contentType: string;
  grid: Grid;
}

/** The image of an operation of a stored scene. */
export async function renderScene(scene: StoredScene, request: RenderRequest): Promise<RenderedImage> {
  const grid = await targetGrid(scene, request);
  const index = await sourceIndices(scene.grid, grid);
  const n = grid.width * grid.height;
  const inside = request.transparent
    ? rasterize(projectRings(scene.rings, await transformer(4326, grid.epsg)), grid)
    : undefined;
  const visible = (i: number): number => (inside && !inside[i] ? -1 : index[i]!);
  if (request.operation === 'rgb1') {
    const rgb = new Uint8Array(n * 3);
    for (let i = 0; i < n; i++) {
      const s = visible(i);
      if (s < 0) continue;
      rgb[i * 3] = scene.rgb[s * 3]!;
      rgb[i * 3 + 1] = scene.rgb[s * 3 + 1]!;
      rgb[i * 3 + 2] = scene.rgb[s * 3 + 2]!;
    }
    if (request.format === 'image/tiff') {
      return { body: writeGeoTiff({ grid, data: rgb, samples: 3, noData: '0' }), contentType: 'image/tiff', grid };
    }
    const rgba = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) {
      rgba[i * 4] = rgb[i * 3]!;
      rgba[i * 4 + 1] = rgb[i * 3 + 1]!;
      rgba[i * 4 + 2] = rgb[i * 3 + 2]!;
      rgba[i * 4 + 3] = rgb[i * 3] || rgb[i * 3 + 1] || rgb[i * 3 + 2] ? 255 : 0;
    }
    return {
      body: Buffer.from(encodePng({ width: grid.width, height: grid.height, data: rgba, channels: 4, depth: 8 })),
      contentType: 'image/png',
      grid,
    };
  }
  return renderValues({ grid: scene.grid, rings: scene.rings, values: scene.indices[request.operation] }, request, {
    colour: COLOUR_SCALES[request.operation],
    encoded: INDEX_RANGE,
  });
}

/** One band of values on a grid, cut for a field (a satellite index, or a layer from a file). */
export interface ValueBand {
  grid: Grid;
  rings: Rings;
  values: Float32Array;
}

/** The image of a band of values: the colour scale stretched over `ranges.colour`, encoded PNGs over `ranges.encoded`. */
export async function renderValues(
  band: ValueBand,
  request: Omit<RenderRequest, 'operation'>,
  ranges: { colour: ValueRange; encoded: ValueRange },
): Promise<RenderedImage> {
  const grid = await targetGrid(band, request);
  const index = await sourceIndices(band.grid, grid);
  const n = grid.width * grid.height;
  const inside = request.transparent
    ? rasterize(projectRings(band.rings, await transformer(4326, grid.epsg)), grid)
    : undefined;
  const visible = (i: number): number => (inside && !inside[i] ? -1 : index[i]!);
  const source = band.values;
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = visible(i);
    values[i] = s < 0 ? NaN : source[s]!;
  }
  if (request.format === 'image/tiff') {
    return { body: writeGeoTiff({ grid, data: values, samples: 1, noData: 'nan' }), contentType: 'image/tiff', grid };
  }
  if (request.format === 'image/encoded') {
    const data = new Uint8Array(n * 3);
    for (let i = 0; i < n; i++) {
      const code = encodeValue(values[i]!, ranges.encoded);
      data[i * 3] = code >> 8;
      data[i * 3 + 1] = code & 255;
    }
    return {
      body: Buffer.from(encodePng({ width: grid.width, height: grid.height, data, channels: 3, depth: 8 })),
      contentType: 'image/png',
      grid,
    };
  }
  const rgba = new Uint8Array(n * 4);
  if (request.scale) {
    const { colors } = request.scale;
    const boundaries = classBoundaries(request.scale, values);
    for (let i = 0; i < n; i++) {
      const value = values[i]!;
      if (Number.isNaN(value)) continue;
      rgba.set(colors[classOf(boundaries, value)]!, i * 4);
      rgba[i * 4 + 3] = 255;
    }
    return {
      body: Buffer.from(encodePng({ width: grid.width, height: grid.height, data: rgba, channels: 4, depth: 8 })),
      contentType: 'image/png',
      grid,
    };
  }
  const ramp = rampSteps();
  const { min, max } = ranges.colour;
  const scale = (RAMP_STEPS - 1) / (max - min || 1);
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) continue;
    const step = Math.max(0, Math.min(RAMP_STEPS - 1, Math.round((value - min) * scale))) * 3;
    rgba[i * 4] = ramp[step]!;
    rgba[i * 4 + 1] = ramp[step + 1]!;
    rgba[i * 4 + 2] = ramp[step + 2]!;
    rgba[i * 4 + 3] = 255;
  }
  return {
    body: Buffer.from(encodePng({ width: grid.width, height: grid.height, data: rgba, channels: 4, depth: 8 })),
    contentType: 'image/png',
    grid,
  };
}
