// The coordinate systems imagery works in: WGS84 (4326), Web Mercator (3857) and the WGS84 UTM
// zones (326xx north, 327xx south), with proj4.
import proj4 from 'proj4';
import { projDefinition } from './epsg';

export { isSupportedEpsg, projDefinition } from './epsg';

export type Point = [number, number];

/** The WGS84 UTM zone (as an EPSG code) of a longitude and latitude. */
export function utmEpsg(lon: number, lat: number): number {
  const zone = Math.min(60, Math.max(1, Math.floor((lon + 180) / 6) + 1));
  return (lat < 0 ? 32700 : 32600) + zone;
}

const converters = new Map<string, (point: Point) => Point>();

/** A function taking points from one EPSG to another (identity when equal). */
export function transformer(from: number, to: number): (point: Point) => Point {
  if (from === to) return (point) => point;
  const key = `${from}>${to}`;
  let fn = converters.get(key);
  if (!fn) {
    const source = projDefinition(from);
    const target = projDefinition(to);
    if (!source || !target) throw new Error(`unsupported EPSG ${source ? to : from}`);
    const converter = proj4(source, target);
    fn = (point) => converter.forward(point) as Point;
    converters.set(key, fn);
  }
  return fn;
}
