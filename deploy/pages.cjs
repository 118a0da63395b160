'use strict';
// The web pages the platform serves itself (docs/console.md): GET /docs, the API reference (Swagger
// UI over GET /openapi.json), and GET /console, the web console. Each page is built by esbuild from
// console/ when the function that serves it is built (the `pages` plugin of
// deploy/esbuild-plugins.cjs, so `npm run package` and the local stack's build alike): its HTML,
// script and style, their names carrying a hash of their content, and what they load (MapLibre's
// worker, images). The function's bundle holds only their names: the files are written beside it
// (esbuild's `file` loader) and its zip takes them, and it reads a file when first asked for it.

const { mkdir, readFile, stat, writeFile } = require('node:fs/promises');
const { pathToFileURL } = require('node:url');
const { basename, extname, join, relative, resolve } = require('node:path');

/** Each page: its script (which imports its styles) and its HTML, with {{script}} and {{style}}. */
const PAGES = {
  docs: { entry: 'console/reference/main.ts', html: 'console/reference/index.html' },
  console: { entry: 'console/main.ts', html: 'console/index.html' },
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const typeOf = (name) => TYPES[extname(name)] || 'application/octet-stream';

// A file imported from a package that the page loads by URL rather than bundles (MapLibre's worker:
// `import url from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'` is its URL relative to the script;
// Swagger UI's licence). Every file of a page has an extension, and none is `.mjs`, which names the
// function's own code beside it: a `.mjs` file is served as `.js` (MapLibre loads any worker not
// named `.cjs` as a module), a file without one as `.txt`.
const URL_IMPORT = /\?url$/;
const SERVED_EXTENSION = { '': '.txt', '.mjs': '.js' };
/** The plugin; the files it loads are added to `loaded` (a page's sources). */
const urlImports = (loaded) => ({
  name: 'url-imports',
  setup(build) {
    build.onResolve({ filter: URL_IMPORT }, async (args) => {
      const resolved = await build.resolve(args.path.replace(URL_IMPORT, ''), {
        kind: 'import-statement',
        resolveDir: args.resolveDir,
      });
      if (resolved.errors.length) return { errors: resolved.errors };
      const extension = extname(resolved.path);
      const served = SERVED_EXTENSION[extension];
      loaded.add(resolved.path);
      return {
        path: served ? `${resolved.path.slice(0, resolved.path.length - extension.length)}${served}` : resolved.path,
        namespace: 'page-url',
        pluginData: resolved.path,
      };
    });
    build.onLoad({ filter: /.*/, namespace: 'page-url' }, async (args) => ({
      contents: await readFile(args.pluginData),
      loader: 'file',
    }));
  },
});

/** The files of a page: [{name, type, contents}], the HTML as `index.html`; and the sources it was built from. */
async function buildPage(root, page) {
  const spec = PAGES[page];
  if (!spec) throw new Error(`pages: no page named ${page}`);
  const esbuild = require('esbuild');
  const outdir = join(root, '.surco', 'pages', page);
  const loadedByUrl = new Set();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { [page]: join(root, spec.entry) },
    outdir,
    write: false,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'edge111', 'firefox115', 'safari16'],
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    loader: { '.png': 'file', '.svg': 'file', '.woff2': 'file' },
    // the licences of what is bundled stay with it, in a file beside the script
    legalComments: 'linked',
    metafile: true,
    logLevel: 'silent',
    plugins: [urlImports(loadedByUrl)],
  });
  const files = result.outputFiles.map((file) => ({
    name: relative(outdir, file.path).split('\\').join('/'),
    type: typeOf(file.path),
    contents: Buffer.from(file.contents),
  }));
  const outputs = Object.entries(result.metafile.outputs);
  const entryOutput = outputs.find(([, output]) => output.entryPoint)?.[0];
  const script = entryOutput && basename(entryOutput);
  const style = outputs.find(([file]) => file.endsWith('.css'))?.[0];
  if (!script) throw new Error(`pages: ${page} built no script`);
  const template = await readFile(join(root, spec.html), 'utf8');
  const html = template
    .replaceAll('{{script}}', `${page}/${script}`)
    .replaceAll('{{style}}', style ? `${page}/${basename(style)}` : '');
  files.push({ name: 'index.html', type: typeOf('index.html'), contents: Buffer.from(html) });
  const sources = [
    ...Object.keys(result.metafile.inputs)
      .filter((input) => !input.startsWith('page-url:'))
      .map((input) => resolve(root, input)),
    ...loadedByUrl,
    join(root, spec.html),
  ];
  return { files, sources };
}

/** When the sources last changed (a page is built again only when one did). */
async function stampOf(sources) {
  const times = await Promise.all(
    sources.map((file) =>
      stat(file).then(
        (s) => s.mtimeMs,
        () => -1,
      ),
    ),
  );
  return times.join(',');
}

const built = new Map();

/** A page's files, built once per process and again when one of its sources changes. */
async function pageFiles(root, page) {
  const key = `${root}\0${page}`;
  const cached = built.get(key);
  if (cached) {
    const previous = await cached;
    if ((await stampOf(previous.sources)) === previous.stamp) return previous;
  }
  const building = buildPage(root, page).then(async (result) => ({ ...result, stamp: await stampOf(result.sources) }));
  built.set(key, building);
  building.catch(() => built.delete(key));
  return building;
}

/**
 * The module `surco-pages:<page>` is outside esbuild (vitest, which imports handler modules to read
 * their routes): the page's files written to .surco/pages/<page>/ and listed with their file: URLs.
 */
async function writtenPageModule(root, page) {
  const { files } = await pageFiles(root, page);
  const dir = join(root, '.surco', 'pages', page);
  await mkdir(dir, { recursive: true });
  const list = [];
  for (const file of files) {
    const path = join(dir, file.name);
    await writeFile(path, file.contents);
    list.push({ name: file.name, type: file.type, url: pathToFileURL(path).href });
  }
  return `export default ${JSON.stringify(list)};\n`;
}

module.exports = { PAGES, buildPage, pageFiles, typeOf, writtenPageModule };
