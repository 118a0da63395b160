// Pixel grids: north-up grids in an EPSG, their extent and the rasterizing of rings onto them.
// (A field's grid, from its WKT, is in field-grid.ts.)
import type { Point } from './crs';

/** A north-up grid: (x0, y0) is the top-left corner; pixels are `pixel` wide and `pixel` tall. */
export interface Grid {
  epsg: number;
  x0: number;
  y0: number;
  /** Pixel width; pixel height when `pixelY` is absent. */
  pixel: number;
  pixelY?: number;
  width: number;
  height: number;
}

export type Rings = Point[][];

export const projectRings = (rings: Rings, fn: (point: Point) => Point): Rings => rings.map((ring) => ring.map(fn));

export function ringBounds(rings: Rings): [number, number, number, number] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return [minX, minY, maxX, maxY];
}

export const pixelHeight = (grid: Grid): number => grid.pixelY ?? grid.pixel;

/** The grid's extent [minX, minY, maxX, maxY] in its EPSG. */
export const gridBounds = (grid: Grid): [number, number, number, number] => [
  grid.x0,
  grid.y0 - grid.height * pixelHeight(grid),
  grid.x0 + grid.width * grid.pixel,
  grid.y0,
];

/** The box [minX, minY, maxX, maxY] holding every box given. */
export const unionBounds = (
  boxes: ReadonlyArray<readonly [number, number, number, number]>,
): [number, number, number, number] => [
  Math.min(...boxes.map((b) => b[0])),
  Math.min(...boxes.map((b) => b[1])),
  Math.max(...boxes.map((b) => b[2])),
  Math.max(...boxes.map((b) => b[3])),
];

/**
 * Even-odd scanline fill: 1 for each pixel whose centre lies inside the rings (given in the grid's
 * EPSG), 0 elsewhere. Holes and multipolygons follow from the even-odd rule.
 */
export function rasterize(rings: Rings, grid: Grid): Uint8Array {
  const mask = new Uint8Array(grid.width * grid.height);
  const py = pixelHeight(grid);
  const crossings: number[] = [];
  for (let row = 0; row < grid.height; row++) {
    const y = grid.y0 - (row + 0.5) * py;
    crossings.length = 0;
    for (const ring of rings) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!;
        const [xj, yj] = ring[j]!;
        if (yi > y !== yj > y) crossings.push(xi + ((y - yi) / (yj - yi)) * (xj - xi));
      }
    }
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil((crossings[k]! - grid.x0) / grid.pixel - 0.5));
      const to = Math.min(grid.width - 1, Math.floor((crossings[k + 1]! - grid.x0) / grid.pixel - 0.5));
      for (let col = from; col <= to; col++) mask[row * grid.width + col] = 1;
    }
  }
  return mask;
}

/** Whether a point lies inside the rings (even-odd: holes and multipolygons), in the rings' coordinates. */
export function containsPoint(rings: Rings, [x, y]: Point): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < xi + ((y - yi) / (yj - yi)) * (xj - xi)) inside = !inside;
    }
  }
  return inside;
}
