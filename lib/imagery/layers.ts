// The imagery layers this platform serves (spec 2, Imagery layers and Layer type catalogue).
// The spec redacts the two satellite layer names (<SATELLITE_LAYER_A>, id 31; <SATELLITE_LAYER_B>,
// id 32); ours are named here and in docs/imagery.md.

/** Satellite layer A: Sentinel-2 L2A surface reflectance, 10 m (layer type id 31). */
export const SENTINEL2 = 'sentinel2';
/** Satellite layer B: Landsat Collection 2 Level-2 (layer type id 32); in the catalogue, not ingested yet. */
export const LANDSAT = 'landsat';

export const INDEX_OPERATIONS = ['ndvi1', 'gndvi1', 'msavi2', 'ndre'] as const;
export type IndexOperation = (typeof INDEX_OPERATIONS)[number];
export type Operation = IndexOperation | 'rgb1';

/** The operations of the satellite layer, in the spec's order, with the names users see. */
export const SATELLITE_OPERATIONS: ReadonlyArray<{ operation: Operation; name: string }> = [
  { operation: 'ndvi1', name: 'NDVI' },
  { operation: 'gndvi1', name: 'GNDVI' },
  { operation: 'rgb1', name: 'RGB' },
  { operation: 'msavi2', name: 'MSAVI2' },
  { operation: 'ndre', name: 'NDRE' },
];

export const isIndexOperation = (operation: string): operation is IndexOperation =>
  (INDEX_OPERATIONS as readonly string[]).includes(operation);
