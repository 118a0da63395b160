// Starts the local platform once for the test run: the same stack `npm start` runs, on free
// ports, with DynamoDB Local in memory and fresh keys. Logs go to .surco/test-logs/.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freeStackPorts, type PrivateStack, type RunningStack, startPrivateStack } from '../../scripts/local/stack';
import { isolatedPackagingEnv } from '../../scripts/package';
import { contractChecks } from '../helpers/contract-log';
import { IMAGERY_AREA } from '../helpers/shapes';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: Omit<RunningStack, 'stop' | 'faults'>;
    /** Where the packaging of a whole run is being written (tests/setup/prepackage.ts), if it was started. */
    prepackaged: string | undefined;
  }
}

// One stack for every project that names this file (stack, then stack-heavy): the first setup
// starts it, the last teardown stops it.
interface Shared {
  stack?: Promise<PrivateStack>;
  users: number;
  prepackage?: { dir: string; child: ChildProcess };
}
const shared = ((globalThis as { __surcoTestStack?: Shared }).__surcoTestStack ??= { users: 0 });

async function start(): Promise<PrivateStack> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // Replaced storage files are swept again after 2 s instead of 30 (tests/file-storage.test.ts).
  process.env.SURCO_STORAGE_RELEASE_DELAY_S = '2';
  // The notification stream sends PING.V1 every 2 s instead of 15 (tests/notifications.test.ts).
  process.env.SURCO_STREAM_PING_S = '2';
  // A field's imagery covers the last 15 days (3 scenes: one clear, one cloudy, one with cirrus)
  // instead of a year: every field of the run is ingested (tests/imagery.test.ts).
  process.env.SURCO_IMAGERY_DAYS = '15';
  // Webhook retries after 1, 2, 4 and 8 s instead of minutes, a receiver's answer awaited 1 s
  // (tests/webhooks.test.ts).
  process.env.SURCO_WEBHOOK_BACKOFF_S = '1';
  process.env.SURCO_WEBHOOK_TIMEOUT_MS = '1000';
  // Fair use (tests/fair-use.test.ts): every caller unmetered but the extensions that test the
  // limits, in tiers of their own (a quota of 3 requests per 3 s).
  process.env.SURCO_DEFAULT_TIER = 'unmetered';
  process.env.SURCO_FAIR_USE_TIERS = JSON.stringify({
    'test-tight': { rate: 1, burst: 3, userRate: 1, userBurst: 3, quota: 1_000_000, quotaPeriodS: 86_400 },
    'test-quota': { rate: 100, burst: 100, userRate: 100, userBurst: 100, quota: 3, quotaPeriodS: 3 },
    'test-users': { rate: 100, burst: 100, userRate: 1, userBurst: 2, quota: 1_000_000, quotaPeriodS: 86_400 },
    'test-once': { rate: 0.01, burst: 1, userRate: 0.01, userBurst: 1, quota: 1_000_000, quotaPeriodS: 86_400 },
  });
  process.env.SURCO_EXTENSION_TIERS = JSON.stringify({
    '': 'unmetered',
    '-': 'unmetered',
    'fair-use-a': 'test-tight',
    'fair-use-b': 'test-tight',
    'fair-use-quota': 'test-quota',
    'fair-use-users': 'test-users',
    'fair-use-dialects': 'test-once',
  });
  const root = resolve(import.meta.dirname, '..', '..');
  // data in a temporary directory, functions built apart from .surco/build (which a running
  // `npm start` of this checkout serves from): both removed by dispose, or when the start fails
  return startPrivateStack('test', {
    root,
    ports: await freeStackPorts(),
    internalKey: randomBytes(18).toString('base64url'),
    signingSeed: randomBytes(32).toString('base64url'),
    inMemory: true,
    quickJvm: true,
    // scenes only where the tests of imagery place their fields (tests/helpers/shapes.ts)
    catalogueCoverage: [IMAGERY_AREA],
    logDir: join(root, '.surco', 'test-logs'),
    functionsLogLevel: process.env.SURCO_LOG_LEVEL_FUNCTIONS ?? 'warn',
  });
}

/**
 * A run that may hold the infrastructure test packages the services for it at once, at the lowest
 * CPU priority, beside everything else, with the environment that test would package with
 * (SURCO_PREPACKAGE=0 npm test: the test packages when it runs, as a run of that file alone does).
 */
function prepackage(root: string): Shared['prepackage'] {
  const dir = mkdtempSync(join(tmpdir(), 'surco-package-'));
  // as the test's workers have it: the run's environment with vitest.config.ts's `env`
  const env = isolatedPackagingEnv(dir, {
    ...process.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    SURCO_LOG_LEVEL: 'silent',
  });
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests', 'setup', 'prepackage.ts'), dir], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
  // the lowest priority (inherited by osls and esbuild): it takes the cores the tests leave idle
  if (child.pid) setPriority(child.pid, 19);
  return { dir, child };
}

/**
 * Whether this run may hold the infrastructure test: vitest's command line names no file filter,
 * or one that the test's path contains (`npm test -- spots` packages nothing). A word taken for a
 * filter that is an option's value (`--project stack`) only means that the test, if it runs,
 * packages by itself.
 */
function runsInfrastructureTest(): boolean {
  const filters = process.argv.slice(2).filter((arg) => arg !== 'run' && !arg.startsWith('-'));
  return filters.length === 0 || filters.some((filter) => 'tests/infrastructure.test.ts'.includes(filter));
}

export async function setup(project: TestProject) {
  if (shared.users === 0) contractChecks.reset();
  shared.users += 1;
  if (process.env.SURCO_PREPACKAGE !== '0' && runsInfrastructureTest())
    shared.prepackage ??= prepackage(resolve(import.meta.dirname, '..', '..'));
  project.provide('prepackaged', shared.prepackage?.dir);
  shared.stack ??= start();
  const { stop: _stop, faults: _faults, dispose: _dispose, ...provided } = await shared.stack;
  project.provide('stack', provided);
}

export async function teardown() {
  shared.users -= 1;
  if (shared.users > 0) return;
  // a run that ended before its packaging did (a failure, Ctrl-C) does not leave it running
  if (shared.prepackage && shared.prepackage.child.exitCode === null) shared.prepackage.child.kill();
  if (!shared.stack) return;
  const running = shared.stack;
  shared.stack = undefined;
  await (await running).dispose();
  const summary = contractChecks.summary();
  if (summary) console.log(summary);
}
