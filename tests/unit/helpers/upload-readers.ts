// The readers of every upload route, by route, as the functions call them (built by
// tests/unit/helpers/bounded.ts with the functions' esbuild options and run in a worker of bounded heap).
import { readBoundaries } from '../../../lib/fields/boundaries';
import { readLayerFile } from '../../../lib/imagery/layer-file';
import { readSheetRows } from '../../../lib/spots/sheets';

export interface Upload {
  filename: string;
  content: Buffer;
}

export const readers: Record<string, (file: Upload) => Promise<unknown>> = {
  /** POST /api/fields/convert */
  convert: (file) => readBoundaries(file, { maxHectares: 10_000 }),
  /** POST /files */
  layerFile: async (file) => {
    const table = await readLayerFile(file.content);
    return { columns: table.columns, features: table.features.length };
  },
  /** POST /api/spots/sheet */
  spotSheet: async (file) => (await readSheetRows(file)).length,
};
