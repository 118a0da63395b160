// The local stack stops everything it started on SIGINT, SIGTERM and SIGHUP, and its children end
// by themselves when its process is killed outright (SIGKILL): a JVM (DynamoDB Local) under the
// guard (scripts/local/guard.cjs), a Node child (the local API) through its IPC channel. Here the
// stack's process is a small script with one child of each kind, started as the stack starts its
// own (startChild) and stopped as npm start stops (stopOnSignals).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'surco-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stackModule = pathToFileURL(join(import.meta.dirname, '..', '..', 'scripts', 'local', 'stack.ts')).href;
const script = join(dir, 'stack-process.ts');
writeFileSync(
  script,
  `import { startChild, stopOnSignals } from ${JSON.stringify(stackModule)};
const guarded = startChild('sh', ['-c', 'echo guarded=$$; exec sleep 600'], { cwd: ${JSON.stringify(dir)}, env: process.env, guard: true });
const node = startChild(process.execPath, ['-e', "console.log('ipc=' + process.pid); process.on('disconnect', () => process.exit(0)); setInterval(() => {}, 1000);"], { cwd: ${JSON.stringify(dir)}, env: process.env, ipc: true });
stopOnSignals(async () => { await Promise.all([guarded.stop(), node.stop()]); console.log('stopped'); });
setInterval(() => {}, 1000);
`,
);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts the stack's process; resolves with it and its two children's pids once both run. */
async function stackProcess(): Promise<{ parent: ChildProcess; children: number[]; output: () => string }> {
  const parent = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  parent.stdout!.on('data', (chunk) => (output += chunk));
  parent.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = performance.now() + 20_000;
  for (;;) {
    const pids = ['guarded', 'ipc'].map((name) => Number(new RegExp(`${name}=(\\d+)`).exec(output)?.[1]));
    if (pids.every((pid) => pid > 0)) return { parent, children: pids, output: () => output };
    if (performance.now() > deadline || parent.exitCode !== null)
      throw new Error(`the children did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function gone(pids: number[], withinMs: number): Promise<number[]> {
  const deadline = performance.now() + withinMs;
  while (pids.some(alive) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(alive);
}

describe.concurrent('the local stack and its children', () => {
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    it(`stops every child, then exits 0, on ${signal}`, async () => {
      const { parent, children, output } = await stackProcess();
      expect(children.filter(alive)).toEqual(children);
      const exited = new Promise<number | null>((resolve) => parent.once('exit', (code) => resolve(code)));
      parent.kill(signal);
      expect(await exited).toBe(0);
      expect(output()).toContain('stopped');
      expect(await gone(children, 7000)).toEqual([]);
    }, 30_000);
  }

  it('ends its children when it is killed outright (SIGKILL, which it cannot handle)', async () => {
    const { parent, children } = await stackProcess();
    const exited = new Promise<void>((resolve) => parent.once('exit', () => resolve()));
    parent.kill('SIGKILL');
    await exited;
    // the guard's command (a JVM for DynamoDB Local) and the Node child both end on their own
    expect(await gone(children, 7000)).toEqual([]);
  }, 30_000);
});
