// npm run bench -- cold-start: the module-init part of every function's cold start.
// Packages every service for production (npm run package), takes each function's bundle out of its
// zip, and imports it in fresh Node processes: the median of RUNS imports as deployed (without
// --enable-source-maps: the logger maps stacks itself, lib/util/stack.ts) and, for comparison, with
// it (how the functions ran before), next to two bundles built the same
// way in the same run: an empty handler, and one that holds only the DynamoDB document client (the
// floor nearly every function pays). Each import is paired with an import of the floor in the same
// iteration and the ratio is the median of those pairs (the machine drifts over a run). With
// COLD_START_BEFORE=<another checkout>/.surco/bench/package, that package's bundle of each function
// is measured in the same iterations too: before and after from one run. COLD_START_ONLY=<regexp>
// measures the functions whose name matches. COLD_START_PAIRS=<n> (with COLD_START_BEFORE) also
// imports each function's two bundles alternately n times, before then after, and reports the
// median of after/before per pair: the figure that separates a change of a few percent from this
// machine's noise (docs/benchmarks.md, ninth run: 41 pairs). COLD_START_KITS=<regexp> (with pairs)
// also times, in the same alternation, the function's import followed by the import of each of its
// chunks loaded on first use whose name matches (`^(delimited|workbook-reader)-`): the module-init
// part of a cold request that needs that kit, against the before bundle's import. Prints a markdown
// table and writes .surco/bench/cold-start.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { unzipSync } from 'fflate';
import { services } from '../schemas/index';
import { deployBuildOptions } from '../scripts/esbuild-options';
import { packageServices } from '../scripts/package';
import { median, root } from './lib';

const RUNS = Number(process.env.COLD_START_RUNS ?? 5);
const PAIRS = Number(process.env.COLD_START_PAIRS ?? 0);
const KITS = process.env.COLD_START_KITS ? new RegExp(process.env.COLD_START_KITS) : undefined;

interface Row {
  name: string;
  kb: number;
  ms: number;
  /** Median of the ratios to the floor imported just before, in the same iteration. */
  ratio: number;
  msSourceMaps: number;
  ratioSourceMaps: number;
  /**
   * The same function's bundle from COLD_START_BEFORE, measured in the same iterations, both ways
   * (a package from before 6e75577 was deployed with --enable-source-maps).
   */
  before?: { kb: number; ms: number; ratio: number; ratioSourceMaps: number };
  /** COLD_START_PAIRS: the median of after/before over alternated imports, and each side's median ms. */
  pairs?: { n: number; ratio: number; beforeMs: number; afterMs: number };
  /** COLD_START_KITS: per chunk loaded on first use, the median of (import, then the chunk) / before over the same pairs. */
  kits?: Array<{ chunk: string; ratio: number; ms: number }>;
}

/** Milliseconds a fresh process takes to import the modules, one after the other (measured inside it, around the imports). */
function importOnce(file: string | string[], sourceMaps: boolean): number {
  const files = (Array.isArray(file) ? file : [file]).map((f) => `file://${f}`);
  const script = `const t = performance.now(); for (const f of ${JSON.stringify(files)}) await import(f); console.log(performance.now() - t);`;
  const run = spawnSync(
    process.execPath,
    [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', script],
    {
      env: {
        ...process.env,
        AWS_REGION: 'us-east-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        SURCO_STAGE: 'bench',
      },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`importing ${files.join(', ')} failed: ${run.stderr.slice(0, 500)}`);
  return Number(run.stdout.trim().split('\n').pop());
}

/**
 * Imports `files` one after the other RUNS times, each iteration starting with the floor, so every
 * figure has a floor measured seconds before it: the machine's drift over a run of several minutes
 * (easily 30%) cancels in the ratios.
 */
function measureAgainst(floor: string, files: string[], sourceMaps: boolean): { ms: number[]; ratio: number[] } {
  const times = files.map(() => [] as number[]);
  const ratios = files.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) {
    const base = importOnce(floor, sourceMaps);
    files.forEach((file, k) => {
      const ms = importOnce(file, sourceMaps);
      times[k]!.push(ms);
      ratios[k]!.push(ms / base);
    });
  }
  return { ms: times.map(median), ratio: ratios.map(median) };
}

/**
 * `n` imports of `before` then `after` alternately, as deployed: the median after/before per pair;
 * with `kits` (chunks of `after` loaded on first use), each pair also imports `after` then the kit.
 */
function pairsOf(before: string, after: string, n: number, kits: string[] = []): Pick<Row, 'pairs' | 'kits'> {
  const pairs = Array.from({ length: n }, () => {
    const b = importOnce(before, false);
    return [b, importOnce(after, false), ...kits.map((kit) => importOnce([after, kit], false))] as const;
  });
  return {
    pairs: {
      n,
      ratio: median(pairs.map(([b, a]) => a / b)),
      beforeMs: median(pairs.map(([b]) => b)),
      afterMs: median(pairs.map(([, a]) => a)),
    },
    ...(kits.length
      ? {
          kits: kits.map((kit, k) => ({
            chunk: kit.split('/').pop()!,
            ratio: median(pairs.map((p) => p[2 + k]! / p[0])),
            ms: median(pairs.map((p) => p[2 + k]!)),
          })),
        }
      : {}),
  };
}

/**
 * A function's zip written out: its entry module (`index.mjs`, or the one .mjs of an older
 * package) and the bytes an import of it loads: the entry and the chunks it imports statically,
 * not those it imports on first use (deploy/esbuild.yml `splitting`). Undefined when there is no zip.
 */
export function unpack(zip: string, dir: string): { file: string; entry: string; bytes: number } | undefined {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(readFileSync(zip));
  } catch {
    return undefined;
  }
  const modules = Object.keys(files).filter((file) => file.endsWith('.mjs'));
  const entry = modules.find((file) => file.endsWith('/index.mjs')) ?? modules[0]!;
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return { file: join(dir, entry), entry, bytes: loadedAtImport(files, entry) };
}

/** Bytes of a module and of every chunk it imports statically (`from"./x.mjs"`, `import"./x.mjs"`), transitively. */
export function loadedAtImport(files: Record<string, Uint8Array>, entry: string): number {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !files[file]) return;
    seen.add(file);
    const text = Buffer.from(files[file]!).toString('utf8');
    for (const found of text.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.mjs)["']/g))
      visit(join(dirname(file), found[1]!));
  };
  visit(entry);
  return [...seen].reduce((sum, file) => sum + files[file]!.length, 0);
}

/**
 * A reference bundle built as deploy/esbuild.yml builds the functions (minified ESM, source map,
 * banner, code splitting), with the build's aliases when asked; its bytes are those loaded at its
 * import (the module and the chunks it imports statically), as for the functions.
 */
async function reference(
  dir: string,
  name: string,
  source: string,
  withAliases = false,
): Promise<{ file: string; bytes: number; everything: number }> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const options = deployBuildOptions();
  const result = await build({
    ...options,
    entryPoints: [entry],
    outdir: dir,
    alias: withAliases ? options.alias : {},
    write: false,
  });
  const files: Record<string, Uint8Array> = {};
  for (const output of result.outputFiles) {
    writeFileSync(output.path, output.contents);
    files[relative(dir, output.path)] = output.contents;
  }
  const modules = Object.entries(files).filter(([file]) => file.endsWith('.mjs'));
  return {
    file: join(dir, `${name}.mjs`),
    bytes: loadedAtImport(files, `${name}.mjs`),
    everything: modules.reduce((sum, [, bytes]) => sum + bytes.length, 0),
  };
}

const DOCUMENT_CLIENT_ONLY =
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nconst client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => ({ statusCode: 200, body: String(Boolean(client)) });\n";

export async function run(): Promise<void> {
  // the reference bundles and every function's unpacked bundle (~200 MB a run): removed afterwards
  const work = mkdtempSync(join(tmpdir(), 'surco-cold-'));
  try {
    await measureAll(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** COLD_START_KITS: the chunks beside a function's module whose name matches, each loaded on first use. */
function kitsOf(file: string): string[] {
  if (!KITS) return [];
  return readdirSync(dirname(file))
    .filter((chunk) => chunk.endsWith('.mjs') && KITS.test(chunk))
    .sort()
    .map((chunk) => join(dirname(file), chunk));
}

async function measureAll(work: string): Promise<void> {
  const beforeDir = process.env.COLD_START_BEFORE;
  console.error('packaging every service for production ...');
  const packaged = await packageServices(join(root, '.surco', 'bench', 'package'));
  const rows: Row[] = [];
  // the floor of the document client as the SDK bundles it (its whole credential chain)
  const floor = await reference(work, 'dynamodb-document-client', DOCUMENT_CLIENT_ONLY);
  const measure = (name: string, file: string, bytes: number, before?: { file: string; bytes: number }) => {
    const files = before ? [file, before.file] : [file];
    const plain = measureAgainst(floor.file, files, false);
    const maps = measureAgainst(floor.file, files, true);
    rows.push({
      name,
      kb: Math.round(bytes / 1024),
      ms: plain.ms[0]!,
      ratio: plain.ratio[0]!,
      msSourceMaps: maps.ms[0]!,
      ratioSourceMaps: maps.ratio[0]!,
      ...(before
        ? {
            before: {
              kb: Math.round(before.bytes / 1024),
              ms: plain.ms[1]!,
              ratio: plain.ratio[1]!,
              ratioSourceMaps: maps.ratio[1]!,
            },
          }
        : {}),
      ...(before && PAIRS > 0 ? pairsOf(before.file, file, PAIRS, kitsOf(file)) : {}),
    });
    const row = rows.at(-1)!;
    console.error(
      `${name}: ${row.kb} KB, ${row.ms.toFixed(1)} ms (${row.ratio.toFixed(2)}x)${row.before ? `; before ${row.before.kb} KB, ${row.before.ratio.toFixed(2)}x` : ''}${row.pairs ? `; after/before ${row.pairs.ratio.toFixed(3)} in ${row.pairs.n} pairs` : ''}${(row.kits ?? []).map((kit) => `; with ${kit.chunk} ${kit.ratio.toFixed(3)}`).join('')}`,
    );
  };
  const empty = await reference(
    work,
    'empty-handler',
    'export const handler = async () => ({ statusCode: 200, body: "" });\n',
  );
  measure('(empty handler)', empty.file, empty.bytes);
  measure('(DynamoDB document client only)', floor.file, floor.bytes);
  // the same with the build's aliases (credentials from the environment, lib/aws/credentials.ts)
  const floorAliased = await reference(work, 'dynamodb-document-client-env', DOCUMENT_CLIENT_ONLY, true);
  measure('(the same, built with deploy/esbuild.yml aliases)', floorAliased.file, floorAliased.bytes);
  // what a function of the geometry areas pays at its first geometry instead of at its import (ADR 0008)
  const kit = await reference(
    work,
    'geometry-kit',
    `import { geometryKit } from ${JSON.stringify(join(root, 'lib', 'geo', 'geometry'))};\nawait geometryKit();\nexport const handler = async () => ({ statusCode: 200, body: '' });\n`,
    true,
  );
  // its module awaits the kit at its import: every chunk of the build is loaded
  measure('(the geometry kit alone, as a first geometry loads it)', kit.file, kit.everything);
  const handlers = new Map(
    services.flatMap((s) => [
      ...s.routes.map((r) => [r.operationId, r.handler] as const),
      ...s.workers.map((w) => [w.name, w.handler] as const),
    ]),
  );
  const only = process.env.COLD_START_ONLY ? new RegExp(process.env.COLD_START_ONLY) : undefined;
  for (const service of packaged) {
    for (const name of Object.keys(service.template.Resources).filter(
      (id) => service.template.Resources[id]!.Type === 'AWS::Lambda::Function',
    )) {
      const fn = name.replace(/LambdaFunction$/, '').replace(/^./, (c) => c.toLowerCase());
      if (only && !only.test(fn)) continue;
      // every function has a bundle of its own (.surco/handlers/<function>.mjs, ADR 0008)
      const now = unpack(join(service.dir, `${fn}.zip`), join(work, service.service, fn))!;
      const before = beforeDir
        ? unpack(join(beforeDir, service.service, `${fn}.zip`), join(work, 'before', service.service, fn))
        : undefined;
      const module = handlers
        .get(fn)!
        .replace(/\.\w+$/, '')
        .replace(/^functions\//, '');
      measure(`${fn} (${module})`, now.file, now.bytes, before);
    }
  }
  const hasBefore = rows.some((row) => row.before);
  const hasPairs = rows.some((row) => row.pairs);
  const lines = [
    `| function (handler module) |${hasBefore ? ' KB before | x floor before | x floor before (with maps) |' : ''} KB at import | import ms (as deployed) | x floor | with --enable-source-maps | x floor (with maps) |${hasPairs ? ' after / before (pairs) | before ms | after ms |' : ''}`,
    `|---|${hasBefore ? '---|---|---|' : ''}---|---|---|---|---|${hasPairs ? '---|---|---|' : ''}`,
    ...rows.map(
      (r) =>
        `| ${r.name} |${hasBefore ? ` ${r.before?.kb ?? ''} | ${r.before ? r.before.ratio.toFixed(2) : ''} | ${r.before ? r.before.ratioSourceMaps.toFixed(2) : ''} |` : ''} ${r.kb} | ${r.ms.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.msSourceMaps.toFixed(1)} | ${r.ratioSourceMaps.toFixed(2)} |${
          hasPairs
            ? r.pairs
              ? ` ${r.pairs.ratio.toFixed(3)} | ${r.pairs.beforeMs.toFixed(1)} | ${r.pairs.afterMs.toFixed(1)} |`
              : ' | | |'
            : ''
        }`,
    ),
  ];
  const kitLines = rows.flatMap((r) =>
    (r.kits ?? []).map((kit) => `| ${r.name} | ${kit.chunk} | ${kit.ratio.toFixed(3)} | ${kit.ms.toFixed(1)} |`),
  );
  if (kitLines.length)
    lines.push(
      '',
      '| function | then loads, on first use | (import + kit) / before (pairs) | import + kit ms |',
      '|---|---|---|---|',
      ...kitLines,
    );
  console.log(lines.join('\n'));
  mkdirSync(join(root, '.surco', 'bench'), { recursive: true });
  writeFileSync(
    join(root, '.surco', 'bench', 'cold-start.json'),
    JSON.stringify({ runs: RUNS, node: process.version, rows }, null, 2),
  );
}
