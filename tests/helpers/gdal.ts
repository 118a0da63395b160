// GDAL's command-line tools, the independent reader (gdalinfo) and writer (gdal_translate) of the
// imagery tests. A machine without them gets the README's install line instead of a bare ENOENT.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Tool = 'gdalinfo' | 'gdal_translate';
interface Options {
  maxBuffer?: number;
}

export function gdal(tool: Tool, args: string[], options: Options = {}): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', ...options });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `${tool} (GDAL's command-line tools) is not on PATH; the imagery tests read and write rasters with it. On Debian/Ubuntu: sudo apt-get install gdal-bin (README, Requirements)`,
      );
    }
    throw error;
  }
}

/**
 * `tool` run on `bytes` (an image the API answered) as a file with the given extension, `args(path)`
 * its arguments; the file, and what GDAL writes beside it (-stats' .aux.xml), are removed afterwards.
 */
export function gdalOnBytes(
  bytes: Buffer,
  extension: string,
  tool: Tool,
  args: (path: string) => string[],
  options: Options = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'surco-gdal-'));
  try {
    const path = join(dir, `image.${extension}`);
    writeFileSync(path, bytes);
    return gdal(tool, args(path), options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
