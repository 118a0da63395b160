// The esbuild options of the functions' production build, read from deploy/esbuild.yml (its
// aliases, plugins, loaders, banner, target, code splitting): for what builds a bundle the way the
// functions are built outside serverless (the cold-start bench's references, tests of the build).
// Production minifies. Splitting writes chunks beside the entry: give `outdir` (the entry `x.ts`
// becomes `<outdir>/x.mjs`), not `outfile`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..');

const { buildOptions } = createRequire(import.meta.url)(join(root, 'deploy', 'build.cjs')) as {
  buildOptions: (
    settings: unknown,
    root: string,
  ) => BuildOptions & { alias: Record<string, string>; plugins: Plugin[] };
};

/** The options of deploy/esbuild.yml, as the packaging of the functions builds them (deploy/build.cjs). */
export function deployBuildOptions(): BuildOptions & { alias: Record<string, string>; plugins: Plugin[] } {
  return buildOptions(parse(readFileSync(join(root, 'deploy', 'esbuild.yml'), 'utf8')), root);
}
