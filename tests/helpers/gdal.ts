// GDAL's command-line tools, the independent reader (gdalinfo) and writer (gdal_translate) of the
// imagery tests. A machine without them gets the README's install line instead of a bare ENOENT.
import { execFileSync } from 'node:child_process';

export function gdal(tool: 'gdalinfo' | 'gdal_translate', args: string[], options: { maxBuffer?: number } = {}): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', ...options });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`${tool} (GDAL's command-line tools) is not on PATH; the imagery tests read and write rasters with it. On Debian/Ubuntu: sudo apt-get install gdal-bin (README, Requirements)`);
    }
    throw error;
  }
}
