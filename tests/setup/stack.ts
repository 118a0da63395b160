// Starts the local platform once for the test run: the same stack `npm start` runs, on free
// ports, with DynamoDB Local in memory and fresh keys. Logs go to .surco/test-logs/.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startStack, type RunningStack } from '../../scripts/local/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: Omit<RunningStack, 'stop'>;
  }
}

let stack: RunningStack | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // Replaced storage files are swept again after 2 s instead of 30 (tests/file-storage.test.ts).
  process.env.SURCO_STORAGE_RELEASE_DELAY_S = '2';
  // The notification stream sends PING.V1 every 2 s instead of 15 (tests/notifications.test.ts).
  process.env.SURCO_STREAM_PING_S = '2';
  const root = resolve(import.meta.dirname, '..', '..');
  dataDir = mkdtempSync(join(tmpdir(), 'surco-test-'));
  const ports = {
    api: await freePort(),
    offline: await freePort(),
    lambda: await freePort(),
    dynamodb: await freePort(),
    s3: await freePort(),
    sqs: await freePort(),
  };
  stack = await startStack({
    root,
    dataDir,
    ports,
    internalKey: randomBytes(18).toString('base64url'),
    signingSeed: randomBytes(32).toString('base64url'),
    inMemory: true,
    logDir: join(root, '.surco', 'test-logs'),
    functionsLogLevel: process.env.SURCO_LOG_LEVEL_FUNCTIONS ?? 'warn',
  });
  const { stop: _stop, ...shared } = stack;
  project.provide('stack', shared);
}

export async function teardown() {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
