// The local stack's build of the functions: every handler module of the registry in one esbuild
// pass (chunks shared), with the production build's options and plugins (deploy/esbuild.yml,
// scripts/esbuild-options.ts) but not minified. Deployed functions are each built on their own by
// `npm run package` (deploy/build.cjs), each from an entry that exports its one handler.
// `watch` rebuilds when a source changes and calls `onRebuild`.

import { join } from 'node:path';
import { context } from 'esbuild';
import { deployBuildOptions } from '../esbuild-options';

/** The handler module (`functions/<area>/<file>`) of a registry handler (`functions/<area>/<file>.<export>`). */
export const handlerModule = (handler: string): string => handler.slice(0, handler.lastIndexOf('.'));
export const handlerExport = (handler: string): string => handler.slice(handler.lastIndexOf('.') + 1);
/** The local runtime's worker thread, `<outdir>/runtime-worker.mjs`. */
export const RUNTIME_WORKER = 'runtime-worker';

export async function buildFunctions(options: {
  root: string;
  outdir: string;
  handlers: readonly string[];
  watch?: boolean;
  onRebuild?: (errors: number) => void;
}): Promise<{ stop(): Promise<void> }> {
  const modules = [...new Set(options.handlers.map(handlerModule))];
  const entryPoints = {
    ...Object.fromEntries(modules.map((module) => [module, join(options.root, `${module}.ts`)])),
    // the runtime's worker thread, built with them (a worker thread cannot run TypeScript)
    [RUNTIME_WORKER]: join(options.root, 'scripts', 'local', 'runtime-worker.ts'),
  };
  const deploy = deployBuildOptions();
  let first = true;
  const rebuilt = {
    name: 'surco-rebuilt',
    setup(build: { onEnd(callback: (result: { errors: unknown[] }) => void): void }) {
      build.onEnd((result) => {
        if (first) return;
        options.onRebuild?.(result.errors.length);
      });
    },
  };
  const ctx = await context({
    ...deploy,
    entryPoints,
    outdir: options.outdir,
    minify: false,
    sourcesContent: true,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    plugins: [...deploy.plugins, rebuilt],
  });
  const result = await ctx.rebuild();
  first = false;
  if (result.errors.length) {
    await ctx.dispose();
    throw new Error(`the functions did not build (${result.errors.length} errors)`);
  }
  if (options.watch) await ctx.watch();
  else await ctx.dispose();
  return { stop: () => ctx.dispose() };
}
