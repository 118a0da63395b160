// A map as a zipped shapefile (POST /api/users/me/maps/download): .shp, .shx, .dbf, .prj (WGS84)
// and a .cpg naming the encoding of the .dbf's texts. Written with @mapbox/shp-write, whose known
// pitfalls (../shared/LIBRARIES.md) are handled here: every feature goes as a MultiPolygon (a
// collection mixing Polygons and MultiPolygons loses the Polygons), rings are wound as shapefiles
// expect (outer rings clockwise, holes counter-clockwise), texts are Latin-1, said by the .cpg.
import shpwrite from '@mapbox/shp-write';
import JSZip from 'jszip';
import type { MapRecord } from './model';

type Ring = number[][];

/** Twice the signed area of a ring in lon/lat (positive: counter-clockwise). */
const signedArea = (ring: Ring) => ring.reduce((sum, p, i) => {
  const q = ring[(i + 1) % ring.length]!;
  return sum + p[0]! * q[1]! - q[0]! * p[1]!;
}, 0);
const wound = (ring: Ring, clockwise: boolean) => ((signedArea(ring) < 0) === clockwise ? ring : [...ring].reverse());

/** A file name of the map's name: letters, digits, spaces, dots, dashes and underscores. */
export const shapefileBaseName = (name: string) => name.normalize('NFC').replace(/[^\p{L}\p{N} ._-]+/gu, '_').trim().slice(0, 100) || 'mapa';

export async function mapShapefile(map: MapRecord, name: string): Promise<Buffer> {
  const base = shapefileBaseName(name);
  const features = map.geojson.features.map((feature) => {
    const parts = (feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates) as Ring[][];
    return {
      type: 'Feature' as const,
      geometry: { type: 'MultiPolygon' as const, coordinates: parts.map((rings) => rings.map((ring, i) => wound(ring, i === 0))) },
      properties: { nombre: feature.properties.nombre ?? '', id: feature.properties.id, _featid: feature.properties._featid, id_tipo: map.typeId },
    };
  });
  const written = (await shpwrite.zip({ type: 'FeatureCollection', features } as never, { outputType: 'nodebuffer', compression: 'DEFLATE', types: { polygon: base, multipolygon: base } } as never)) as unknown as Buffer;
  const zip = await JSZip.loadAsync(written);
  zip.file(`${base}.cpg`, 'ISO-8859-1');
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
