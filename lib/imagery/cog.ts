// Reading a band of a scene over fields' grids: the asset is a (Cloud-Optimized) GeoTIFF read over
// HTTP with range requests, only the blocks under the grids (geotiff.js). Pixels are taken by
// nearest neighbour, so the 20 m bands (rededge1, scl) are resampled to the 10 m grid. Several grids
// (the fields of one tile and day, docs/imagery.md "Tiles") share one opening of the file and read
// each of its blocks once.
import { fromUrl, type GeoTIFFImage } from 'geotiff';
import { transformer } from './crs';
import { type Grid, pixelHeight } from './grid';

export interface BandReadOptions {
  /** The asset's EPSG (the STAC item's proj:epsg): GeoTIFF keys are checked against it. */
  epsg: number;
}

function epsgOfImage(image: GeoTIFFImage): number | undefined {
  const keys = image.getGeoKeys() as Record<string, number> | null;
  return keys?.ProjectedCSTypeGeoKey ?? keys?.GeographicTypeGeoKey;
}

/** Where each pixel of a grid falls in the image, and the window [c0, r0, c1, r1) it spans (undefined when outside). */
interface Mapping {
  cols: Int32Array;
  rows: Int32Array;
  window?: [number, number, number, number];
}

async function mappingOf(image: GeoTIFFImage, grid: Grid, epsg: number): Promise<Mapping> {
  const [ox, oy] = image.getOrigin() as [number, number];
  const [rx, ry] = image.getResolution() as [number, number];
  const width = image.getWidth();
  const height = image.getHeight();
  const toAsset = await transformer(grid.epsg, epsg);
  const py = pixelHeight(grid);
  // The asset pixel of each grid pixel's centre.
  const cols = new Int32Array(grid.width * grid.height);
  const rows = new Int32Array(grid.width * grid.height);
  let minC = Infinity,
    minR = Infinity,
    maxC = -Infinity,
    maxR = -Infinity;
  for (let row = 0; row < grid.height; row++) {
    for (let col = 0; col < grid.width; col++) {
      const [x, y] = toAsset([grid.x0 + (col + 0.5) * grid.pixel, grid.y0 - (row + 0.5) * py]);
      const c = Math.floor((x - ox) / rx);
      const r = Math.floor((y - oy) / ry);
      const i = row * grid.width + col;
      cols[i] = c;
      rows[i] = r;
      if (c >= 0 && r >= 0 && c < width && r < height) {
        minC = Math.min(minC, c);
        maxC = Math.max(maxC, c);
        minR = Math.min(minR, r);
        maxR = Math.max(maxR, r);
      }
    }
  }
  return { cols, rows, ...(minC === Infinity ? {} : { window: [minC, minR, maxC + 1, maxR + 1] }) };
}

/** Fills a grid's values from a window of the image read as one array. */
function fillFrom(out: Uint16Array, m: Mapping, window: readonly number[], values: ArrayLike<number>): void {
  const [c0, r0, c1, r1] = window as [number, number, number, number];
  const windowWidth = c1 - c0;
  for (let i = 0; i < out.length; i++) {
    const c = m.cols[i]!,
      r = m.rows[i]!;
    if (c < c0 || c >= c1 || r < r0 || r >= r1) continue;
    out[i] = values[(r - r0) * windowWidth + (c - c0)]!;
  }
}

/** The band's values on `grid` (0 where the asset has no pixel). */
export async function readBand(href: string, grid: Grid, options: BandReadOptions): Promise<Uint16Array> {
  const [values] = await readBandOnGrids(href, [grid], options);
  return values!;
}

/**
 * The band's values on each grid (0 where the asset has no pixel). One grid: its window in one
 * read. Several: every block (tile or strip) of the file under any of them is read once, and each
 * grid takes its pixels from the blocks in memory.
 */
export async function readBandOnGrids(
  href: string,
  grids: readonly Grid[],
  options: BandReadOptions,
): Promise<Uint16Array[]> {
  if (!grids.length) return [];
  const tiff = await fromUrl(href, { allowFullFile: false });
  const image = await tiff.getImage(0);
  const epsg = epsgOfImage(image) ?? options.epsg;
  const mappings = await Promise.all(grids.map((grid) => mappingOf(image, grid, epsg)));
  const outs = grids.map((grid) => new Uint16Array(grid.width * grid.height));
  if (grids.length === 1) {
    const window = mappings[0]!.window;
    if (!window) return outs;
    const [values] = (await image.readRasters({ window, samples: [0] })) as unknown as [ArrayLike<number>];
    fillFrom(outs[0]!, mappings[0]!, window, values);
    return outs;
  }
  const blockWidth = image.getTileWidth();
  const blockHeight = image.getTileHeight();
  const blocks = new Map<string, [number, number, number, number]>();
  const blocksOf = (window: readonly number[]) => {
    const keys: string[] = [];
    for (let by = Math.floor(window[1]! / blockHeight); by * blockHeight < window[3]!; by++) {
      for (let bx = Math.floor(window[0]! / blockWidth); bx * blockWidth < window[2]!; bx++) {
        const key = `${bx},${by}`;
        keys.push(key);
        blocks.set(key, [
          bx * blockWidth,
          by * blockHeight,
          Math.min((bx + 1) * blockWidth, image.getWidth()),
          Math.min((by + 1) * blockHeight, image.getHeight()),
        ]);
      }
    }
    return keys;
  };
  const needs = mappings.map((m) => (m.window ? blocksOf(m.window) : []));
  // every block once, all requested together (geotiff.js merges adjacent ranges)
  const read = new Map(
    await Promise.all(
      [...blocks].map(async ([key, window]) => {
        const [values] = (await image.readRasters({ window, samples: [0] })) as unknown as [ArrayLike<number>];
        return [key, { window, values }] as const;
      }),
    ),
  );
  mappings.forEach((m, g) => {
    for (const key of needs[g]!) {
      const block = read.get(key)!;
      fillFrom(outs[g]!, m, block.window, block.values);
    }
  });
  return outs;
}
