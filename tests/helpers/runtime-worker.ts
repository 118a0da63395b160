// The local runtime's worker thread (scripts/local/runtime-worker.ts), built into `dir` as
// scripts/local/build.ts builds it for the stack (a worker thread cannot run TypeScript), for the
// tests that run a LambdaRuntime of their own. Answers the built file's path.
import { join } from 'node:path';
import { build } from 'esbuild';

export async function buildRuntimeWorker(dir: string): Promise<string> {
  const outfile = join(dir, 'runtime-worker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '..', '..', 'scripts', 'local', 'runtime-worker.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  return outfile;
}
