// esbuild plugins of every function's build (deploy/esbuild.yml `plugins`; the local stack runs the
// same build). CommonJS because serverless-esbuild require()s this file.
//
// pure-schemas: an area's wire schemas live in one module (schemas/<area>.ts) that every function
// of the area imports for its own route. esbuild cannot drop the schemas a function does not use:
// `export const X = z.object({...}).strict()` is a call, and calls may have side effects, so every
// route's schemas were built at every cold start (zod's constructors were the largest part of a
// small function's import after the SDK: docs/benchmarks.md, cold starts). Schema modules only
// build values, so this plugin marks each top-level `const` initializer of schemas/*.ts as pure:
// `const X = /* @__PURE__ */ (() => (<initializer>))();`. The value is built exactly as before, at
// the same point of the module's evaluation; an unused one is now dropped from the bundle. Nothing
// else is rewritten (functions, classes, statements).
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
      if (!init || ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isLiteralExpression(init) || ts.isIdentifier(init)) continue;
      edits.push({ at: init.getStart(file), text: '/* @__PURE__ */ (() => (' }, { at: init.getEnd(), text: '))()' });
    }
  }
  let out = source;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, edit.at) + edit.text + out.slice(edit.at);
  return out;
}

const pureSchemas = {
  name: 'pure-schemas',
  setup(build) {
    // schemas/<area>.ts and functions/<area>/<module>.ts
    build.onLoad({ filter: /[\\/](schemas[\\/][^\\/]+|functions[\\/].+)\.ts$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      return { contents: markSchemasPure(await readFile(args.path, 'utf8'), args.path), loader: 'ts' };
    });
  },
};

// json-parse: a JSON file of ours (docs/openapi.json, which GET /openapi.json serves as it is) is
// bundled as `JSON.parse('<its text>')` instead of esbuild's object literal: V8 scans a string and
// parses JSON far faster than it compiles a literal of the same size (the 439 KB document: the
// function imported in 1.51x the floor as a literal, docs/benchmarks.md; lib/fields/country-borders.json,
// whose geometries are strings parsed when needed). The value is the same; only a default import is
// offered (no `import { paths } from '...json'`), marked pure so that a bundle that imports the
// module without using the value leaves it out. Files of packages keep esbuild's loader.
const jsonParse = {
  name: 'json-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = JSON.stringify(JSON.parse(await readFile(args.path, 'utf8')));
      return { contents: `export default /* @__PURE__ */ JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
  },
};

// prune-chunks: with code splitting (deploy/esbuild.yml), esbuild writes a chunk for every module
// the bundle's graph imports with import(), even where tree shaking removed the import() itself
// (a spot-tags function reaches lib/geo/geometry.ts for its error class, never geometryKit()): the
// zip would ship the geometry kit that no code of the function can load. After the build, this
// removes every output (and its map) that no entry point reaches through static or dynamic
// imports. ADR 0008; tests/infrastructure.test.ts checks that every packaged chunk is reachable.
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
  for (const [file, output] of Object.entries(outputs)) if (output.entryPoint && roots.has(output.entryPoint)) visit(file);
  return Object.keys(outputs).filter((file) => !reached.has(file) && file.endsWith('.mjs'));
}

/** The input paths of esbuild's `entryPoints` (an array of paths or of {in, out}, or an object), relative to `cwd`. */
function entryInputs(entryPoints, cwd) {
  const list = Array.isArray(entryPoints) ? entryPoints.map((entry) => (typeof entry === 'string' ? entry : entry.in)) : Object.values(entryPoints || {});
  return list.map((entry) => relative(cwd, resolve(cwd, entry)));
}

const pruneChunks = {
  name: 'prune-chunks',
  setup(build) {
    if (!build.initialOptions.splitting) return;
    build.initialOptions.metafile = true;
    const cwd = build.initialOptions.absWorkingDir || process.cwd();
    build.onEnd(async (result) => {
      if (!result.metafile || build.initialOptions.write === false) return;
      for (const file of unreachableOutputs(result.metafile, entryInputs(build.initialOptions.entryPoints, cwd))) {
        await rm(resolve(cwd, file), { force: true });
        await rm(resolve(cwd, `${file}.map`), { force: true });
      }
    });
  },
};

module.exports = [pureSchemas, jsonParse, pruneChunks];
module.exports.unreachableOutputs = unreachableOutputs;
module.exports.entryInputs = entryInputs;
module.exports.markSchemasPure = markSchemasPure;
