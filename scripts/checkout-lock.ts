// One osls run at a time in a checkout. osls and the functions' build (deploy/build.cjs) work in the
// repository's own .serverless/ and .surco/package-build/, so two packagings at once (`npm run package` while `npm test`
// packages, the cold-start benchmark, a deploy) overwrote each other's builds and zips. A whole
// packaging (scripts/package.ts) or deploy (scripts/deploy.ts) holds this lock, through
// withOslsLock: a directory created atomically, holding the holder's pid; the next run waits for it
// and says so, and takes over a lock whose holder is gone (a killed run leaves its directory behind).
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LockOptions {
  /** How often a waiting run looks again. */
  pollMs?: number;
  /** A lock directory without a pid older than this is a run that died while taking it. */
  pidlessStaleMs?: number;
  /** Told once, when the lock is held by another run (its pid, undefined if not written yet). */
  onWait?: (holder: number | undefined) => void;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, owned by someone else
  }
};

const holderOf = (dir: string): number | undefined => {
  try {
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/** Whether the lock in `dir` belongs to no running process (removed then by whoever sees it first). */
function isStale(dir: string, pidlessStaleMs: number): boolean {
  const holder = holderOf(dir);
  if (holder !== undefined) return !alive(holder);
  try {
    return Date.now() - statSync(dir).mtimeMs > pidlessStaleMs;
  } catch {
    return false; // released meanwhile: the next attempt takes it
  }
}

/** Runs `fn` holding the lock directory `dir`, waiting while another live process holds it. */
export async function withCheckoutLock<T>(
  dir: string,
  fn: () => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  mkdirSync(dirname(dir), { recursive: true });
  let told = false;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(dir, options.pidlessStaleMs ?? 10_000)) {
      // renamed first, so that of two runs seeing the same stale lock only one removes it
      const aside = `${dir}.stale-${process.pid}-${Date.now()}`;
      try {
        renameSync(dir, aside);
        rmSync(aside, { recursive: true, force: true });
      } catch {
        // another run moved it first
      }
      continue;
    }
    if (!told) {
      told = true;
      options.onWait?.(holderOf(dir));
    }
    await sleep(options.pollMs ?? 500);
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
