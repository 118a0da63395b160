// Opening a zip from a user with bounds (lib/util/zip.ts recognises one and loads this module on
// first use). Entries are untrusted: their count, their declared sizes all together and their
// names are checked before anything is inflated.
import { unzipSync } from 'fflate';
import { DomainError, Invalid } from '../errors';
import { escapesFolder } from './zip';

/** How much of a zip is read. */
export interface ZipBounds {
  /** Entries in the zip, read or not. */
  entries: number;
  /** Bytes the entries read declare uncompressed, all together. */
  bytes: number;
  /** The entries to read (inflate and answer); every file by default. The others are never inflated. */
  wanted?: (name: string) => boolean;
  /** A bound of one entry's own declared size, by its name (e.g. the KML of a KMZ); none when undefined. */
  entryBytes?: (name: string) => number | undefined;
}

/**
 * The files of a zip (folders and macOS metadata left out). Refused with `refuse` (Invalid by
 * default): more than `entries` entries, more than `bytes` declared uncompressed all together by
 * the entries read, an entry over its own bound, an entry name outside the zip's folder, or a zip
 * fflate cannot read. Every bound is checked on the sizes the zip declares, before anything is
 * inflated; fflate inflates each entry into a buffer of its declared size, so an entry that holds
 * more than it declares fails too: a zip bomb cannot take more memory than the bound.
 */
const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

export function unzipBounded(
  content: Buffer,
  limits: ZipBounds,
  refuse: (message: string) => DomainError = (message) => new Invalid(message),
): Record<string, Uint8Array> {
  let count = 0;
  let declared = 0;
  try {
    return unzipSync(new Uint8Array(content.buffer, content.byteOffset, content.byteLength), {
      filter: (entry) => {
        count += 1;
        if (count > limits.entries) throw refuse(`the zip holds more than ${limits.entries} entries`);
        if (escapesFolder(entry.name))
          throw refuse(`the zip holds an entry outside its folder: ${JSON.stringify(entry.name.slice(0, 100))}`);
        if (entry.name.endsWith('/') || entry.name.includes('__MACOSX')) return false;
        if (limits.wanted && !limits.wanted(entry.name)) return false;
        declared += entry.originalSize;
        if (declared > limits.bytes) throw refuse(`the zip holds more than ${mib(limits.bytes)} uncompressed`);
        const own = limits.entryBytes?.(entry.name);
        if (own !== undefined && entry.originalSize > own)
          throw refuse(
            `the zip's entry ${JSON.stringify(entry.name.slice(0, 100))} is larger than ${mib(own)} uncompressed`,
          );
        return true;
      },
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw refuse(`the zip cannot be read: ${(error as Error).message}`);
  }
}
