// The part of which-polygon (no typings of its own) that lib/fields/country.ts uses.
declare module 'which-polygon' {
  import type { FeatureCollection, Geometry } from 'geojson';
  /** An index of the collection's polygons: the properties of the first one that holds the point. */
  export default function whichPolygon<P>(
    collection: FeatureCollection<Geometry, P>,
  ): (point: [number, number]) => P | null;
}
