// proj4 and the converters between the EPSG codes imagery supports (lib/imagery/epsg.ts). Loaded
// on first use by lib/imagery/crs.ts (ADR 0008): only a transform between two different codes needs
// it, and proj4's core (its default definitions, the WGS84 datum, wkt-parser) costs ~7 ms at import,
// which an image in its scene's own grid, not transparent (GET /api/geoserver/v2's default), never needs.
import proj4 from 'proj4';
import type { Point } from './crs';
import { projDefinition } from './epsg';

const converters = new Map<string, (point: Point) => Point>();

/** The function taking points from one supported EPSG to another; throws for an unsupported code. */
export function converter(from: number, to: number): (point: Point) => Point {
  const key = `${from}>${to}`;
  let fn = converters.get(key);
  if (!fn) {
    const source = projDefinition(from);
    const target = projDefinition(to);
    if (!source || !target) throw new Error(`unsupported EPSG ${source ? to : from}`);
    const projection = proj4(source, target);
    fn = (point) => projection.forward(point) as Point;
    converters.set(key, fn);
  }
  return fn;
}
