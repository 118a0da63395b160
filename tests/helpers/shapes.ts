// Field shapes for the tests, and where the test stack has satellite imagery.

/** A square WKT polygon of `size` degrees with its south-west corner at (lon, lat). */
export const square = (lon: number, lat: number, size = 0.01) =>
  `POLYGON((${lon} ${lat},${lon + size} ${lat},${lon + size} ${lat + size},${lon} ${lat + size},${lon} ${lat}))`;

/** A closed ring of `vertices` points at `radius` degrees around (lon, lat): a GPS walk's boundary. */
export function walkedRing(lon: number, lat: number, radius: number, vertices: number): string {
  const points: string[] = [];
  for (let i = 0; i < vertices; i++) {
    const angle = (2 * Math.PI * i) / vertices;
    points.push(`${(lon + radius * Math.cos(angle)).toFixed(9)} ${(lat + radius * Math.sin(angle)).toFixed(9)}`);
  }
  return `POLYGON((${[...points, points[0]].join(',')}))`;
}

/**
 * Where the test stack's satellite catalogue has scenes, [west, south, east, north] (tests/setup/stack.ts;
 * scripts/local/catalogue.ts `coverage`): a field elsewhere finds no scene, as one over the open sea
 * would, and costs its ingestion one empty search. The hundreds of fields the other tests create
 * are not ingested; tests of imagery place their fields here (imagerySquare). UTM zone 20 south.
 */
export const IMAGERY_AREA = [-64, -32, -63, -31] as const;

/** A square field in the imagery area, `dx` and `dy` degrees east and north of its south-west corner. */
export const imagerySquare = (dx: number, dy: number, size = 0.01) =>
  square(IMAGERY_AREA[0] + dx, IMAGERY_AREA[1] + dy, size);
