// The EPSG codes imagery supports, as proj4 definitions: WGS84 (4326), Web Mercator (3857) and the
// WGS84 UTM zones (326xx north, 327xx south) built in; any other code of the EPSG definitions of
// proj4-list (epsg-catalogue.ts: SIRGAS 2000, POSGAR 2007, every national grid) once loaded, which
// only the rendering of an image asked in such a code does. Without proj4 itself, so that the route
// registry can validate an epsg parameter without bundling it.

const loaded = new Map<number, string>();

/** proj4 definition of a built-in or loaded EPSG code; undefined when the code is neither. */
export function projDefinition(epsg: number): string | undefined {
  if (epsg === 4326) return '+proj=longlat +datum=WGS84 +no_defs';
  if (epsg === 3857)
    return '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs';
  const zone = epsg % 100;
  if ((epsg - zone === 32600 || epsg - zone === 32700) && zone >= 1 && zone <= 60) {
    return `+proj=utm +zone=${zone}${epsg >= 32700 ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;
  }
  return loaded.get(epsg);
}

/** Keeps the definition of a code loaded from the catalogue (epsg-catalogue.ts). */
export function registerDefinition(epsg: number, definition: string): void {
  loaded.set(epsg, definition);
}

/** Whether a code's coordinates are longitude and latitude (a geographic CRS): WGS84, SIRGAS 2000, ... */
export const isGeographic = (epsg: number): boolean => /\+proj=longlat\b/.test(projDefinition(epsg) ?? '');

/** The largest EPSG code a request may name (the registry's codes are below 1,000,000). */
export const MAX_EPSG = 999_999;
