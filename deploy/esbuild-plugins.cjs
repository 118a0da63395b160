// esbuild plugins of every function's build (deploy/esbuild.yml `plugins`; the local stack runs the
// same build). CommonJS because the packaging's build (deploy/build.cjs, run inside osls) require()s it.
//
// pure-schemas: an area's wire schemas live in one module (schemas/<area>.ts) that every function
// of the area imports for its own route. esbuild cannot drop the schemas a function does not use:
// `export const X = z.object({...}).strict()` is a call, and calls may have side effects, so every
// route's schemas were built at every cold start (zod's constructors were the largest part of a
// small function's import after the SDK: docs/benchmarks.md, cold starts). Schema modules only
// build values, so this plugin marks each top-level `const` initializer of schemas/*.ts as pure:
// `const X = /* @__PURE__ */ (() => (<initializer>))();`. The value is built exactly as before, at
// the same point of the module's evaluation; an unused one is now dropped from the bundle. Nothing
// else is rewritten (functions, classes, statements), but documentation (docs/openapi.json, built
// from the sources by scripts/openapi.ts), which no function reads: a route's `responses` (each
// `defineRoute({...})` of a schema module is bundled with `responses: {}`, and a response schema no
// request uses is not built at a cold start), and the `z.describe(...)` and `z.meta(...)` checks.
// Handler modules (functions/**/*.ts) are marked the same way: one serves several routes
// (`export const list = endpoint(...)`, `export const post = endpoint(...)`), and each deployed
// function is bundled from an entry that re-exports its one handler (.surco/handlers/<function>.ts,
// scripts/serverless/surco-plugin.cjs): the other endpoints, their middleware chains and their
// schemas leave its bundle. Both kinds of module only declare at their top level (tested). ADR
// 0008; tests/unit/pure-schemas.test.ts.
const { readFile, rm } = require('node:fs/promises');
const { relative, resolve, sep } = require('node:path');

/** The rewritten source of a schema module, given its text (exported for tests). */
function markSchemasPure(source, fileName) {
  const ts = require('typescript');
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      // values that build nothing stay as they are
      if (
        !init ||
        ts.isArrowFunction(init) ||
        ts.isFunctionExpression(init) ||
        ts.isLiteralExpression(init) ||
        ts.isIdentifier(init)
      )
        continue;
      edits.push({ at: init.getStart(file), text: '/* @__PURE__ */ (() => (' }, { at: init.getEnd(), text: '))()' });
    }
  }
  // a route's `responses` document it (lib/http/openapi.ts); no function reads them: in a schema
  // module, each defineRoute({...}) is bundled with `responses: {}`, and the schemas only they use
  // are dropped like any unused value
  // z.describe(...) and z.meta(...) are documentation too (the OpenAPI document reads them from
  // the registry they add the schema to; no parse does): each is left out of its `.check(...)`,
  // and a check of nothing but documentation with it (`x.check(z.describe('...'))` is `x`)
  const isDocumentation = (node) =>
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ts.isIdentifier(node.expression.expression) &&
    node.expression.expression.text === 'z' &&
    ['describe', 'meta'].includes(node.expression.name.text);
  // what an edit replaces as a whole is not visited (no edit inside another)
  const replaced = new Set();
  const visit = (node) => {
    if (replaced.has(node)) return;
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'check'
    ) {
      const args = node.arguments;
      if (args.length > 0 && args.every(isDocumentation)) {
        edits.push({ at: node.expression.expression.getEnd(), text: '', end: node.getEnd() });
        ts.forEachChild(node.expression.expression, visit);
        return;
      }
      // each argument with the comma before it; those before the first kept, up to it
      const firstKept = args.findIndex((arg) => !isDocumentation(arg));
      if (firstKept > 0) edits.push({ at: args[0].getStart(file), text: '', end: args[firstKept].getStart(file) });
      args.forEach((arg, i) => {
        if (i > firstKept && isDocumentation(arg))
          edits.push({ at: args[i - 1].getEnd(), text: '', end: arg.getEnd() });
      });
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineRoute') {
      const arg = node.arguments[0];
      if (arg && ts.isObjectLiteralExpression(arg)) {
        for (const property of arg.properties) {
          if (
            ts.isPropertyAssignment(property) &&
            ts.isIdentifier(property.name) &&
            property.name.text === 'responses'
          ) {
            edits.push({ at: property.initializer.getStart(file), text: '{}', end: property.initializer.getEnd() });
            replaced.add(property.initializer);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  if (/(^|[\\/])schemas[\\/]/.test(fileName)) visit(file);
  let out = source;
  let after = Infinity; // where the edit applied before this one (the next in the text) starts
  for (const edit of edits.sort((a, b) => b.at - a.at)) {
    if ((edit.end ?? edit.at) > after)
      throw new Error(`pure-schemas: overlapping rewrites in ${fileName} at ${edit.at}`);
    out = out.slice(0, edit.at) + edit.text + out.slice(edit.end ?? edit.at);
    after = edit.at;
  }
  return out;
}

/**
 * The rewrites made in this process, by file, with the text they were made from: a packaging
 * builds 143 functions, each loading the same modules (esbuild calls onLoad again at every build and
 * rebuild), and parsing a module with TypeScript each time was most of the packaging's own CPU.
 */
const rewritten = new Map();

const pureSchemas = {
  name: 'pure-schemas',
  setup(build) {
    // schemas/<area>.ts and functions/<area>/<module>.ts
    build.onLoad({ filter: /[\\/](schemas[\\/][^\\/]+|functions[\\/].+)\.ts$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      let done = rewritten.get(args.path);
      if (done?.source !== source)
        rewritten.set(args.path, (done = { source, contents: markSchemasPure(source, args.path) }));
      return { contents: done.contents, loader: 'ts' };
    });
  },
};

// json-parse: a JSON file of ours is bundled as `JSON.parse('<its text>')` instead of esbuild's
// object literal: V8 scans a string and parses JSON far faster than it compiles a literal of the
// same size (lib/fields/country-borders.json: its areas' rings are strings, decoded when needed). The
// value is the same; only a default import is offered (no `import { areas } from '...json'`),
// marked pure so that a bundle that imports the module without using the value leaves it out.
// Files of packages keep esbuild's loader.
// `import text from './x.json?text'` is the file's JSON as compact text, a string and nothing
// parsed: what serves a document as it is (GET /openapi.json, 439 KB: JSON.parse of it took ~6 ms
// of the function's cold start and the answer was serialised again at every request).
// jsonTextModule is the one definition of that module (vitest.config.ts gives tests the same).
/** A JSON file's value as compact text (what both kinds of module hold). */
const compactJson = async (file) => JSON.stringify(JSON.parse(await readFile(file, 'utf8')));

/** The module `<file>.json?text` is: the file's JSON, compact, as its default export. */
async function jsonTextModule(file) {
  return `export default ${JSON.stringify(await compactJson(file))};`;
}

const TEXT = /\.json\?text$/;
const jsonParse = {
  name: 'json-parse',
  setup(build) {
    build.onResolve({ filter: TEXT }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/\?text$/, '')),
      namespace: 'json-text',
    }));
    build.onLoad({ filter: /.*/, namespace: 'json-text' }, async (args) => ({
      contents: await jsonTextModule(args.path),
      loader: 'js',
    }));
    build.onLoad({ filter: /\.json$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      return {
        contents: `export default /* @__PURE__ */ JSON.parse(${JSON.stringify(await compactJson(args.path))});`,
        loader: 'js',
      };
    });
  },
};

/**
 * A plugin that resolves one import (`specifier`) of the package modules whose path matches
 * `importer` to a module of its own (`contents`); every other import of it is left alone. The
 * package's code is unchanged: only what that one import binds to.
 */
function substituteImport(name, specifier, importer, contents) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: specifier }, (args) =>
        importer.test(args.importer) ? { path: name, namespace: name } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: name }, () => ({ contents, loader: 'js' }));
    },
  };
}

// lazy-web-streams: @middy/core imports node:stream/web at load for one check it makes only when a
// streamed response's body is not a Node stream (`body instanceof ReadableStream`); loading Node's
// web streams took ~1.2 ms of every function's cold start, the streaming ones included (their
// bodies are Node streams). In middy's imports only, node:stream/web resolves to a module whose
// ReadableStream answers that check with the global ReadableStream, the same class, which Node
// loads when it is first used. ADR 0008; tests/unit/pure-schemas.test.ts.
const LAZY_WEB_STREAMS = `export const ReadableStream = { [Symbol.hasInstance]: (value) => value instanceof globalThis.ReadableStream };\n`;
const lazyWebStreams = substituteImport(
  'lazy-web-streams',
  /^node:stream\/web$/,
  /[\\/]node_modules[\\/]@middy[\\/]core[\\/]/,
  LAZY_WEB_STREAMS,
);

// png-zlib: fast-png compresses an image's rows with fflate's zlibSync, and fflate builds its
// Huffman tables (inflate's and deflate's) when it is imported: ~7 ms of the cold start of every
// function that renders PNG (0.87 of rendering's import, docs/benchmarks.md). In fast-png's encoder
// only, `fflate` resolves to a zlibSync on Node's own zlib: the same zlib stream (RFC 1950) at the
// level fast-png asks (3), fflate's default (6) otherwise. The PNG's pixels are the same; its
// compressed bytes may differ. ADR 0008; tests/unit/pure-schemas.test.ts.
const PNG_ZLIB = `import { deflateSync } from 'node:zlib';\nexport const zlibSync = (data, options = {}) => new Uint8Array(deflateSync(data, { level: options.level ?? 6 }));\n`;
const pngZlib = substituteImport(
  'png-zlib',
  /^fflate$/,
  /[\\/]node_modules[\\/]fast-png[\\/]lib[\\/]png_encoder\.js$/,
  PNG_ZLIB,
);

// prune-chunks: with code splitting (deploy/esbuild.yml), esbuild writes a chunk for every module
// the bundle's graph imports with import(), even where tree shaking removed the import() itself
// (a spot-tags function reaches lib/geo/geometry.ts for its error class, never geometryKit()): the
// zip would ship the geometry kit that no code of the function can load. After the build, this
// removes every output (and its map) that no entry point reaches through static or dynamic
// imports. ADR 0008; tests/infrastructure.test.ts checks that every packaged chunk is reachable.
//
// Such a dead import() also shapes the chunks the function does load: esbuild places a module by
// the entry points whose import graph reaches it, not by the code it keeps, so a module both the
// function and the dead chunk reach lands in a shared chunk the function imports at load, with the
// code only the dead chunk would have used (a key-value storage function reaches lib/aws/s3.ts,
// never s3Kit(): it carried the S3 client's XML protocol code, +34 KB). So a single-entry build
// (a deployed function) that had dead chunks is built once more with those import()s cut (each
// resolves to an empty module, which tree shaking drops with the dead call), and that build's
// outputs are the function's, when a module its dead chunks import is also in what it loads. The
// local one-pass build of every handler only prunes.
/**
 * The outputs of a metafile that none of the build's own entry points (`entries`, paths relative
 * to the working directory) reaches through static or dynamic imports. esbuild marks every chunk
 * of an import() as an entry point of its own, so only the build's entries are roots.
 */
function unreachableOutputs(metafile, entries) {
  const outputs = metafile.outputs;
  const roots = new Set(entries.map((entry) => entry.split(sep).join('/')));
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file) || !outputs[file]) return;
    reached.add(file);
    for (const imported of outputs[file].imports || []) if (!imported.external) visit(imported.path);
  };
  for (const [file, output] of Object.entries(outputs))
    if (output.entryPoint && roots.has(output.entryPoint)) visit(file);
  return Object.keys(outputs).filter((file) => !reached.has(file) && file.endsWith('.mjs'));
}

/** The input paths of esbuild's `entryPoints` (an array of paths or of {in, out}, or an object), relative to `cwd`. */
function entryInputs(entryPoints, cwd) {
  const list = Array.isArray(entryPoints)
    ? entryPoints.map((entry) => (typeof entry === 'string' ? entry : entry.in))
    : Object.values(entryPoints || {});
  return list.map((entry) => relative(cwd, resolve(cwd, entry)));
}

/**
 * Whether a module the dead chunks (from `deadInputs`) import is also in an output the function
 * loads: only then can they have changed what it loads (the SDK's dead import of bowser, a module
 * that imports nothing, cannot).
 */
function sharesModules(metafile, deadInputs, unreachable) {
  const reachedFromDead = new Set();
  const pending = [...deadInputs];
  while (pending.length) {
    const input = pending.pop();
    if (reachedFromDead.has(input)) continue;
    reachedFromDead.add(input);
    for (const imported of metafile.inputs[input]?.imports || []) if (!imported.external) pending.push(imported.path);
  }
  const deadOutputs = new Set(unreachable);
  return Object.entries(metafile.outputs).some(
    ([file, output]) =>
      !deadOutputs.has(file) && Object.keys(output.inputs).some((input) => reachedFromDead.has(input)),
  );
}

/**
 * What prune-chunks makes of a build of `entries` (paths relative to `cwd`): the outputs none of
 * them reaches (`unreachable`), and `cut`, the files whose import()s a single-entry build is built
 * again without (absolute paths), or null when its dead chunks changed nothing it loads.
 */
function chunkPlan(metafile, entries, cwd) {
  const unreachable = unreachableOutputs(metafile, entries);
  const deadInputs = unreachable.map((file) => metafile.outputs[file].entryPoint).filter(Boolean);
  const cut =
    entries.length === 1 && sharesModules(metafile, deadInputs, unreachable)
      ? new Set(deadInputs.map((input) => resolve(cwd, input)))
      : null;
  return { unreachable, cut };
}

const CUT = 'surco-cut-import';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The import specifiers that may name one of `dead` (absolute paths): a relative one ending in the
 * file's name (`./wkt`, `../util/delimited.ts`), or a package's name (`@fastify/busboy`). Only they
 * reach the plugin's callback: a filter that took every import cost a call into JavaScript per
 * import of the rebuild (most of a packaging's time).
 */
function deadSpecifiers(dead) {
  const names = new Set();
  for (const file of dead) {
    const parts = file.split(/[\\/]/);
    const pkg = parts.lastIndexOf('node_modules');
    if (pkg >= 0) names.add(parts[pkg + 1].startsWith('@') ? `${parts[pkg + 1]}/${parts[pkg + 2]}` : parts[pkg + 1]);
    const base = parts[parts.length - 1].replace(/\.[cm]?[jt]s$/, '');
    names.add(base);
    // `./kit` may name `./kit/index.ts`
    if (base === 'index') names.add(parts[parts.length - 2]);
  }
  return new RegExp(`(^|[\\\\/])(${[...names].map(escapeRegExp).join('|')})(\\.[cm]?[jt]s)?$`);
}

/**
 * Resolves every import() of one of `dead` (absolute paths) to an empty module. `dead` may be a
 * function answering the set of the build at hand (a context rebuilt for one function after
 * another, deploy/build.cjs); `specifiers` is then every file any of those sets may hold.
 */
function cutImports(dead, specifiers = dead) {
  const deadNow = typeof dead === 'function' ? dead : () => dead;
  return {
    name: 'cut-dead-imports',
    setup(build) {
      build.onResolve({ filter: deadSpecifiers(specifiers) }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === CUT) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: CUT,
        });
        return resolved.errors.length === 0 && deadNow().has(resolved.path)
          ? { path: resolved.path, namespace: CUT }
          : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: CUT }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  };
}

/** prune-chunks; `rebuild`: build a single entry again without its dead imports (see above). */
function pruneChunksPlugin(rebuild) {
  const plugin = {
    name: 'prune-chunks',
    setup(build) {
      if (!build.initialOptions.splitting) return;
      build.initialOptions.metafile = true;
      const cwd = build.initialOptions.absWorkingDir || process.cwd();
      const remove = async (files) => {
        for (const file of files) {
          await rm(resolve(cwd, file), { force: true });
          await rm(resolve(cwd, `${file}.map`), { force: true });
        }
      };
      build.onEnd(async (result) => {
        if (!result.metafile || build.initialOptions.write === false) return;
        const entries = entryInputs(build.initialOptions.entryPoints, cwd);
        const { unreachable, cut } = chunkPlan(result.metafile, entries, cwd);
        // chunkPlan cuts only a single-entry build (a deployed function's)
        if (!rebuild || !cut) return remove(unreachable);
        await remove(Object.keys(result.metafile.outputs));
        const plugins = [
          cutImports(cut),
          ...(build.initialOptions.plugins || []).map((other) => (other === plugin ? pruneChunksPlugin(false) : other)),
        ];
        // the files written are the second build's; the result esbuild returns keeps the first's metafile
        await build.esbuild.build({ ...build.initialOptions, plugins });
      });
    },
  };
  return plugin;
}

// pages: `import files from 'surco-pages:<page>'` (functions/system/docs.ts, console.ts) is the list
// of a web page's files, built by esbuild from console/ (deploy/pages.cjs): each file is emitted
// beside the function's bundle by esbuild's `file` loader (its zip takes the function's directory,
// deploy/build.cjs), and the list gives its name, type and file: URL. The bundle
// holds no page content. The page's sources are watched (SURCO_WATCH=1 npm start rebuilds them).
const PAGE = 'surco-pages:';
const PAGE_FILE = 'surco-page-file:';
const pages = {
  name: 'pages',
  setup(build) {
    const { pageFiles } = require('./pages.cjs');
    const root = build.initialOptions.absWorkingDir || process.cwd();
    build.onResolve({ filter: /^surco-pages:/ }, (args) => ({
      path: args.path.slice(PAGE.length),
      namespace: 'pages',
    }));
    build.onLoad({ filter: /.*/, namespace: 'pages' }, async (args) => {
      const { files, sources } = await pageFiles(root, args.path);
      // beside the function's code, a page's file must not pass for it (.mjs: the bundle budgets,
      // the chunk checks) nor lack an extension (served as what?): deploy/pages.cjs names them so
      const misnamed = files.filter((file) => !/\.[a-z0-9]+$/i.test(file.name) || /\.mjs$|\.map$/.test(file.name));
      if (misnamed.length) {
        return {
          errors: [
            {
              text: `pages: ${args.path} has files named like code or without an extension: ${misnamed.map((f) => f.name).join(', ')}`,
            },
          ],
        };
      }
      const imports = files.map(
        (file, i) => `import f${i} from ${JSON.stringify(`${PAGE_FILE}${args.path}/${file.name}`)};`,
      );
      const list = files.map(
        (file, i) =>
          `{ name: ${JSON.stringify(file.name)}, type: ${JSON.stringify(file.type)}, url: new URL(f${i}, import.meta.url).href }`,
      );
      return {
        contents: `${imports.join('\n')}\nexport default [${list.join(', ')}];\n`,
        loader: 'js',
        watchFiles: sources,
      };
    });
    build.onResolve({ filter: /^surco-page-file:/ }, (args) => ({
      path: args.path.slice(PAGE_FILE.length),
      namespace: 'page-file',
    }));
    build.onLoad({ filter: /.*/, namespace: 'page-file' }, async (args) => {
      const [page, ...name] = args.path.split('/');
      const file = (await pageFiles(root, page)).files.find((f) => f.name === name.join('/'));
      if (!file) return { errors: [{ text: `pages: ${args.path} was not built` }] };
      return { contents: file.contents, loader: 'file' };
    });
  },
};

const pruneChunks = pruneChunksPlugin(true);

module.exports = [pureSchemas, jsonParse, lazyWebStreams, pngZlib, pages, pruneChunks];
module.exports.LAZY_WEB_STREAMS = LAZY_WEB_STREAMS;
module.exports.PNG_ZLIB = PNG_ZLIB;
module.exports.unreachableOutputs = unreachableOutputs;
/** prune-chunks without the second build (for tests: what dead imports do to a function's chunks). */
module.exports.pruneOnly = pruneChunksPlugin(false);
module.exports.entryInputs = entryInputs;
module.exports.chunkPlan = chunkPlan;
module.exports.cutImports = cutImports;
module.exports.markSchemasPure = markSchemasPure;
module.exports.jsonTextModule = jsonTextModule;
