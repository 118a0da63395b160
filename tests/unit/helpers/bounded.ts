// A reader of uploaded files run on one file in a worker thread whose V8 heap is capped (old and
// young generations together), timed after a benign file has loaded it: how the hostile-file tests
// assert "refused within 2 s and under 128 MB of heap". The readers are bundled first
// with the functions' own esbuild options (scripts/esbuild-options.ts), so the code measured is
// the code deployed. A reader that passes the cap ends the worker with ERR_WORKER_OUT_OF_MEMORY.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { deployBuildOptions } from '../../../scripts/esbuild-options';

export interface BoundedOutcome {
  ok: boolean;
  value?: string;
  error?: { name?: string; message: string; kind?: string; code?: string | number };
  /** Milliseconds the reader took on the file (the benign file's run excluded). */
  ms: number;
  /** The worker's heap (V8 total heap size) after the read, MB. */
  heapMb: number;
}

let built: Promise<string> | undefined;

/** tests/unit/helpers/upload-readers.ts bundled as a function is, once per test file. */
function readersBundle(): Promise<string> {
  built ??= (async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'surco-readers-'));
    await build({
      ...deployBuildOptions(),
      entryPoints: [join(import.meta.dirname, 'upload-readers.ts')],
      outdir,
      sourcemap: false,
    });
    return pathToFileURL(join(outdir, 'upload-readers.mjs')).href;
  })();
  return built;
}

export interface Upload {
  filename: string;
  content: Buffer;
}

/** Runs `reader` (a key of upload-readers.ts) on `file` with at most `heapMb` of V8 heap. */
export async function readBounded(
  reader: string,
  file: Upload,
  options: { heapMb: number; warm?: Upload },
): Promise<BoundedOutcome> {
  const bundle = await readersBundle();
  const young = 16;
  const worker = new Worker(new URL('./bounded-worker.mjs', import.meta.url), {
    workerData: { bundle, reader, warm: options.warm, file },
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb - young, maxYoungGenerationSizeMb: young },
    env: { ...process.env, SURCO_LOG_LEVEL: 'silent' },
  });
  try {
    return await new Promise<BoundedOutcome>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the reader's worker exited (${code}) without an answer`)));
    });
  } finally {
    await worker.terminate();
  }
}
