// The EPSG codes imagery supports, as proj4 definitions: WGS84 (4326), Web Mercator (3857) and the
// WGS84 UTM zones (326xx north, 327xx south). Without proj4 itself, so that the route registry can
// validate an epsg parameter without bundling it.

/** proj4 definition of a supported EPSG code; undefined when the code is not supported. */
export function projDefinition(epsg: number): string | undefined {
  if (epsg === 4326) return '+proj=longlat +datum=WGS84 +no_defs';
  if (epsg === 3857)
    return '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs';
  const zone = epsg % 100;
  if ((epsg - zone === 32600 || epsg - zone === 32700) && zone >= 1 && zone <= 60) {
    return `+proj=utm +zone=${zone}${epsg >= 32700 ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;
  }
  return undefined;
}

export const isSupportedEpsg = (epsg: number): boolean => projDefinition(epsg) !== undefined;
