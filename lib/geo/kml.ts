// The features of a KML document (boundary files: .kml, and the KML inside a .kmz), read with
// xmldom and togeojson. Loaded on first use through kmlReader() (lib/geo/readers.ts): a function
// that converts a shapefile never loads the XML parser.
//
// xmldom builds a full DOM, about 1 KB of heap a node (a 4 MiB KML of tiny elements took 880 MB
// and 40 s), and togeojson then builds every vertex. So the document is bounded before
// each of them: its bytes and its markup (tags and attributes, counted on the bytes, CDATA left
// out) before the DOM is built, its vertices (the tuples of every <coordinates>) before togeojson
// reads them.
import { kml } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { type DomainError, Invalid } from '../errors';
import { decodeXml } from '../util/decoding';

export interface KmlFeature {
  geometry: { type: string; coordinates?: unknown; geometries?: KmlFeature['geometry'][] } | null;
  properties: Record<string, unknown> | null;
}

/** How much of a KML is read. */
export interface KmlBounds {
  /** The document's bytes (UTF-8). */
  bytes: number;
  /** Tags, comments and attributes: the nodes of its DOM (about 1 KB of heap each). */
  markup: number;
  /** Vertices: the tuples of every <coordinates>. */
  vertices: number;
}

/** The features of a KML document (its bytes, in the encoding it declares); `refuse` when it passes the bounds, is not well-formed or declares a document type. */
export function readKml(
  content: Uint8Array,
  bounds: KmlBounds,
  refuse: (message: string) => DomainError = (message) => new Invalid(message),
): KmlFeature[] {
  if (content.byteLength > bounds.bytes) throw refuse(`the KML is larger than ${bounds.bytes / 1024 / 1024} MiB`);
  if (markupOf(content, bounds.markup) > bounds.markup)
    throw refuse(`the KML holds more than ${bounds.markup} tags and attributes`);
  // its declared encoding (ISO-8859-1, Windows-1252) or byte-order mark honoured, UTF-8 otherwise
  const text = decodeXml(content);
  // KML needs no document type: refusing any DTD rules out entity expansion and external entities.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw refuse('the KML declares a document type or entities, which KML does not use');
  const problems: string[] = [];
  let document: ReturnType<DOMParser['parseFromString']> | undefined;
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
  let vertices = 0;
  for (const coordinates of Array.from(document.getElementsByTagName('coordinates'))) {
    vertices += tuplesOf(coordinates.textContent ?? '', bounds.vertices - vertices + 1);
    if (vertices > bounds.vertices) throw refuse(`the file holds more than ${bounds.vertices} vertices`);
  }
  return kml(document as never).features as KmlFeature[];
}

const LT = 0x3c; // <
const EQUALS = 0x3d; // =
const CDATA = Buffer.from('<![CDATA[');
const CDATA_END = Buffer.from(']]>');

/**
 * The markup of an XML text, counted on its bytes: every '<' (a tag, comment or CDATA section) and
 * every '=' (an attribute) outside CDATA sections; counting stops past `limit`. An upper bound of
 * the DOM's nodes (each text node lies between two tags), whatever the elements are named.
 */
function markupOf(content: Uint8Array, limit: number): number {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  let count = 0;
  for (let i = 0; i < bytes.length && count <= limit; i++) {
    const byte = bytes[i];
    if (byte === LT) {
      count += 1;
      if (bytes[i + 1] === 0x21 && bytes.subarray(i, i + CDATA.length).equals(CDATA)) {
        const end = bytes.indexOf(CDATA_END, i + CDATA.length);
        i = end < 0 ? bytes.length : end + CDATA_END.length - 1;
      }
    } else if (byte === EQUALS) count += 1;
  }
  return count;
}

/** The tuples of a <coordinates> text, split at whitespace as togeojson splits them; counting stops past `limit`. */
function tuplesOf(text: string, limit: number): number {
  const tuple = /\S+/g;
  let tuples = 0;
  while (tuples <= limit && tuple.exec(text)) tuples += 1;
  return tuples;
}
