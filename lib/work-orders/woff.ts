// A WOFF 1.0 font as the plain TrueType/OpenType (sfnt) font it wraps (W3C WOFF 1.0, section 5:
// each table stored zlib-compressed when that is smaller). The work order's fonts ship as WOFF
// (@fontsource), and fontkit, which pdfkit reads fonts with, inflates a WOFF table again at every
// read of it: the `glyf` table once per glyph drawn, which took a work order at its maximum (50
// labours x 40 inputs) past its function's timeout. Unwrapped once, each table is inflated once.
import { inflateSync } from 'node:zlib';

const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'
const HEADER = 44;
const WOFF_ENTRY = 20;
const SFNT_ENTRY = 16;

const align4 = (n: number) => (n + 3) & ~3;

/** The sfnt font a WOFF 1.0 font holds; throws on anything else. */
export function sfntOfWoff(woff: Uint8Array): Buffer {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (input.length < HEADER || input.readUInt32BE(0) !== WOFF_SIGNATURE) throw new Error('not a WOFF 1.0 font');
  const flavor = input.readUInt32BE(4);
  const numTables = input.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = HEADER + i * WOFF_ENTRY;
    const entry = {
      tag: input.readUInt32BE(at),
      offset: input.readUInt32BE(at + 4),
      compLength: input.readUInt32BE(at + 8),
      origLength: input.readUInt32BE(at + 12),
      checksum: input.readUInt32BE(at + 16),
    };
    if (entry.offset + entry.compLength > input.length) throw new Error('a WOFF table lies outside the file');
    const stored = input.subarray(entry.offset, entry.offset + entry.compLength);
    const data = entry.compLength < entry.origLength ? inflateSync(stored) : stored;
    if (data.length !== entry.origLength) throw new Error('a WOFF table is not the size it declares');
    return { ...entry, data };
  });
  // the offset table's binary-search fields (OpenType, "Table directory")
  let power = 1;
  let log2 = 0;
  while (power * 2 <= numTables) {
    power *= 2;
    log2 += 1;
  }
  const directory = 12 + numTables * SFNT_ENTRY;
  const size = tables.reduce((total, t) => total + align4(t.origLength), directory);
  const out = Buffer.alloc(size); // zero-filled: the padding between tables is zeros
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(log2, 8);
  out.writeUInt16BE(numTables * 16 - power * 16, 10);
  let offset = directory;
  tables.forEach((table, i) => {
    const at = 12 + i * SFNT_ENTRY;
    out.writeUInt32BE(table.tag, at);
    out.writeUInt32BE(table.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(table.origLength, at + 12);
    table.data.copy(out, offset);
    offset += align4(table.origLength);
  });
  return out;
}
