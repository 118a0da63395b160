// npm run bench -- cold-start: the module-init part of every function's cold start (issue 19).
// Packages every service for production (npm run package), takes each function's bundle out of its
// zip, and imports it in fresh Node processes: the median of RUNS imports as deployed (without
// --enable-source-maps: the logger maps stacks itself, lib/util/stack.ts) and, for comparison, with
// it (how the functions ran before), next to two bundles built the same
// way in the same run: an empty handler, and one that holds only the DynamoDB document client (the
// floor nearly every function pays). Prints a markdown table and writes .surco/bench/cold-start.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { unzipSync } from 'fflate';
import { packageServices } from '../scripts/package';
import { root } from './lib';

const RUNS = Number(process.env.COLD_START_RUNS ?? 5);
const BANNER = "import { createRequire as __surcoCreateRequire } from 'node:module'; const require = __surcoCreateRequire(import.meta.url);";

interface Row {
  name: string;
  kb: number;
  ms: number;
  msSourceMaps: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds a fresh process takes to import the module (measured inside it, around the import). */
function importMs(file: string, sourceMaps: boolean): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(`file://${file}`)}); console.log(performance.now() - t);`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = spawnSync(process.execPath, [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', script], {
      env: { ...process.env, AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', SURCO_STAGE: 'bench' },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`importing ${file} failed: ${run.stderr.slice(0, 500)}`);
    times.push(Number(run.stdout.trim().split('\n').pop()));
  }
  return median(times);
}

/** A reference bundle built as deploy/esbuild.yml builds the functions (minified ESM, source map, banner). */
async function reference(dir: string, name: string, source: string): Promise<string> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const outfile = join(dir, `${name}.mjs`);
  await build({ entryPoints: [entry], bundle: true, minify: true, sourcemap: true, platform: 'node', target: 'node20', format: 'esm', outfile, banner: { js: BANNER }, mainFields: ['module', 'main'], nodePaths: [join(root, 'node_modules')], logLevel: 'error' });
  return outfile;
}

export async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'surco-cold-'));
  console.error('packaging every service for production ...');
  const packaged = await packageServices(join(root, '.surco', 'bench', 'package'));
  const rows: Row[] = [];
  const measure = (name: string, file: string, bytes: number) => {
    rows.push({ name, kb: Math.round(bytes / 1024), ms: importMs(file, false), msSourceMaps: importMs(file, true) });
    console.error(`${name}: ${rows.at(-1)!.kb} KB, ${rows.at(-1)!.ms.toFixed(1)} / ${rows.at(-1)!.msSourceMaps.toFixed(1)} ms`);
  };
  const empty = await reference(work, 'empty-handler', 'export const handler = async () => ({ statusCode: 200, body: "" });\n');
  measure('(empty handler)', empty, readFileSync(empty).length);
  const floor = await reference(
    work,
    'dynamodb-document-client',
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nconst client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => ({ statusCode: 200, body: String(Boolean(client)) });\n",
  );
  measure('(DynamoDB document client only)', floor, readFileSync(floor).length);
  const seen = new Set<string>();
  for (const service of packaged) {
    for (const name of Object.keys(service.template.Resources).filter((id) => service.template.Resources[id]!.Type === 'AWS::Lambda::Function')) {
      const fn = name.replace(/LambdaFunction$/, '').replace(/^./, (c) => c.toLowerCase());
      const files = unzipSync(readFileSync(join(service.dir, `${fn}.zip`)));
      const entry = Object.keys(files).find((file) => file.endsWith('.mjs'))!;
      // functions of one handler module share a bundle: measured once, listed by the first
      const key = `${service.service}/${entry}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const dir = join(work, service.service, fn);
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), content);
      }
      measure(`${fn} (${entry.replace(/^functions\//, '').replace(/\.mjs$/, '')})`, join(dir, entry), files[entry]!.length);
    }
  }
  const floorRow = rows[1]!;
  const lines = [
    `| function (handler module) | KB | import ms (as deployed) | x floor | with --enable-source-maps | x floor (with maps) |`,
    `|---|---|---|---|---|---|`,
    ...rows.map(
      (r) => `| ${r.name} | ${r.kb} | ${r.ms.toFixed(1)} | ${(r.ms / floorRow.ms).toFixed(2)} | ${r.msSourceMaps.toFixed(1)} | ${(r.msSourceMaps / floorRow.msSourceMaps).toFixed(2)} |`,
    ),
  ];
  console.log(lines.join('\n'));
  mkdirSync(join(root, '.surco', 'bench'), { recursive: true });
  writeFileSync(join(root, '.surco', 'bench', 'cold-start.json'), JSON.stringify({ runs: RUNS, node: process.version, rows }, null, 2));
}
