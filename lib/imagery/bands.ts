// Band math of a Sentinel-2 L2A scene over a field's grid (spec 2, Imagery layers; docs/imagery.md):
// reflectances from digital numbers, the four indices, true colour, the cloud mask from the scene
// classification (SCL) and the date entry's figures.
import type { IndexOperation } from './layers';

/** SCL classes counted as cloudy: 3 cloud shadow, 8 and 9 cloud (medium, high probability), 10 cirrus. */
export const CLOUDY_CLASSES: ReadonlySet<number> = new Set([3, 8, 9, 10]);
/** SCL 0: no data. */
export const SCL_NO_DATA = 0;
/** A date is cloudy when at least this share of the pixels inside the field are cloudy. */
export const CLOUDY_SHARE = 0.05;
/** Reflectance that maps to 255 in true colour. */
export const RGB_WHITE = 0.3;

/** How an asset's digital numbers become reflectance: reflectance = dn * scale + offset. */
export interface Radiometry {
  scale: number;
  offset: number;
}

/** Digital numbers of the bands on the field's grid (0 is no data in every band). */
export interface SceneBands {
  red: ArrayLike<number>;
  green: ArrayLike<number>;
  blue: ArrayLike<number>;
  nir: ArrayLike<number>;
  rededge1: ArrayLike<number>;
  scl: ArrayLike<number>;
  radiometry: Radiometry;
}

export interface SceneProducts {
  indices: Record<IndexOperation, Float32Array>;
  /** True colour, pixel-interleaved RGB; 0,0,0 where there is no data. */
  rgb: Uint8Array;
  /** 1 where the pixel is cloudy. */
  cloud: Uint8Array;
}

export interface DateFigures {
  /**
   * Least and greatest NDVI inside the perimeter over the clear pixels (over every pixel with data
   * when none is clear): a cloud's NDVI is not the crop's.
   */
  min: number;
  max: number;
  /** Mean NDVI inside the perimeter over clear pixels; null when none is clear. */
  mean: number | null;
  cloudy: boolean;
  /** Share of the pixels inside the field that are cloudy. */
  cloudShare: number;
  /** Pixels inside the field with data. */
  pixels: number;
}

/** Index values are kept to 4 decimals (stored as 16-bit integers of ten-thousandths, docs/imagery.md). */
export const INDEX_SCALE = 10_000;
/** The value to 4 decimals (a division, so that 0.6153 prints as 0.6153). */
export const quantize = (value: number): number => Math.round(value * INDEX_SCALE) / INDEX_SCALE;

const ratio = (a: number, b: number): number => (a + b === 0 ? NaN : (a - b) / (a + b));
const msavi2 = (nir: number, red: number): number => {
  const k = 2 * nir + 1;
  return (k - Math.sqrt(Math.max(0, k * k - 8 * (nir - red)))) / 2;
};
const clampIndex = (value: number): number =>
  Number.isFinite(value) ? quantize(Math.max(-1, Math.min(1, value))) : NaN;
const toByte = (reflectance: number): number => Math.max(1, Math.min(255, Math.round((reflectance / RGB_WHITE) * 255)));

/** The indices, true colour and cloud mask of a scene; NaN (or 0 in rgb) where a band has no data. */
export function sceneProducts(bands: SceneBands): SceneProducts {
  const n = bands.red.length;
  const { scale, offset } = bands.radiometry;
  const indices = {
    ndvi1: new Float32Array(n),
    gndvi1: new Float32Array(n),
    msavi2: new Float32Array(n),
    ndre: new Float32Array(n),
  };
  const rgb = new Uint8Array(n * 3);
  const cloud = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const dn = [bands.red[i]!, bands.green[i]!, bands.blue[i]!, bands.nir[i]!, bands.rededge1[i]!];
    const scl = bands.scl[i]!;
    if (scl === SCL_NO_DATA || dn.some((value) => value === 0)) {
      indices.ndvi1[i] = indices.gndvi1[i] = indices.msavi2[i] = indices.ndre[i] = NaN;
      continue;
    }
    const [red, green, blue, nir, rededge] = dn.map((value) => Math.max(0, value * scale + offset)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    indices.ndvi1[i] = clampIndex(ratio(nir, red));
    indices.gndvi1[i] = clampIndex(ratio(nir, green));
    indices.msavi2[i] = clampIndex(msavi2(nir, red));
    indices.ndre[i] = clampIndex(ratio(nir, rededge));
    rgb[i * 3] = toByte(red);
    rgb[i * 3 + 1] = toByte(green);
    rgb[i * 3 + 2] = toByte(blue);
    cloud[i] = CLOUDY_CLASSES.has(scl) ? 1 : 0;
  }
  return { indices, rgb, cloud };
}

/** The date entry's figures: NDVI inside the perimeter (`inside`: 1 for the field's pixels). */
export function dateFigures(ndvi: Float32Array, cloud: Uint8Array, inside: Uint8Array): DateFigures {
  let pixels = 0,
    cloudy = 0,
    clear = 0,
    sum = 0;
  let min = Infinity,
    max = -Infinity,
    minAll = Infinity,
    maxAll = -Infinity;
  for (let i = 0; i < ndvi.length; i++) {
    if (!inside[i]) continue;
    const value = ndvi[i]!;
    if (Number.isNaN(value)) continue;
    pixels++;
    if (value < minAll) minAll = value;
    if (value > maxAll) maxAll = value;
    if (cloud[i]) {
      cloudy++;
    } else {
      clear++;
      sum += value;
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  const cloudShare = pixels ? cloudy / pixels : 0;
  return {
    min: clear ? quantize(min) : pixels ? quantize(minAll) : 0,
    max: clear ? quantize(max) : pixels ? quantize(maxAll) : 0,
    mean: clear ? quantize(sum / clear) : null,
    cloudy: pixels > 0 && cloudShare >= CLOUDY_SHARE,
    cloudShare,
    pixels,
  };
}
