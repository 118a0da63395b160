// The features of a KML document (boundary files: .kml, and the KML inside a .kmz), read with
// xmldom and togeojson. Loaded on first use through kmlReader() (lib/geo/readers.ts): a function
// that converts a shapefile never loads the XML parser.
import { kml } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { type DomainError, Invalid } from '../errors';

export interface KmlFeature {
  geometry: { type: string; coordinates?: unknown; geometries?: KmlFeature['geometry'][] } | null;
  properties: Record<string, unknown> | null;
}

/** The features of a KML text; `refuse` when it is not well-formed or declares a document type. */
export function readKml(
  text: string,
  refuse: (message: string) => DomainError = (message) => new Invalid(message),
): KmlFeature[] {
  // KML needs no document type: refusing any DTD rules out entity expansion and external entities.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw refuse('the KML declares a document type or entities, which KML does not use');
  const problems: string[] = [];
  let document;
  try {
    document = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') problems.push(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (error) {
    problems.push((error as Error).message); // a fatal error ends the parse
  }
  if (problems.length || !document) throw refuse(`the KML is not well-formed XML: ${problems[0]?.slice(0, 200)}`);
  return kml(document as never).features as KmlFeature[];
}
