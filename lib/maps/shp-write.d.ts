// The modules of @mapbox/shp-write that lib/maps/shapefile.ts uses (its typings cover only the
// package's entry, which also loads JSZip).
declare module '@mapbox/shp-write/src/write.js' {
  /** The .shp, .shx and .dbf of one geometry type, handed to `callback` before it returns. */
  export default function write(
    rows: Array<Record<string, unknown>>,
    geometryType: 'POINT' | 'POLYLINE' | 'POLYGON',
    geometries: unknown[],
    callback: (error: Error | null, files: { shp: DataView; shx: DataView; dbf: DataView }) => void,
  ): void;
}

declare module '@mapbox/shp-write/src/prj.js' {
  /** The .prj of WGS84 (GCS_WGS_1984). */
  const prj: string;
  export default prj;
}
