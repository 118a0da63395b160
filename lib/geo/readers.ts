// Readers of boundary and layer files, each imported on first use (ADR 0008): a request reads one
// format, and a function loads only the parser of the formats it is sent. Shapefiles: shpjs with
// proj4 for their .prj (lib/geo/shapefile.ts); KML: xmldom and togeojson (lib/geo/kml.ts).
import { onFirstUse } from '../util/first-use';

export const shapefileReader = /* @__PURE__ */ onFirstUse(() => import('./shapefile'));
export const kmlReader = /* @__PURE__ */ onFirstUse(() => import('./kml'));
