// npm test [-- <vitest filters and options>]: Biome (format and lint), the type checks and every test
// (vitest), all at once. Arguments go to vitest: `npm test -- spots` runs the test files whose
// path contains "spots" (with the type check and lint beside them); `npm test -- --project unit`
// the unit tests only. The output of Biome and the type checks is printed when they end, vitest's
// as it runs; the command fails if any of them does.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Step {
  name: string;
  command: string;
  args: string[];
  /** Its output as it comes (vitest), or kept until it ends (the others, so that they do not interleave). */
  live: boolean;
  env?: Record<string, string>;
}

const filters = process.argv.slice(2);

const incremental = (name: string) => [
  '--incremental',
  '--tsBuildInfoFile',
  join(root, '.surco', 'tsc', `${name}.tsbuildinfo`),
];

const steps: Step[] = [
  { name: 'biome', command: bin('biome'), args: ['ci', '--error-on-warnings', '.'], live: false },
  // The type checks by TypeScript's native compiler (tsgo, @typescript/native-preview, pinned): the same
  // diagnostics as tsc 5.9 on this code in a quarter of its CPU (docs/adr/0009-type-checking.md).
  // incremental: a checkout's first run checks everything, later ones what changed since (the build
  // info kept in .surco/tsc/, which a clean checkout does not have)
  { name: 'tsgo', command: bin('tsgo'), args: ['-p', '.', ...incremental('functions')], live: false },
  // the web pages' browser code, with the DOM's types (console/tsconfig.json)
  { name: 'tsgo console', command: bin('tsgo'), args: ['-p', 'console', ...incremental('console')], live: false },
  // the infrastructure test's packaging starts with the run, at the lowest CPU priority, beside the
  // other tests (tests/setup/prepackage.ts; SURCO_PREPACKAGE=0 turns it off)
  {
    name: 'vitest',
    command: bin('vitest'),
    args: ['run', ...filters],
    live: true,
    env: {},
  },
];

const run = (step: Step) =>
  new Promise<{ step: Step; code: number; output: string; seconds: number }>((resolve) => {
    const started = Date.now();
    const child = spawn(step.command, step.args, {
      cwd: root,
      stdio: step.live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...step.env,
        FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0'),
      },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) =>
      resolve({ step, code: code ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000 }),
    );
  });

const results = await Promise.all(steps.map(run));
for (const { step, code, output, seconds } of results) {
  if (!step.live) {
    if (code !== 0 || output.trim()) process.stdout.write(`\n--- ${step.name} ---\n${output}`);
  }
  console.log(`${step.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
