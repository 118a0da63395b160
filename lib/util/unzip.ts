// Opening a zip from a user with bounds (lib/util/zip.ts recognises one and loads this module on
// first use). Entries are untrusted: their count, their declared sizes all together and their
// names are checked before anything is inflated.
import { unzipSync } from 'fflate';
import { DomainError, Invalid } from '../errors';
import { escapesFolder } from './zip';

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
        if (declared > limits.bytes)
          throw refuse(`the zip holds more than ${limits.bytes / 1024 / 1024} MiB uncompressed`);
        if (escapesFolder(entry.name))
          throw refuse(`the zip holds an entry outside its folder: ${JSON.stringify(entry.name.slice(0, 100))}`);
        return !entry.name.endsWith('/') && !entry.name.includes('__MACOSX');
      },
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw refuse(`the zip cannot be read: ${(error as Error).message}`);
  }
}
