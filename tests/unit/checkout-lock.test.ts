// scripts/checkout-lock.ts: one osls run at a time in a checkout (packaging, deploys), a lock that a
// dead run does not leave held. scripts/package.ts's withOslsLock holds it around a whole packaging
// or deploy.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { withCheckoutLock } from '../../scripts/checkout-lock';
import { OSLS_LOCK, packageServices } from '../../scripts/package';

const root = mkdtempSync(join(tmpdir(), 'surco-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const lockDir = () => join(root, `case-${++n}`, 'osls');

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('withCheckoutLock (scripts/checkout-lock.ts)', () => {
  it('runs a second holder only after the first has finished, and tells it whom it waits for', async () => {
    const dir = lockDir();
    const events: string[] = [];
    const waited: (number | undefined)[] = [];
    const first = withCheckoutLock(
      dir,
      async () => {
        events.push('first start');
        await sleep(300);
        events.push('first end');
      },
      { pollMs: 20 },
    );
    await sleep(50); // the first holds it
    const second = withCheckoutLock(
      dir,
      () => {
        events.push('second start');
        return 'second result';
      },
      { pollMs: 20, onWait: (holder) => waited.push(holder) },
    );
    expect(await second).toBe('second result');
    await first;
    expect(events).toEqual(['first start', 'first end', 'second start']);
    expect(waited).toEqual([process.pid]); // told once, with the holder's pid
    expect(existsSync(dir)).toBe(false); // released
  });

  it('releases the lock when the run fails, and passes the failure on', async () => {
    const dir = lockDir();
    await expect(withCheckoutLock(dir, () => Promise.reject(new Error('osls failed')))).rejects.toThrow('osls failed');
    expect(existsSync(dir)).toBe(false);
    const waited: unknown[] = [];
    expect(await withCheckoutLock(dir, () => 'next', { onWait: (holder) => waited.push(holder) })).toBe('next');
    expect(waited).toEqual([]);
  });

  it('takes over a lock left by a run that is gone, without waiting', async () => {
    const dir = lockDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'pid'), String(deadPid()));
    const waited: unknown[] = [];
    expect(await withCheckoutLock(dir, () => 'ran', { onWait: (holder) => waited.push(holder) })).toBe('ran');
    expect(waited).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  it('waits on a lock without a pid while it is fresh (a run taking it), takes it over once old', async () => {
    const dir = lockDir();
    mkdirSync(dir, { recursive: true });
    const waited: unknown[] = [];
    let ran = false;
    const run = withCheckoutLock(dir, () => (ran = true), {
      pollMs: 20,
      pidlessStaleMs: 60_000,
      onWait: (holder) => waited.push(holder),
    });
    await sleep(150);
    expect(ran).toBe(false);
    expect(waited).toEqual([undefined]);
    const old = new Date(Date.now() - 120_000);
    utimesSync(dir, old, old); // now older than pidlessStaleMs
    await run;
    expect(ran).toBe(true);
  });

  it('is what a packaging holds: packageServices waits for the holder, and says so, before running osls', async () => {
    const dir = lockDir();
    const order: string[] = [];
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const holder = withCheckoutLock(dir, async () => {
        await sleep(400);
        order.push('holder done');
      });
      await sleep(50);
      // osls cannot start with this NODE_OPTIONS: the packaging fails as soon as it runs
      const error = await packageServices(join(root, 'out'), {
        lock: dir,
        env: { ...process.env, NODE_OPTIONS: '--no-such-flag' },
      }).then(
        () => undefined,
        (failure: unknown) => {
          order.push('packaging ran and failed');
          return failure;
        },
      );
      await holder;
      expect(order).toEqual(['holder done', 'packaging ran and failed']);
      expect(String(error)).toMatch(/osls package --stage prod --config serverless\.yml .* failed/);
      expect(said.mock.calls.flat().join('\n')).toContain(
        `Waiting for another packaging or deploy in this checkout to end (pid ${process.pid}; ${dir})`,
      );
      expect(existsSync(dir)).toBe(false); // released after the failure
    } finally {
      said.mockRestore();
    }
    expect(OSLS_LOCK).toBe(join(import.meta.dirname, '..', '..', '.surco', 'locks', 'osls')); // the checkout's own, by default
  });
});
