// The WKT the API answers (spec 2: fields' shapes; spec 1: spots' shapes; spec 3: sampling points) as
// GeoJSON geometry for the map: POINT, POLYGON and MULTIPOLYGON in EPSG 4326, a Z or M ignored.
export type Position = [number, number];
export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

type Nested = Position | Nested[];

/** The geometry of a WKT text; undefined for any other type or a malformed text. */
export function parseWkt(text: string): Geometry | undefined {
  const match = /^\s*(POINT|POLYGON|MULTIPOLYGON)\s*(?:ZM|Z|M)?\s*(\(.*\))\s*$/is.exec(text);
  if (!match) return undefined;
  let at = 0;
  const body = match[2]!;
  const fail = (): never => {
    throw new SyntaxError(`malformed WKT at ${at}`);
  };
  const list = (): Nested[] => {
    if (body[at] !== '(') fail();
    at++;
    const items: Nested[] = [];
    for (;;) {
      while (body[at] === ' ') at++;
      if (body[at] === '(') items.push(list());
      else {
        const end = body.slice(at).search(/[,)]/);
        if (end < 0) fail();
        const numbers = body
          .slice(at, at + end)
          .trim()
          .split(/\s+/)
          .map(Number);
        if (numbers.length < 2 || numbers.some((n) => !Number.isFinite(n))) fail();
        items.push([numbers[0]!, numbers[1]!]);
        at += end;
      }
      while (body[at] === ' ') at++;
      if (body[at] === ',') at++;
      else if (body[at] === ')') {
        at++;
        return items;
      } else fail();
    }
  };
  try {
    const nested = list();
    if (body.slice(at).trim()) return undefined;
    const isPosition = (n: Nested): n is Position => typeof n[0] === 'number';
    const ring = (n: Nested): Position[] => {
      if (!Array.isArray(n) || isPosition(n) || !n.every(isPosition)) fail();
      return n as Position[];
    };
    const polygon = (n: Nested): Position[][] => {
      if (isPosition(n)) fail();
      return (n as Nested[]).map(ring);
    };
    switch (match[1]!.toUpperCase()) {
      case 'POINT':
        return nested.length === 1 && isPosition(nested[0]!) ? { type: 'Point', coordinates: nested[0] } : undefined;
      case 'POLYGON':
        return { type: 'Polygon', coordinates: polygon(nested) };
      default:
        return { type: 'MultiPolygon', coordinates: nested.map(polygon) };
    }
  } catch {
    return undefined;
  }
}

/** [west, south, east, north] of a geometry. */
export function boundsOf(geometry: Geometry): [number, number, number, number] {
  const all: Position[] =
    geometry.type === 'Point'
      ? [geometry.coordinates]
      : geometry.type === 'Polygon'
        ? geometry.coordinates.flat()
        : geometry.coordinates.flat(2);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Where a geometry's label goes: the point, or the mean of its (first) outer ring's vertices. */
export function labelPoint(geometry: Geometry): Position {
  if (geometry.type === 'Point') return geometry.coordinates;
  const ring = geometry.type === 'Polygon' ? geometry.coordinates[0]! : geometry.coordinates[0]![0]!;
  const vertices = ring.length > 1 ? ring.slice(0, -1) : ring;
  const sum = vertices.reduce((acc, [x, y]) => [acc[0] + x, acc[1] + y], [0, 0]);
  return [sum[0] / vertices.length, sum[1] / vertices.length];
}
