// Shapefiles inside a zip's entries (boundary files, layer files): every .shp with its .dbf, .prj
// (reprojected to EPSG 4326 by shpjs) and .cpg (the .dbf's encoding).
import { parseDbf, parseShp } from 'shpjs';
import { type DomainError, Invalid } from '../errors';

export interface ShapefileFeature {
  geometry: { type: string; coordinates?: unknown } | null;
  properties: Record<string, unknown>;
}

/** The features of every shapefile among the entries; `refuse` when there is none or one cannot be read. */
export function readShapefiles(
  entries: Record<string, Uint8Array>,
  refuse: (message: string) => DomainError = (message) => new Invalid(message),
): ShapefileFeature[] {
  const names = Object.keys(entries);
  const shps = names.filter((name) => name.toLowerCase().endsWith('.shp'));
  if (shps.length === 0) throw refuse('the zip holds no KML and no shapefile (.shp)');
  const features: ShapefileFeature[] = [];
  for (const shp of shps) {
    const base = shp.slice(0, -4);
    const sibling = (ext: string) =>
      names.find((name) => name.slice(0, -4) === base && name.toLowerCase().endsWith(ext));
    const text = (name: string | undefined) => (name ? Buffer.from(entries[name]!).toString('utf8') : undefined);
    const prj = text(sibling('.prj'));
    const dbf = sibling('.dbf');
    try {
      const geometries = parseShp(entries[shp]!, prj) as ShapefileFeature['geometry'][];
      const records = dbf ? parseDbf(entries[dbf]!, text(sibling('.cpg'))) : [];
      geometries.forEach((geometry, i) => {
        features.push({ geometry, properties: records[i] ?? {} });
      });
    } catch (error) {
      throw refuse(`the shapefile ${JSON.stringify(base.slice(0, 100))} cannot be read: ${(error as Error).message}`);
    }
  }
  return features;
}
