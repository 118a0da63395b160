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
const { readFile } = require('node:fs/promises');
const { sep } = require('node:path');

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

module.exports = [pureSchemas];
module.exports.markSchemasPure = markSchemasPure;
