'use strict';
// The functions' production build: each function bundled on its own (minified ESM, source maps, the
// AWS SDK included, chunks loaded on first use beside it) from its entry (.surco/handlers/<name>/
// index.ts, written by the serverless plugin) with the settings of deploy/esbuild.yml, and zipped
// as Lambda runs it. The serverless plugin packages the functions with it
// (scripts/serverless/surco-plugin.cjs); scripts/esbuild-options.ts gives the same options to what
// builds a bundle outside packaging (benchmarks, tests of the build). CommonJS: osls loads the plugin.
const fs = require('node:fs');
const path = require('node:path');

/** esbuild's options from the settings of deploy/esbuild.yml (as osls or a YAML parser read them). */
function buildOptions(settings, root) {
  return {
    bundle: true,
    minify: settings.minify !== false,
    sourcemap: settings.sourcemap,
    sourcesContent: settings.sourcesContent,
    target: settings.target,
    platform: settings.platform,
    format: settings.format,
    mainFields: settings.mainFields,
    loader: settings.loader,
    alias: settings.alias,
    plugins: settings.plugins ? [...require(path.join(root, settings.plugins))] : [],
    banner: settings.banner,
    splitting: settings.splitting,
    chunkNames: settings.chunkNames,
    outExtension: { '.js': settings.outputFileExtension },
    absWorkingDir: root,
    nodePaths: [path.join(root, 'node_modules')],
    logLevel: 'error',
  };
}

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
function filesOf(dir) {
  const out = [];
  const walk = (sub) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/** A fixed modification time: the same bundle makes the same zip (and Lambda sees no change). */
const ZIP_TIME = new Date('2026-01-01T00:00:00Z');

/**
 * Builds and zips each function: `entries` maps a function's name to its entry, relative to `root`
 * (`.surco/handlers/<name>/index.ts`); its zip holds the entry's directory (`.surco/handlers/<name>/`,
 * where the handler setting points) with the bundle and its chunks and maps, nothing else. Writes
 * `<packageDir>/<name>.zip` and answers the zips' paths by name. `concurrency` builds run at once.
 */
async function packageFunctions({ root, settings, entries, workDir, packageDir, concurrency = 4, log }) {
  const esbuild = require('esbuild');
  const { zipSync } = require('fflate');
  const options = buildOptions(settings, root);
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.mkdirSync(packageDir, { recursive: true });
  const names = Object.keys(entries);
  const artifacts = {};
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      const entry = entries[name];
      const dir = path.dirname(entry);
      const outdir = path.join(workDir, dir);
      await esbuild.build({ ...options, entryPoints: { index: path.join(root, entry) }, outdir });
      const files = {};
      for (const file of filesOf(outdir)) {
        files[`${dir.split(path.sep).join('/')}/${file}`] = [
          fs.readFileSync(path.join(outdir, file)),
          { mtime: ZIP_TIME },
        ];
      }
      const artifact = path.join(packageDir, `${name}.zip`);
      fs.writeFileSync(artifact, zipSync(files, { level: 9 }));
      artifacts[name] = artifact;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, worker));
  fs.rmSync(workDir, { recursive: true, force: true });
  log?.(`built and zipped ${names.length} functions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return artifacts;
}

module.exports = { buildOptions, packageFunctions };
