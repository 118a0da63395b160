// The rendering service of GET /api/geoserver/v2 (rendering.ts), apart from repository.ts so that
// only the geoserver function carries the EPSG registry (epsg-catalogue.ts, a chunk loaded at the
// first image asked in a code that is not built in).
import { platformFieldGate } from '../authz/gate';
import { loadEpsg } from './epsg-catalogue';
import { imageryRendering } from './rendering';
import { readDates, readRaster, scales } from './repository';

export const imageryImages = /* @__PURE__ */ imageryRendering({
  repository: { dates: readDates, raster: readRaster },
  gate: platformFieldGate,
  scales: (principal, id) => scales.owned(principal, id),
  loadEpsg,
});
