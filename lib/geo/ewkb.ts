// Extended WKB (PostGIS's binary form, with the SRID), hex-encoded as PostGIS prints it: what the
// platform's legacy records carry (a deleted spot's `shape`). Its own module: wkx is CommonJS and
// evaluated wherever it is imported, so only the functions that write EWKB load it.
import wkx from 'wkx';

/** The WKT geometry as upper-case hex EWKB with SRID 4326. */
export function ewkbHex(wkt: string): string {
  const geometry = wkx.Geometry.parse(wkt);
  geometry.srid = 4326;
  return geometry.toEwkb().toString('hex').toUpperCase();
}
