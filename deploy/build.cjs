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

/**
 * A fixed modification time: the same bundle makes the same zip (and Lambda sees no change) on one
 * Node.js version; zlib's output may differ between Node's versions, so packaging on another one
 * uploads every function again.
 */
const ZIP_TIME = new Date('2026-01-01T00:00:00Z');

/** The specifier of a lane's entry point, resolved at each rebuild to the function it builds. */
const ENTRY = 'surco-function-entry';

/**
 * Builds and zips each function: `entries` maps a function's name to its entry, relative to `root`
 * (`.surco/handlers/<name>/index.ts`); its zip holds the entry's directory (`.surco/handlers/<name>/`,
 * where the handler setting points) with the bundle and its chunks and maps, nothing else. Writes
 * `<packageDir>/<name>.zip` and answers the zips' paths by name.
 *
 * The functions are built in `concurrency` lanes, each an esbuild context rebuilt for one function
 * after another (its entry point resolves to that function's entry): a context keeps the modules
 * it parsed, so a lane parses the SDK, zod and lib/ once, not once per function. Outputs are taken
 * from memory, not written (`workDir` only places the lanes' outputs, so that the maps' paths are
 * those of a build in `<workDir>/.surco/handlers/<name>/`): those no entry reaches are left out (prune-chunks,
 * deploy/esbuild-plugins.cjs), and a function whose dead import() chunks shaped what it loads is
 * built again without those imports, after every function's first build (the cut's filter names
 * every file it may cut when its context starts). The zips are those of a build of each function on
 * its own (tests/infrastructure.test.ts).
 */
async function packageFunctions({ root, settings, entries, workDir, packageDir, concurrency = 2, log }) {
  const esbuild = require('esbuild');
  const { zipOf } = require('./zip.cjs');
  const { chunkPlan, cutImports } = require(path.join(root, settings.plugins));
  const options = buildOptions(settings, root);
  const plugins = options.plugins.filter((plugin) => plugin.name !== 'prune-chunks');
  fs.mkdirSync(packageDir, { recursive: true });
  const names = Object.keys(entries);
  // a lane writes as if into a function's own directory (.surco/handlers/<name>/, at the same
  // depth), so that the maps' relative paths to the sources are those of that directory
  const parents = new Set(names.map((name) => path.dirname(path.dirname(entries[name]))));
  if (parents.size > 1) throw new Error(`packageFunctions: entries in different folders (${[...parents].join(', ')})`);
  const outdirOf = (lane) => path.join(workDir, [...parents][0] ?? '.', `~lane-${lane}`);
  const artifacts = {};
  const started = Date.now();

  const zip = (name, outdir, outputFiles, unreachable) => {
    const left = new Set(unreachable.flatMap((file) => [file, `${file}.map`]).map((file) => path.resolve(root, file)));
    const dir = path.dirname(entries[name]).split(path.sep).join('/');
    const files = {};
    for (const output of [...outputFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      if (left.has(output.path)) continue;
      files[`${dir}/${path.relative(outdir, output.path).split(path.sep).join('/')}`] = output.contents;
    }
    const artifact = path.join(packageDir, `${name}.zip`);
    fs.writeFileSync(artifact, zipOf(files, { level: 6, mtime: ZIP_TIME }));
    artifacts[name] = artifact;
  };

  /**
   * Builds the functions `queue` names, taking them from it one after another, in one context
   * (with the plugins `extra` gives for the function at hand), and hands each result to `done`.
   */
  const runLane = async (lane, queue, extra, done) => {
    let current;
    const entry = {
      name: 'function-entry',
      setup(build) {
        build.onResolve({ filter: new RegExp(`^${ENTRY}$`) }, () => ({ path: path.join(root, entries[current]) }));
      },
    };
    const outdir = outdirOf(lane);
    const context = await esbuild.context({
      ...options,
      plugins: [entry, ...extra(() => current), ...plugins],
      entryPoints: { index: ENTRY },
      outdir,
      write: false,
      metafile: true,
    });
    try {
      while (queue.length) {
        current = queue.shift();
        done(current, outdir, await context.rebuild());
      }
    } finally {
      await context.dispose();
    }
  };
  const lanes = (queue, extra, done) =>
    Promise.all(
      Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, (_, lane) =>
        runLane(lane, queue, extra, done),
      ),
    );

  const cuts = new Map();
  await lanes(
    [...names],
    () => [],
    (name, outdir, result) => {
      const { unreachable, cut } = chunkPlan(result.metafile, [entries[name]], root);
      if (cut) cuts.set(name, cut);
      else zip(name, outdir, result.outputFiles, unreachable);
    },
  );
  if (cuts.size) {
    const everyCut = new Set([...cuts.values()].flatMap((cut) => [...cut]));
    await lanes(
      [...cuts.keys()],
      (current) => [cutImports(() => cuts.get(current()), everyCut)],
      (name, outdir, result) =>
        zip(name, outdir, result.outputFiles, chunkPlan(result.metafile, [entries[name]], root).unreachable),
    );
  }
  log?.(
    `built and zipped ${names.length} functions (${cuts.size} twice, without dead imports) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return artifacts;
}

module.exports = { buildOptions, packageFunctions };
