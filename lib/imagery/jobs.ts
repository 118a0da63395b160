// Jobs of the imagery queue (docs/imagery.md). A module of its own, so that the functions that
// only publish (field creation, the shape worker, the daily schedule) do not bundle the imagery code.
export const IMAGERY_FIELD_JOB = 'IMAGERY_FIELD.V1';
export const IMAGERY_SCENE_JOB = 'IMAGERY_SCENE.V1';
/** The daily schedule's job for the fields of a Sentinel-2 tile, and its jobs per scene (docs/imagery.md, "Tiles"). */
export const IMAGERY_TILE_JOB = 'IMAGERY_TILE.V1';
export const IMAGERY_TILE_SCENE_JOB = 'IMAGERY_TILE_SCENE.V1';
/** Layers from a file or a sampling (user-layers.ts). */
export const IMAGERY_LAYER_JOB = 'IMAGERY_LAYER.V1';
