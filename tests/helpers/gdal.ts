// GDAL, the independent reader (gdalinfo, gdal_translate to XYZ) and writer (gdal_translate to COG)
// of the imagery tests: GDAL compiled to WebAssembly (gdal3.js, an npm package), so the tests need
// no system package. It starts once per test file (about 2 s: each file has its own module scope)
// and works on files in its own in-memory file system, removed after each call.
import { createRequire } from 'node:module';

interface Dataset {
  pointer: number;
}
interface OutputFiles {
  local: string;
  all: Array<{ local: string }>;
}
interface Gdal {
  open(path: string): Promise<{ datasets: Dataset[]; errors: unknown[] }>;
  close(dataset: Dataset): void;
  gdalinfo(dataset: Dataset, options: string[]): Promise<unknown>;
  gdal_translate(dataset: Dataset, options: string[]): Promise<OutputFiles>;
  getFileBytes(file: OutputFiles): Promise<Uint8Array>;
  Module: {
    FS: {
      writeFile(path: string, data: Uint8Array): void;
      unlink(path: string): void;
      readdir(path: string): string[];
    };
  };
}

let loading: Promise<Gdal> | undefined;
let files = 0;

function load(): Promise<Gdal> {
  loading ??= (async () => {
    let init: () => Promise<Gdal>;
    try {
      init = createRequire(import.meta.url)('gdal3.js/node');
    } catch (error) {
      throw new Error(
        `gdal3.js (GDAL compiled to WebAssembly, a devDependency) cannot be loaded: run npm install (${(error as Error).message})`,
      );
    }
    return init();
  })();
  return loading;
}

/** `work` on `bytes` opened by GDAL as a file with the given extension; the files are removed afterwards. */
async function withDataset<T>(
  bytes: Uint8Array,
  extension: string,
  work: (gdal: Gdal, dataset: Dataset) => Promise<T>,
): Promise<T> {
  const gdal = await load();
  const { FS } = gdal.Module;
  const name = `image-${process.pid}-${++files}`;
  const path = `/input/${name}.${extension}`;
  FS.writeFile(path, bytes);
  try {
    const { datasets, errors } = await gdal.open(path);
    const dataset = datasets[0];
    if (!dataset) throw new Error(`GDAL cannot open the image: ${JSON.stringify(errors)}`);
    try {
      return await work(gdal, dataset);
    } finally {
      gdal.close(dataset);
    }
  } finally {
    // the file and what GDAL wrote beside it (-stats' .aux.xml)
    for (const entry of FS.readdir('/input')) if (entry.startsWith(`${name}.`)) FS.unlink(`/input/${entry}`);
  }
}

/** gdalinfo's JSON of an image (`-json` and the given options, e.g. `-stats`). */
export function gdalinfo(bytes: Uint8Array, extension: string, options: string[] = []): Promise<any> {
  return withDataset(bytes, extension, (gdal, dataset) => gdal.gdalinfo(dataset, ['-json', ...options]));
}

/** The file gdal_translate writes from an image with the given options (`-of XYZ`, `-of COG -co ...`). */
export function gdalTranslate(bytes: Uint8Array, extension: string, options: string[]): Promise<Buffer> {
  return withDataset(bytes, extension, async (gdal, dataset) => {
    const output = await gdal.gdal_translate(dataset, options);
    try {
      return Buffer.from(await gdal.getFileBytes(output));
    } finally {
      for (const file of output.all) gdal.Module.FS.unlink(file.local);
    }
  });
}
