// Zips from users (boundary files, layer files, sheets): recognised by their first bytes, opened
// with bounds by `unzipBounded` (lib/util/unzip.ts, with fflate), which `await unzipper()` loads on
// first use (ADR 0008): fflate builds its Huffman tables when it is imported (~10 ms), which a
// request that sends a plain KML or csv never needs.
import { onFirstUse } from './first-use';

// What a zip file starts with: a local file header "PK\x03\x04" (xlsx, KMZ, zipped shapefiles),
// or for a zip with no entry its end of central directory "PK\x05\x06".
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

export const isZip = (content: Buffer): boolean =>
  content.subarray(0, 4).equals(ZIP_MAGIC) || content.subarray(0, 4).equals(EMPTY_ZIP_MAGIC);

/** An entry name that would leave the folder it is extracted to (absolute, a drive, or `..`). */
export const escapesFolder = (name: string): boolean =>
  name.startsWith('/') || name.startsWith('\\') || /(^|[\\/])\.\.([\\/]|$)/.test(name) || /^[a-z]:/i.test(name);

/** `unzipBounded` (lib/util/unzip.ts), loaded once per container on first use. */
export const unzipper = /* @__PURE__ */ onFirstUse(() => import('./unzip'));
