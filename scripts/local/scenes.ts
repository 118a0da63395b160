// The local stack's satellite scenes (docs/imagery.md, "Local scenes"): Sentinel-2 L2A-like bands,
// deterministic from the place and the date, so that tests can reason about them.
// - An acquisition every REVISIT_DAYS days (days since 2020-01-01 divisible by 5), at 14:00 UTC.
// - A crop season: bare soil (NDVI about 0.15) until the crop greens up from early November, peaks
//   in February and senesces to harvest in April (southern hemisphere; shifted half a year north).
// - Zones: vigour varies smoothly across a field (a factor 0.55 to 1 on a few hundred metres).
// - Spectra: bare soil has green below red (and blue below green), a green crop green above red.
// - Clouds: every third acquisition (index % 3 == 1) has cloud (SCL 9) over about half of the
//   ground and shadow (SCL 3) beside it; the next (index % 3 == 2) has thin cirrus (SCL 10) on about
//   2% of the pixels (under the 5% cloudy threshold); the others are clear.
// Digital numbers as in processing baseline 04.00: DN = (reflectance + 0.1) x 10000.
export const REVISIT_DAYS = 5;
const EPOCH = Date.UTC(2020, 0, 1);
const DAY_MS = 86_400_000;

export const acquisitionIndex = (time: number): number => Math.floor((time - EPOCH) / DAY_MS / REVISIT_DAYS);
export const acquisitionTime = (index: number): number => EPOCH + index * REVISIT_DAYS * DAY_MS + 14 * 3600_000;

/** Acquisitions between two instants (inclusive). */
export function acquisitions(from: number, to: number): number[] {
  const out: number[] = [];
  for (let index = Math.max(0, acquisitionIndex(from) - 1); acquisitionTime(index) <= to; index++) {
    if (acquisitionTime(index) >= from) out.push(index);
  }
  return out;
}

export type Sky = 'clear' | 'cloudy' | 'cirrus';
export const skyOf = (index: number): Sky => (['clear', 'cloudy', 'cirrus'] as const)[index % 3]!;

/** Crop vigour (0 to 1) on a day of the year, for a hemisphere. */
export function seasonVigour(time: number, south: boolean): number {
  const date = new Date(time);
  const dayOfYear = (time - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS;
  const shifted = (dayOfYear + (south ? 0 : 182.5)) % 365;
  // days since 1 November (day 305), season of 170 days
  const sinceSowing = (shifted - 305 + 365) % 365;
  return sinceSowing < 170 ? Math.sin((Math.PI * sinceSowing) / 170) ** 1.5 : 0;
}

const hash = (x: number, y: number, seed: number): number => {
  const v = Math.sin(x * 12.9898 + y * 78.233 + seed * 37.719) * 43758.5453;
  return v - Math.floor(v);
};

export interface GroundPixel {
  red: number;
  green: number;
  blue: number;
  nir: number;
  rededge1: number;
  scl: number;
}

/** The terms of a pixel that depend on its x alone, and those that depend on its y alone. */
export interface AxisTerms {
  zone: number;
  cloud: number;
  shadow: number;
}
export const xTerms = (x: number, index: number): AxisTerms => ({
  zone: Math.sin(x / 170),
  cloud: Math.sin(x / 300 + index),
  shadow: Math.sin((x - 150) / 300 + index),
});
export const yTerms = (y: number, index: number): AxisTerms => ({
  zone: Math.cos(y / 230),
  cloud: Math.cos(y / 300 + index * 0.7),
  shadow: Math.cos((y + 150) / 300 + index * 0.7),
});

/** Reflectances and scene class at a UTM position on an acquisition. */
export const groundPixel = (x: number, y: number, index: number, south: boolean): GroundPixel =>
  groundPixelOf(x, y, xTerms(x, index), yTerms(y, index), index, seasonVigour(acquisitionTime(index), south));

/**
 * The same, from the terms of its column and row and the season's vigour, computed once for a
 * whole block (the local catalogue's blocks: scripts/local/catalogue.ts).
 */
export function groundPixelOf(
  x: number,
  y: number,
  cx: AxisTerms,
  ry: AxisTerms,
  index: number,
  season: number,
): GroundPixel {
  // the zone factor (0.55 to 1): 0.775 + 0.225 sin(x / 170) cos(y / 230)
  const vigour = season * (0.775 + 0.225 * cx.zone * ry.zone);
  const ndvi = 0.15 + 0.72 * vigour;
  const nir = 0.22 + 0.26 * vigour;
  const red = (nir * (1 - ndvi)) / (1 + ndvi);
  const pixel: GroundPixel = {
    red,
    // bare soil reflects less green than red; a green crop more (its chlorophyll's green peak)
    green: red * (0.88 + 0.5 * vigour) + 0.02 * vigour,
    blue: red * 0.75 + 0.01,
    nir,
    rededge1: red + (nir - red) * 0.45,
    scl: ndvi > 0.3 ? 4 : 5,
  };
  const sky = skyOf(index);
  if (sky === 'cloudy') {
    const cloud = cx.cloud * ry.cloud;
    if (cloud > 0) return { red: 0.55, green: 0.56, blue: 0.58, nir: 0.6, rededge1: 0.58, scl: 9 };
    const shadow = cx.shadow * ry.shadow;
    if (shadow > 0)
      return {
        red: red * 0.4,
        green: pixel.green * 0.4,
        blue: pixel.blue * 0.4,
        nir: nir * 0.4,
        rededge1: pixel.rededge1 * 0.4,
        scl: 3,
      };
  } else if (sky === 'cirrus' && hash(Math.round(x / 10), Math.round(y / 10), index) < 0.02) {
    return { ...pixel, blue: pixel.blue + 0.05, scl: 10 };
  }
  return pixel;
}

export const toDn = (reflectance: number): number =>
  Math.max(1, Math.min(65535, Math.round((reflectance + 0.1) * 10000)));
