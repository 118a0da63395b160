// Zips from users (boundary files, layer files, sheets): recognised by their first bytes, opened
// with bounds. Entries are untrusted: their count, their declared sizes all together and their
// names are checked before anything is inflated.
import { unzipSync } from 'fflate';
import { DomainError, Invalid } from '../errors';

// What a zip file starts with: a local file header "PK\x03\x04" (xlsx, KMZ, zipped shapefiles),
// or for a zip with no entry its end of central directory "PK\x05\x06".
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

export const isZip = (content: Buffer): boolean => content.subarray(0, 4).equals(ZIP_MAGIC) || content.subarray(0, 4).equals(EMPTY_ZIP_MAGIC);

/** An entry name that would leave the folder it is extracted to (absolute, a drive, or `..`). */
export const escapesFolder = (name: string): boolean =>
  name.startsWith('/') || name.startsWith('\\') || /(^|[\\/])\.\.([\\/]|$)/.test(name) || /^[a-z]:/i.test(name);

/**
 * The files of a zip (folders and macOS metadata left out). Refused with `refuse` (Invalid by
 * default): more than `entries` entries, more than `bytes` declared uncompressed all together, an
 * entry name outside the zip's folder, or a zip fflate cannot read. fflate inflates each entry into
 * a buffer of its declared size, so an entry that holds more than it declares fails too: a zip bomb
 * cannot take more memory than the bound.
 */
export function unzipBounded(
  content: Buffer,
  limits: { entries: number; bytes: number },
  refuse: (message: string) => DomainError = (message) => new Invalid(message),
): Record<string, Uint8Array> {
  let count = 0;
  let declared = 0;
  try {
    return unzipSync(new Uint8Array(content.buffer, content.byteOffset, content.byteLength), {
      filter: (entry) => {
        count += 1;
        declared += entry.originalSize;
        if (count > limits.entries) throw refuse(`the zip holds more than ${limits.entries} entries`);
        if (declared > limits.bytes) throw refuse(`the zip holds more than ${limits.bytes / 1024 / 1024} MiB uncompressed`);
        if (escapesFolder(entry.name)) throw refuse(`the zip holds an entry outside its folder: ${JSON.stringify(entry.name.slice(0, 100))}`);
        return !entry.name.endsWith('/') && !entry.name.includes('__MACOSX');
      },
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw refuse(`the zip cannot be read: ${(error as Error).message}`);
  }
}
