// The part of shpjs (no typings of its own) that lib/geo/shapefile.ts and the tests use.
declare module 'shpjs' {
  /** Geometries of a .shp, reprojected to EPSG 4326 when the .prj text is given. */
  export function parseShp(
    shp: Uint8Array | ArrayBuffer,
    prj?: string,
  ): Array<{ type: string; coordinates: unknown } | null>;
  /** Records of a .dbf, decoded with the .cpg's encoding when given. */
  export function parseDbf(dbf: Uint8Array | ArrayBuffer, cpg?: string): Array<Record<string, unknown>>;
  /** Geometries and records as a FeatureCollection. */
  export function combine(parts: [unknown[], unknown[]?]): {
    type: 'FeatureCollection';
    features: Array<{
      type: 'Feature';
      geometry: { type: string; coordinates?: unknown } | null;
      properties: Record<string, unknown>;
    }>;
  };
}
