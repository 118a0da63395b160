// Start tags of an XML part counted on its bytes, before any parser sees it: what bounds the
// parts of an uploaded workbook (cells, rows, shared strings) before SheetJS splits and reads them
//. Namespace prefixes are ignored (`<x:c>` is a `c`); end tags, comments and
// declarations are not counted.

const LT = 0x3c;
const SLASH = 0x2f;
const COLON = 0x3a;
const isNameEnd = (byte: number) =>
  byte === 0x20 || byte === 0x3e || byte === SLASH || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * How many start tags of each name (local names, ASCII) the part holds; counting stops as soon as
 * one passes its limit, so a part of millions of tags costs no more than reading up to that one.
 */
export function countStartTags(content: Uint8Array, limits: Record<string, number>): Record<string, number> {
  const names = Object.keys(limits);
  const wanted = names.map((name) => Buffer.from(name, 'latin1'));
  const bounds = names.map((name) => limits[name]!);
  const counts = new Array<number>(names.length).fill(0);
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const length = bytes.length;
  scan: for (let at = bytes.indexOf(LT); at >= 0; at = bytes.indexOf(LT, at + 1)) {
    const first = bytes[at + 1];
    if (first === SLASH || first === 0x3f || first === 0x21) continue; // </end>, <?pi?>, <!-- -->
    let start = at + 1;
    let end = start;
    while (end < length && end - at < 64 && !isNameEnd(bytes[end]!)) {
      if (bytes[end] === COLON) start = end + 1;
      end += 1;
    }
    candidates: for (let i = 0; i < wanted.length; i++) {
      const name = wanted[i]!;
      if (name.length !== end - start) continue;
      for (let j = 0; j < name.length; j++) if (bytes[start + j] !== name[j]) continue candidates;
      if (++counts[i]! > bounds[i]!) break scan;
      break;
    }
  }
  return Object.fromEntries(names.map((name, i) => [name, counts[i]!]));
}
