// Reading a band of a scene over a field's grid: the asset is a (Cloud-Optimized) GeoTIFF read over
// HTTP with range requests, only the window under the grid (geotiff.js). Pixels are taken by
// nearest neighbour, so the 20 m bands (rededge1, scl) are resampled to the 10 m grid.
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

/** The band's values on `grid` (0 where the asset has no pixel). */
export async function readBand(href: string, grid: Grid, options: BandReadOptions): Promise<Uint16Array> {
  const tiff = await fromUrl(href, { allowFullFile: false });
  const image = await tiff.getImage(0);
  const epsg = epsgOfImage(image) ?? options.epsg;
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
  const out = new Uint16Array(grid.width * grid.height);
  if (minC === Infinity) return out;
  const window = [minC, minR, maxC + 1, maxR + 1];
  const windowWidth = maxC + 1 - minC;
  const [values] = (await image.readRasters({ window, samples: [0] })) as unknown as [ArrayLike<number>];
  for (let i = 0; i < out.length; i++) {
    const c = cols[i]!,
      r = rows[i]!;
    if (c < minC || c > maxC || r < minR || r > maxR) continue;
    out[i] = values[(r - minR) * windowWidth + (c - minC)]!;
  }
  return out;
}
