// deploy/esbuild-plugins.cjs (pure-schemas): the top-level values of schemas/*.ts and of the handler
// modules (functions/**/*.ts) are marked pure, so a function's bundle keeps the wire schemas and the
// endpoint it uses and drops the rest of its area's; the values it keeps are built as before.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import ExcelJS from 'exceljs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deployBuildOptions } from '../../scripts/esbuild-options';

const root = join(import.meta.dirname, '..', '..');
const plugins = createRequire(import.meta.url)(join(root, 'deploy', 'esbuild-plugins.cjs')) as Plugin[] & {
  markSchemasPure: (source: string, fileName: string) => string;
  unreachableOutputs: (metafile: Metafile, entries: string[]) => string[];
  entryInputs: (entryPoints: string[], cwd: string) => string[];
  pruneOnly: Plugin;
  LAZY_WEB_STREAMS: string;
  PNG_ZLIB: string;
};

/** Runs `test` in a new directory under .surco/ (builds there resolve the repository's packages), removed afterwards. */
async function inBuildDir(prefix: string, test: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(root, '.surco', prefix));
  try {
    await test(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The code a function's directory loads at import: its module and the chunks it imports statically. */
function loadedAtImport(dir: string, file = 'index.mjs', seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const text = readFileSync(join(dir, file), 'utf8');
  const imported = [
    ...text.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[^"'();]*?from\s*)?["']\.\/([^"']+)["']/g),
  ].map((match) => match[1]!);
  return [text, ...imported.map((chunk) => loadedAtImport(dir, chunk, seen))].join('\n');
}

/** The file of the one chunk named `<kit>-<hash>.mjs` in a build directory (a kit loaded on first use). */
function kitChunk(dir: string, kit: string): string {
  const found = readdirSync(dir).filter((file) => new RegExp(`^${kit}-\\w+\\.mjs$`).test(file));
  expect(found, `${dir}: ${kit}`).toHaveLength(1);
  return found[0]!;
}

/**
 * `<dir>/<name>.ts` re-exporting one handler as `handler`, as the serverless plugin writes a
 * function's entry (.surco/handlers/<function>/index.ts); `handler` is a route's notation,
 * `functions/spots/sheet.get`. Its path.
 */
function handlerEntry(dir: string, name: string, handler: string): string {
  const entry = join(dir, `${name}.ts`);
  const dot = handler.lastIndexOf('.');
  writeFileSync(
    entry,
    `export { ${handler.slice(dot + 1)} as handler } from '${join(root, handler.slice(0, dot))}';\n`,
  );
  return entry;
}

/** Builds `entry` as deployed (deploy/esbuild.yml) into `outdir`, with `options` over those. */
const buildDeployed = (entry: string, outdir: string, options: BuildOptions = {}) =>
  build({ ...deployBuildOptions(), entryPoints: [entry], outdir, ...options });

/** The code of a function built from `entry` as deployed: its module and every chunk beside it. */
async function bundle(entry: string, withPlugins: boolean): Promise<string> {
  const options = deployBuildOptions();
  const outdir = join(tmpdir(), 'surco-pure');
  const out = await build({
    ...options,
    entryPoints: [entry],
    write: false,
    sourcemap: false,
    metafile: true,
    plugins: withPlugins ? options.plugins : [],
    outdir,
  });
  // what prune-chunks leaves when the build writes: the outputs an entry point reaches
  const pruned = new Set(
    plugins.unreachableOutputs(out.metafile, plugins.entryInputs([entry], root)).map((file) => join(root, file)),
  );
  return out.outputFiles
    .filter((file) => file.path.endsWith('.mjs') && !pruned.has(file.path))
    .map((file) => file.text)
    .join('\n');
}

describe('pure-schemas (deploy/esbuild-plugins.cjs)', () => {
  it('is the plugin deploy/esbuild.yml loads', () => {
    const esbuild = parse(readFileSync(join(root, 'deploy', 'esbuild.yml'), 'utf8')) as { plugins: string };
    expect(esbuild.plugins).toBe('./deploy/esbuild-plugins.cjs');
    expect(plugins.map((plugin) => plugin.name)).toEqual([
      'pure-schemas',
      'json-parse',
      'lazy-web-streams',
      'png-zlib',
      'pages',
      'prune-chunks',
    ]);
  });

  it('bundles a JSON file of ours as JSON.parse of its text, with the same value, and `<file>.json?text` as its compact text, which nothing parses (json-parse)', async () => {
    await inBuildDir('json-parse-', async (dir) => {
      const value = {
        openapi: '3.1.0',
        quotes: `it's "quoted" \\ and \`ticked\` \${not} a template`,
        list: [1, 2.5, null, true, { deep: 'é' }],
      };
      writeFileSync(join(dir, 'document.json'), JSON.stringify(value, null, 2));
      writeFileSync(
        join(dir, 'entry.ts'),
        "import document from './document.json';\nimport text from './document.json?text';\nexport const handler = () => [document, text];\n",
      );
      await build({ ...deployBuildOptions(), entryPoints: [join(dir, 'entry.ts')], outdir: dir, sourcemap: false });
      const bundled = readFileSync(join(dir, 'entry.mjs'), 'utf8');
      expect(bundled.split('JSON.parse(')).toHaveLength(2); // the value's; the text is a string literal
      expect(bundled).not.toMatch(/openapi:"3\.1\.0"/); // no object literal
      const module = (await import(pathToFileURL(join(dir, 'entry.mjs')).href)) as { handler: () => unknown };
      expect(module.handler()).toEqual([value, JSON.stringify(value)]);
    });
  });

  it('gives tests the same `?text` module (vitest.config.ts): the OpenAPI document GET /openapi.json serves', async () => {
    const { default: text } = await import('../../docs/openapi.json?text');
    expect(text).toBe(JSON.stringify(JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8'))));
  });

  it('wraps each top-level value that builds something, and nothing else', () => {
    const source = [
      "import * as z from 'zod/mini';",
      "const area = { tags: ['x'] } as const;",
      'export const A = z.strictObject({ a: z.string() });',
      'export const limit = 10;',
      'export const alias = A;',
      'export const toWire = (value: number) => value * 2;',
      'export function helper() { return z.string(); }',
      'A.parse({ a: "x" });',
      '',
    ].join('\n');
    const out = plugins.markSchemasPure(source, 'schemas/sample.ts');
    expect(out).toContain("const area = /* @__PURE__ */ (() => ({ tags: ['x'] } as const))();");
    expect(out).toContain('export const A = /* @__PURE__ */ (() => (z.strictObject({ a: z.string() })))();');
    expect(out).toContain('export const limit = 10;');
    expect(out).toContain('export const alias = A;');
    expect(out).toContain('export const toWire = (value: number) => value * 2;');
    expect(out).toContain('export function helper() { return z.string(); }');
    expect(out).toContain('A.parse({ a: "x" });');
  });

  it('bundles each route of a schema module without its responses (documentation no function reads), and nothing else without', () => {
    const source = [
      "import * as z from 'zod/mini';",
      'export const Page = z.object({ data: z.array(z.string()) });',
      "export const listRoute = defineRoute({ operationId: 'list', request: { query: z.object({ page: z.number() }) }, responses: { 200: { description: 'a page', schema: Page } } });",
      "export const other = { responses: { 200: 'kept' } };",
      '',
    ].join('\n');
    const out = plugins.markSchemasPure(source, 'schemas/sample.ts');
    expect(out).toContain(
      "defineRoute({ operationId: 'list', request: { query: z.object({ page: z.number() }) }, responses: {} })",
    );
    expect(out).toContain("{ responses: { 200: 'kept' } }");
    expect(out).toContain('export const Page = /* @__PURE__ */');
    // a handler module's routes are not rewritten (only schema modules declare routes)
    expect(plugins.markSchemasPure(source, 'functions/sample/list.ts')).toContain(
      "responses: { 200: { description: 'a page', schema: Page } }",
    );
  });

  it('bundles the checks of a schema module without z.describe and z.meta (documentation no parse reads), and a check of nothing else without the check', () => {
    const source = [
      "import * as z from 'zod/mini';",
      "export const A = z.number().check(z.int(), z.gte(1), z.describe('one or more'));",
      "export const B = z.optional(z.string()).check(z.describe('only documentation'));",
      "export const C = z.string().check(z.describe('a'), z.meta({ m: 1 }), z.minLength(2), z.meta({ n: 2 }), z.maxLength(3));",
      "export const D = z.object({ a: z.string().check(z.describe('inner')) }).check(z.refine((v) => Boolean(v), 'kept'));",
      'export const text = (max: number) =>',
      '  z.string().check(',
      "    z.refine((v) => v.length <= max, 'at most'),",
      '    z.meta({ maxLength: max }),',
      '  );',
      '',
    ].join('\n');
    const out = plugins.markSchemasPure(source, 'schemas/sample.ts');
    expect(out).not.toMatch(/describe|meta/);
    expect(out).toContain('(z.number().check(z.int(), z.gte(1)))');
    expect(out).toContain('(z.optional(z.string()))');
    expect(out).toContain('(z.string().check(z.minLength(2), z.maxLength(3)))');
    expect(out).toContain("(z.object({ a: z.string() }).check(z.refine((v) => Boolean(v), 'kept')))");
    expect(out).toContain("z.string().check(\n    z.refine((v) => v.length <= max, 'at most'),\n  );");
    // what is left is valid TypeScript
    const parsed = ts.transpileModule(out, {
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext },
    });
    expect(parsed.diagnostics).toEqual([]);
    // a handler module's checks are not rewritten
    expect(plugins.markSchemasPure(source, 'functions/sample/list.ts')).toContain("z.describe('one or more')");
    // a route's responses go as a whole, described schemas and all
    const route =
      "export const r = defineRoute({ request: { query: z.object({ a: z.string().check(z.describe('q')) }) }, responses: { 200: { schema: z.object({ b: z.string().check(z.describe('r')) }) } } });\n";
    expect(plugins.markSchemasPure(route, 'schemas/sample.ts')).toBe(
      'export const r = /* @__PURE__ */ (() => (defineRoute({ request: { query: z.object({ a: z.string() }) }, responses: {} })))();\n',
    );
  });

  it('rewrites every schema module of ours into valid TypeScript without documentation checks', () => {
    for (const name of readdirSync(join(root, 'schemas')).filter((file) => file.endsWith('.ts'))) {
      const out = plugins.markSchemasPure(readFileSync(join(root, 'schemas', name), 'utf8'), `schemas/${name}`);
      const parsed = ts.transpileModule(out, { reportDiagnostics: true, fileName: name });
      expect(parsed.diagnostics, name).toEqual([]);
      expect(out, name).not.toMatch(/\bz\.(describe|meta)\(/);
    }
  });

  it("leaves a route's response schemas out of its function: listing labours builds no wire labour", async () => {
    await inBuildDir('pure-responses-', async (dir) => {
      const entry = handlerEntry(dir, 'listLabours', 'functions/labours/labours.list');
      const responseOnly = ['one page of labours', 'dose x surface for a dose per hectare, else the dose'];
      const plain = await bundle(entry, false);
      for (const text of responseOnly) expect(plain).toContain(text);
      const own = await bundle(entry, true);
      for (const text of responseOnly) expect(own).not.toContain(text);
      expect(own).toContain('"listLabours"');
      expect(own).toContain('expected ids'); // its request schemas stay, without their descriptions
      expect(plain).toContain('comma-separated crop ids');
      expect(own).not.toContain('comma-separated crop ids');
    });
  });

  it('drops the schemas a bundle does not use and builds the ones it does exactly as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'surco-pure-'));
    mkdirSync(join(dir, 'schemas'));
    writeFileSync(
      join(dir, 'schemas', 'sample.ts'),
      [
        "import * as z from 'zod/mini';",
        "export const Used = z.strictObject({ name: z.string().check(z.minLength(2, 'used-schema-message')) });",
        "export const Unused = z.object({ other: z.string().check(z.minLength(3, 'unused-schema-message')) });",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'handler.ts'),
      "import { Used } from './schemas/sample';\nexport const check = (value: unknown) => Used.safeParse(value);\n",
    );
    const plain = await bundle(join(dir, 'handler.ts'), false);
    const pure = await bundle(join(dir, 'handler.ts'), true);
    expect(plain).toContain('unused-schema-message');
    expect(pure).not.toContain('unused-schema-message');
    expect(pure).toContain('used-schema-message');
    const file = join(dir, 'pure.mjs');
    writeFileSync(file, pure);
    const { check } = (await import(pathToFileURL(file).href)) as {
      check: (value: unknown) => { success: boolean; error?: { issues: Array<{ message: string }> } };
    };
    expect(check({ name: 'ok' }).success).toBe(true);
    expect(check({ name: 'x' }).error?.issues[0]?.message).toBe('used-schema-message');
    expect(check({ name: 'ok', extra: 1 }).success).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps another route of the area out of a function: spot tags carry no spot creation', async () => {
    const createSummary = 'Create a spot (Management zones functionality)';
    const tagsEntry = join(root, 'functions', 'spots', 'tags.ts');
    expect(await bundle(tagsEntry, false)).toContain(createSummary);
    expect(await bundle(tagsEntry, true)).not.toContain(createSummary);
  });

  it('keeps the sibling routes of a handler module out of a function bundled from its own entry', async () => {
    await inBuildDir('pure-entry-', async (dir) => {
      // what scripts/serverless/surco-plugin.cjs generates for listLabours (.surco/handlers/<function>.ts)
      const entry = handlerEntry(dir, 'listLabours', 'functions/labours/labours.list');
      const createSummary = 'Record one labour in a field the caller can change';
      const whole = await bundle(join(root, 'functions', 'labours', 'labours.ts'), true);
      expect(whole).toContain('"createLabour"');
      const own = await bundle(entry, true);
      expect(own).toContain('"listLabours"');
      for (const sibling of ['createLabour', 'getLabour', 'patchLabour', 'deleteLabour'])
        expect(own).not.toContain(`"${sibling}"`);
      expect(own).not.toContain(createSummary);
      expect(await bundle(entry, false)).toContain('"createLabour"');
    });
  });

  it('evaluates the geometry kit on first use, not when a function is loaded (lib/geo/geometry.ts)', async () => {
    await inBuildDir('geometry-kit-', async (dir) => {
      // marks the evaluation of jsts's WKT reader, in the bundle only
      const marker: Plugin = {
        name: 'jsts-marker',
        setup(build) {
          build.onLoad({ filter: /jsts[\\/]org[\\/]locationtech[\\/]jts[\\/]io[\\/]WKTReader\.js$/ }, async (args) => ({
            contents: `globalThis.__jstsEvaluated = (globalThis.__jstsEvaluated ?? 0) + 1;\n${readFileSync(args.path, 'utf8')}`,
            loader: 'js',
          }));
        },
      };
      const entry = join(dir, 'listPaddocks.ts');
      writeFileSync(
        entry,
        "export { list as handler } from '../../functions/livestock/paddocks';\nexport { geometryKit } from '../../lib/geo/geometry';\n",
      );
      const options = deployBuildOptions();
      const outfile = join(dir, 'listPaddocks.mjs');
      const out = await build({
        ...options,
        entryPoints: [entry],
        outdir: dir,
        sourcemap: false,
        metafile: true,
        plugins: [marker, ...options.plugins],
      });
      // the kit ships with the function (createPaddock needs it) as a chunk of its own, not in the
      // module Lambda imports ...
      const outputs = Object.entries(out.metafile!.outputs);
      const holdsKit = ([, output]: (typeof outputs)[number]) =>
        Object.keys(output.inputs).some((input) => input.includes('jsts/org/locationtech/jts/io/WKTReader.js'));
      expect(outputs.filter(holdsKit).map(([file]) => file.replace(/^.*\//, '').replace(/-\w+\.mjs$/, ''))).toEqual([
        'wkt',
      ]);
      expect(holdsKit(outputs.find(([file]) => file.endsWith('/listPaddocks.mjs'))!)).toBe(false);
      const script = [
        `const m = await import(${JSON.stringify(pathToFileURL(outfile).href)});`,
        'const atLoad = globalThis.__jstsEvaluated ?? 0;',
        'const kit = await m.geometryKit();',
        "const area = kit.areaHectares(kit.parseGeometry('POLYGON((0 0,0.01 0,0.01 0.01,0 0.01,0 0))', ['Polygon']));",
        'await m.geometryKit();',
        'console.log(JSON.stringify({ atLoad, afterUse: globalThis.__jstsEvaluated, area, handler: typeof m.handler }));',
      ].join('\n');
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: { ...process.env, AWS_REGION: 'us-east-1' },
      });
      expect(run.stderr).toBe('');
      const seen = JSON.parse(run.stdout) as { atLoad: number; afterUse: number; area: number; handler: string };
      // ... evaluated neither when the function is loaded, nor twice
      expect(seen).toMatchObject({ atLoad: 0, afterUse: 1, handler: 'function' });
      expect(seen.area).toBeCloseTo(123.09, 1); // 0.01 degrees square at the equator, WGS84
    });
  });

  it('ships no chunk the function cannot load (prune-chunks): spot tags reach the geometry error, never the kit', async () => {
    await inBuildDir('prune-', async (dir) => {
      const out = await buildDeployed(handlerEntry(dir, 'createSpotTags', 'functions/spots/tags.post'), dir, {
        sourcemap: true,
      });
      const made = Object.keys(out.metafile!.outputs).map((file) => file.replace(/^.*\//, ''));
      // esbuild made the kit's chunk (lib/geo/geometry.ts is in the graph) ...
      expect(made.some((file) => /^wkt-\w+\.mjs$/.test(file))).toBe(true);
      // ... and the function's directory does not hold it, nor its map
      const kept = readdirSync(dir);
      expect(kept.filter((file) => file.startsWith('wkt-'))).toEqual([]);
      expect(kept).toContain('createSpotTags.mjs');
    });
  });

  it('keeps a kit the function never loads from shaping what it loads: key-value storage reaches the S3 kit (lib/storage/repository.ts) but carries none of its code', async () => {
    await inBuildDir('dead-import-', async (dir) => {
      const entry = handlerEntry(dir, 'keyValueStorage', 'functions/storage/key-value.handler');
      const options = deployBuildOptions();
      // pruning alone: esbuild places the modules the function and the dead S3 chunk both reach (the
      // SDK's XML protocol, reached through @aws-sdk/core's barrels) in a chunk the function loads
      await buildDeployed(entry, join(dir, 'pruned'), {
        plugins: options.plugins.map((plugin) => (plugin.name === 'prune-chunks' ? plugins.pruneOnly : plugin)),
      });
      const pruned = loadedAtImport(join(dir, 'pruned'), 'keyValueStorage.mjs');
      expect(pruned).toContain('addChildNode'); // XmlNode (@aws-sdk/xml-builder), S3's request bodies
      // as deployed: built again with the dead import() cut, the function loads none of it, and
      // still answers (one handler export)
      await buildDeployed(entry, join(dir, 'deployed'));
      const deployed = loadedAtImport(join(dir, 'deployed'), 'keyValueStorage.mjs');
      expect(deployed).not.toContain('addChildNode');
      expect(deployed.length).toBeLessThan(pruned.length);
      expect(readdirSync(join(dir, 'deployed')).filter((file) => file.startsWith('s3-client-'))).toEqual([]);
      const run = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(pathToFileURL(join(dir, 'deployed', 'keyValueStorage.mjs')).href)}); console.log(typeof m.handler);`,
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        },
      );
      expect(run.stdout.trim()).toBe('function');
    });
  });

  it("gives middy a ReadableStream that answers its one check as Node's does, loading web streams only then (lazy-web-streams)", async () => {
    await inBuildDir('web-streams-', async (dir) => {
      writeFileSync(join(dir, 'shim.mjs'), plugins.LAZY_WEB_STREAMS);
      const { Readable } = await import('node:stream');
      const { ReadableStream: Web } = await import('node:stream/web');
      const shim = (await import(pathToFileURL(join(dir, 'shim.mjs')).href)) as { ReadableStream: unknown };
      const isWebStream = (value: unknown) => value instanceof (shim.ReadableStream as typeof Web);
      expect(isWebStream(new Web())).toBe(true);
      expect(isWebStream(Readable.from(['a']))).toBe(false);
      expect(isWebStream('text')).toBe(false);
      expect(isWebStream({ getReader: () => undefined })).toBe(false);
    });
  });

  it("builds functions whose import loads no web streams: middy's import of node:stream/web is the lazy one, and nothing else imports it", async () => {
    await inBuildDir('web-streams-fn-', async (dir) => {
      await buildDeployed(handlerEntry(dir, 'listInbox', 'functions/notifications/inbox.list'), dir);
      // the Node modules the import loads (Node's own start loads two webstreams helpers already)
      writeFileSync(
        join(dir, 'probe.mjs'),
        "const before = new Set(process.moduleLoadList); await import('./listInbox.mjs'); console.log(JSON.stringify(process.moduleLoadList.filter((name) => !before.has(name))));\n",
      );
      const run = spawnSync(process.execPath, [join(dir, 'probe.mjs')], {
        encoding: 'utf8',
        env: { ...process.env, AWS_REGION: 'us-east-1' },
      });
      expect(run.status, run.stderr).toBe(0);
      const loaded = JSON.parse(run.stdout) as string[];
      expect(loaded).toContain('NativeModule stream'); // the probe sees what the import loads: the SDK's Node streams
      expect(loaded.filter((name) => /webstreams|stream\/web/.test(name))).toEqual([]);
    });
  });

  it("gives fast-png's encoder a zlibSync on Node's zlib whose streams inflate back to their data (png-zlib)", async () => {
    await inBuildDir('png-zlib-', async (dir) => {
      writeFileSync(join(dir, 'zlib.mjs'), plugins.PNG_ZLIB);
      const { zlibSync } = (await import(pathToFileURL(join(dir, 'zlib.mjs')).href)) as {
        zlibSync: (data: Uint8Array, options?: { level?: number }) => Uint8Array;
      };
      const { inflateSync } = await import('node:zlib');
      const { unzlibSync } = await import('fflate');
      const data = new Uint8Array(10_000).map((_, i) => (i * 7) % 251);
      for (const options of [undefined, { level: 3 }, { level: 9 }]) {
        const stream = zlibSync(data, options);
        expect(stream).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(inflateSync(stream)).equals(Buffer.from(data))).toBe(true);
        expect(Buffer.from(unzlibSync(stream)).equals(Buffer.from(data))).toBe(true); // the decoder fast-png was written for
      }
    });
  });

  it("builds PNGs without fflate: fast-png's images decode to the same pixels, and no fflate is bundled", async () => {
    await inBuildDir('png-zlib-fn-', async (dir) => {
      const entry = join(dir, 'png.ts');
      writeFileSync(
        entry,
        "import { encode } from 'fast-png';\nexport const png = (data: Uint8Array) => encode({ width: 40, height: 25, data, channels: 4, depth: 8 });\n",
      );
      const result = await build({
        ...deployBuildOptions(),
        entryPoints: [entry],
        outdir: dir,
        metafile: true,
        sourcemap: false,
      });
      const bundled = Object.values(result.metafile.outputs).flatMap((output) =>
        Object.entries(output.inputs)
          .filter(([, input]) => input.bytesInOutput > 0)
          .map(([path]) => path),
      );
      expect(bundled.some((path) => path.includes('node_modules/fast-png/'))).toBe(true);
      expect(bundled.filter((path) => path.includes('node_modules/fflate/'))).toEqual([]);
      const { png } = (await import(pathToFileURL(join(dir, 'png.mjs')).href)) as {
        png: (data: Uint8Array) => Uint8Array;
      };
      const pixels = new Uint8Array(40 * 25 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 13) % 256));
      const { PNG } = await import('pngjs');
      const decoded = PNG.sync.read(Buffer.from(png(pixels)));
      expect([decoded.width, decoded.height]).toEqual([40, 25]);
      expect(Buffer.from(decoded.data).equals(Buffer.from(pixels))).toBe(true);
    });
  });

  it("writes xlsx without SheetJS's other writers: a built xlsxOf carries under 200 KB of SheetJS, no ODS writer among it, and its file reads back (lib/util/spreadsheet.ts)", async () => {
    await inBuildDir('xlsx-writer-', async (dir) => {
      const entry = join(dir, 'sheet.ts');
      writeFileSync(entry, "export { xlsxOf } from '../../lib/util/spreadsheet';\n");
      const result = await build({
        ...deployBuildOptions(),
        entryPoints: [entry],
        outdir: dir,
        metafile: true,
        sourcemap: false,
      });
      const sheetjs = Object.values(result.metafile.outputs)
        .flatMap((output) => Object.entries(output.inputs))
        .filter(([path]) => path.includes('node_modules/@e965/xlsx/'));
      const bytes = sheetjs.reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
      expect(bytes).toBeGreaterThan(50_000); // the xlsx writer is there
      expect(bytes).toBeLessThan(200_000); // SheetJS's general `write` brings ~330 KB
      const bundled = readFileSync(join(dir, 'sheet.mjs'), 'utf8');
      expect(bundled).not.toContain('opendocument.spreadsheet'); // the ODS writer's mimetype
      const { xlsxOf } = (await import(pathToFileURL(join(dir, 'sheet.mjs')).href)) as {
        xlsxOf: (rows: unknown[][], name: string) => Buffer;
      };
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsxOf([['a', 1]], 'Spots') as unknown as ArrayBuffer);
      expect(book.worksheets[0]!.getRow(1).values).toEqual([undefined, 'a', 1]);
    });
  });

  it('loads the S3 client on first use: file storage ships it as a chunk its module does not import at load (s3Kit, lib/aws/s3.ts)', async () => {
    await inBuildDir('s3-kit-', async (dir) => {
      await buildDeployed(handlerEntry(dir, 'fileStorage', 'functions/storage/files.handler'), dir);
      // the client's service id and our client's options are in the chunk, not in what is loaded at import
      const chunk = readFileSync(join(dir, kitChunk(dir, 's3-client')), 'utf8');
      expect(chunk).toContain('AmazonS3');
      expect(chunk).toContain('forcePathStyle');
      const loaded = loadedAtImport(dir, 'fileStorage.mjs');
      expect(loaded).not.toContain('AmazonS3');
      expect(loaded).not.toContain('forcePathStyle');
      expect(loaded).toMatch(/import\(["']\.\/s3-client-\w+\.mjs["']\)/);
    });
  });

  it("loads a work order's writer at the first download of its type: neither pdfkit nor SheetJS is loaded at import (lib/work-orders/document.ts)", async () => {
    await inBuildDir('work-order-writers-', async (dir) => {
      await buildDeployed(handlerEntry(dir, 'downloadWorkOrder', 'functions/work-orders/download.get'), dir);
      const chunk = (kit: string) => readFileSync(join(dir, kitChunk(dir, kit)), 'utf8');
      expect(chunk('pdf')).toContain('%PDF-');
      expect(chunk('workbook')).toContain('SheetJS');
      const loaded = loadedAtImport(dir, 'downloadWorkOrder.mjs');
      expect(loaded).not.toContain('%PDF-');
      expect(loaded).not.toContain('SheetJS');
      expect(loaded).toMatch(/import\(["']\.\/pdf-\w+\.mjs["']\)/);
      expect(loaded).toMatch(/import\(["']\.\/workbook-\w+\.mjs["']\)/);
    });
  });

  it('loads the readers of an imported spot sheet at its first file of their format, and the writer of an exported one at its first export of that format: neither Papa Parse (csv) nor SheetJS at import (lib/spots/sheets.ts, lib/spots/sheet-export.ts)', async () => {
    await inBuildDir('spot-sheets-', async (dir) => {
      for (const [name, route] of [
        ['importSpotSheet', 'post'],
        ['exportSpotSheet', 'get'],
      ] as const) {
        await buildDeployed(handlerEntry(dir, name, `functions/spots/sheet.${route}`), join(dir, name));
      }
      const chunk = (name: string, kit: string) => loadedAtImport(join(dir, name), kitChunk(join(dir, name), kit));
      // the import: SheetJS (its xls reader among it) and Papa Parse in chunks of their own
      expect(chunk('importSpotSheet', 'workbook-reader')).toContain('Unexpected BIFF Ver');
      expect(chunk('importSpotSheet', 'delimited')).toContain('delimitersToGuess');
      const importing = loadedAtImport(join(dir, 'importSpotSheet'), 'importSpotSheet.mjs');
      expect(importing).not.toContain('SheetJS');
      expect(importing).not.toContain('delimitersToGuess');
      expect(importing).toMatch(/import\(["']\.\/workbook-reader-\w+\.mjs["']\)/);
      expect(importing).toMatch(/import\(["']\.\/delimited-\w+\.mjs["']\)/);
      // the export: SheetJS's xlsx writer (without its readers) and Papa Parse in chunks of their own
      expect(chunk('exportSpotSheet', 'delimited')).toContain('delimitersToGuess');
      expect(chunk('exportSpotSheet', 'workbook-writer')).toContain('SheetJS');
      expect(chunk('exportSpotSheet', 'workbook-writer')).not.toContain('Unexpected BIFF Ver');
      const exporting = loadedAtImport(join(dir, 'exportSpotSheet'), 'exportSpotSheet.mjs');
      expect(exporting).not.toContain('SheetJS');
      expect(exporting).not.toContain('delimitersToGuess');
      expect(exporting).toMatch(/import\(["']\.\/workbook-writer-\w+\.mjs["']\)/);
      expect(readdirSync(join(dir, 'exportSpotSheet')).filter((file) => file.startsWith('workbook-reader-'))).toEqual(
        [],
      );
    });
  });

  it('loads proj4 at the first transform between two EPSG codes, and the warping and encoders at the first image: rendering ships both in chunks its module does not import at load (lib/imagery/crs.ts, lib/imagery/rendering.ts)', async () => {
    await inBuildDir('projections-', async (dir) => {
      await buildDeployed(handlerEntry(dir, 'renderLayer', 'functions/imagery/geoserver.get'), dir);
      // proj4's projection names (UTM is its extended transverse Mercator) and wkt-parser's keywords
      const chunk = readFileSync(join(dir, kitChunk(dir, 'projections')), 'utf8');
      expect(chunk).toContain('Extended_Transverse_Mercator');
      expect(chunk).toContain('PROJCS');
      const loaded = loadedAtImport(dir, 'renderLayer.mjs');
      expect(loaded).not.toContain('Extended_Transverse_Mercator');
      expect(loaded).not.toContain('PROJCS');
      expect(loaded).toMatch(/import\(["']\.\/projections-\w+\.mjs["']\)/);
      // fast-png's encoder (the PNG header chunk it writes)
      expect(readFileSync(join(dir, kitChunk(dir, 'render')), 'utf8')).toContain('IHDR');
      expect(loaded).not.toContain('IHDR');
      expect(loaded).toMatch(/import\(["']\.\/render-\w+\.mjs["']\)/);
    });
  });

  it('finds schema and handler modules that only declare at their top level (a top-level effect would run only where the module is kept)', () => {
    const effects: string[] = [];
    const files = [
      ...readdirSync(join(root, 'schemas')).map((name) => join('schemas', name)),
      ...readdirSync(join(root, 'functions'), { recursive: true, encoding: 'utf8' }).map((name) =>
        join('functions', name),
      ),
    ].filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(80);
    for (const name of files) {
      const file = ts.createSourceFile(name, readFileSync(join(root, name), 'utf8'), ts.ScriptTarget.Latest, true);
      for (const statement of file.statements) {
        const declares =
          ts.isImportDeclaration(statement) ||
          ts.isExportDeclaration(statement) ||
          ts.isVariableStatement(statement) ||
          ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isEnumDeclaration(statement);
        if (!declares) effects.push(`${name}: ${statement.getText(file).slice(0, 60)}`);
      }
    }
    expect(effects).toEqual([]);
  });

  it('finds no dynamic import() of an ES module in lib/ or functions/ but the kits loaded on first use, and no static import of a kit (ADR 0008)', () => {
    // the modules loaded on first use, each through its loader alone: a static import would
    // evaluate it when the function is loaded
    const kits = [
      'lib/geo/wkt.ts',
      'lib/aws/sqs-client.ts',
      'lib/season-shapes/limits.ts',
      'lib/aws/s3-client.ts',
      'lib/geo/shapefile.ts',
      'lib/geo/kml.ts',
      'lib/workers/cleanup-jobs.ts',
      'lib/util/unzip.ts',
      'lib/imagery/layer-sheet.ts',
      'lib/util/delimited.ts',
      'lib/spots/workbook-reader.ts',
      'lib/work-orders/pdf.ts',
      'lib/work-orders/workbook.ts',
      'lib/maps/application.ts',
      'lib/imagery/projections.ts',
      'lib/spots/workbook-writer.ts',
      'lib/imagery/render.ts',
    ];
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          const source = readFileSync(path, 'utf8');
          const file = path.slice(root.length + 1);
          for (const match of source.matchAll(/(?<!typeof )\bimport\(\s*'([^']+)'\s*\)/g))
            found.push(`${file}: ${match[1]}`);
          for (const match of source.matchAll(/^import (?!type )[^;]*from '(\.[^']*)';/gm)) {
            const target = relative(root, resolve(dirname(path), `${match[1]}.ts`));
            if (kits.includes(target)) found.push(`${file}: static ${match[1]}`);
          }
        }
      }
    };
    walk(join(root, 'lib'));
    walk(join(root, 'functions'));
    // busboy is CommonJS: esbuild wraps it whether it is imported statically or not. The kits are
    // chunks of their own (code splitting): what they share with the function's module (the SDK's
    // core for the SQS client) is a chunk both import, not a lazy initialiser
    expect(found.sort()).toEqual([
      'functions/workers/events.ts: ../../lib/workers/cleanup-jobs',
      // token verification (jose): loaded by a request the authorizer did not verify; the authorizer
      // and the minting function, which always need it, import it statically
      'lib/auth/principal.ts: ./tokens',
      'lib/aws/s3.ts: ./s3-client',
      'lib/aws/sqs.ts: ./sqs-client',
      'lib/geo/geometry.ts: ./wkt',
      'lib/geo/readers.ts: ./kml',
      'lib/geo/readers.ts: ./shapefile',
      'lib/http/body.ts: @fastify/busboy',
      // a builtin, loaded by the streamed answers that compress (getfields), not at import
      'lib/http/endpoint.ts: node:zlib',
      'lib/imagery/crs.ts: ./projections',
      'lib/imagery/epsg-catalogue.ts: proj4-list',
      'lib/imagery/layer-file.ts: ../util/delimited',
      'lib/imagery/layer-file.ts: ./layer-sheet',
      'lib/imagery/rendering.ts: ./render',
      'lib/maps/repository.ts: ./application',
      'lib/season-shapes/service.ts: ./limits',
      'lib/spots/sheet-export.ts: ./workbook-writer',
      'lib/spots/sheets.ts: ../util/delimited',
      'lib/spots/sheets.ts: ./workbook-reader',
      'lib/util/zip.ts: ./unzip',
      'lib/work-orders/document.ts: ./pdf',
      'lib/work-orders/document.ts: ./workbook',
    ]);
  });
});
