// The esbuild options of the functions' production build, read from deploy/esbuild.yml (its
// aliases, plugins, loaders, banner, target, code splitting): for what builds a bundle the way the
// functions are built outside serverless (the cold-start bench's references, tests of the build).
// Production minifies. Splitting writes chunks beside the entry: give `outdir` (the entry `x.ts`
// becomes `<outdir>/x.mjs`), not `outfile`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BuildOptions, Loader, Plugin } from 'esbuild';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..');

interface DeployEsbuild {
  sourcemap: boolean;
  sourcesContent: boolean;
  target: string;
  platform: 'node';
  format: 'esm';
  mainFields: string[];
  loader: Record<string, Loader>;
  alias: Record<string, string>;
  plugins: string;
  banner: { js: string };
  splitting: boolean;
  chunkNames: string;
  outputFileExtension: string;
}

export function deployBuildOptions(): BuildOptions & { alias: Record<string, string>; plugins: Plugin[] } {
  const yml = parse(readFileSync(join(root, 'deploy', 'esbuild.yml'), 'utf8')) as DeployEsbuild;
  return {
    bundle: true,
    minify: true,
    sourcemap: yml.sourcemap,
    sourcesContent: yml.sourcesContent,
    target: yml.target,
    platform: yml.platform,
    format: yml.format,
    mainFields: yml.mainFields,
    loader: yml.loader,
    alias: yml.alias,
    plugins: [...(createRequire(import.meta.url)(join(root, yml.plugins)) as Plugin[])],
    banner: yml.banner,
    splitting: yml.splitting,
    chunkNames: yml.chunkNames,
    outExtension: { '.js': yml.outputFileExtension },
    absWorkingDir: root,
    nodePaths: [join(root, 'node_modules')],
    logLevel: 'error',
  };
}
