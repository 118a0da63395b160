// Uploaded bytes as text: the one decoder of delimited text (spot sheets, layer files' tables:
// lib/util/delimited.ts re-exports it) and of XML (KML boundary files). No parser here, so that a
// module that only decodes loads nothing else.

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Windows-1252's bytes 0x80-0x9F (the WHATWG index; the five it leaves undefined stay C1 controls).
 * Node's TextDecoder('windows-1252') decodes them as Latin-1 before Node 23 (nodejs/node#56542),
 * so the text is decoded as Latin-1 and these are mapped here.
 */
const WINDOWS_1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';
export const windows1252 = (content: Buffer): string =>
  content.toString('latin1').replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);

/**
 * Text of an uploaded file: UTF-8 (with or without its byte-order mark), UTF-16 with its mark,
 * and otherwise Windows-1252, which is what a spreadsheet saved "as CSV" on a Spanish or
 * Portuguese Windows writes (ó as the one byte 0xF3). Bytes that are valid UTF-8 are read as
 * UTF-8: a text in Windows-1252 with accents is practically never valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): string {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf)
    return new TextDecoder('utf-8').decode(content.subarray(3));
  if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder('utf-16le').decode(content.subarray(2));
  if (content[0] === 0xfe && content[1] === 0xff) {
    const swapped = Buffer.from(content.subarray(2, 2 + ((content.length - 2) & ~1)));
    return new TextDecoder('utf-16le').decode(swapped.swap16());
  }
  try {
    return UTF8.decode(content);
  } catch {
    return windows1252(content);
  }
}

const LATIN_LABELS = new Set([
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'latin1',
  'latin-1',
  'l1',
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'us-ascii',
  'ascii',
]);

/**
 * Text of an XML file (a KML): a byte-order mark (UTF-8, UTF-16) wins and is left out; otherwise
 * the encoding its declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`: Latin-1 and
 * Windows-1252 read as Windows-1252, as browsers do; any other label TextDecoder knows); otherwise
 * UTF-8, XML's default (bytes that are not valid UTF-8: Windows-1252, as decodeText reads them).
 */
export function decodeXml(bytes: Uint8Array): string {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom =
    (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) ||
    (content[0] === 0xff && content[1] === 0xfe) ||
    (content[0] === 0xfe && content[1] === 0xff);
  if (bom) return decodeText(content);
  const declared = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/
    .exec(content.subarray(0, 256).toString('latin1'))?.[1]
    ?.toLowerCase();
  if (declared && LATIN_LABELS.has(declared)) return windows1252(content);
  if (declared && declared !== 'utf-8' && declared !== 'utf8') {
    try {
      return new TextDecoder(declared).decode(content);
    } catch {
      // a label TextDecoder does not know: read as the default
    }
  }
  return decodeText(content);
}
