// lib/util/stack.ts: an error thrown in a minified bundle is logged at its source file and line,
// read from the bundle's source map on demand (the functions run without --enable-source-maps).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../lib/log';
import { originalStack } from '../../lib/util/stack';

// each bundle stays until the tests end: a stack is mapped by reading the bundle's map from disk
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function bundled(source: string, sourcemap: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'surco-stack-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'handler.ts'), source);
  const outfile = join(dir, 'handler.mjs');
  await build({
    entryPoints: [join(dir, 'handler.ts')],
    bundle: true,
    minify: true,
    sourcemap,
    sourcesContent: false,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'error',
  });
  // maps without the sources' text, as deployed (deploy/esbuild.yml); a plain Node process, as Lambda runs the bundle (the test runner maps stacks on its own)
  const script = `const m = await import(${JSON.stringify(pathToFileURL(outfile).href)}); try { m.handler(); } catch (e) { process.stdout.write(e.stack); }`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (!run.stdout) throw new Error(`the handler did not throw: ${run.stderr}`);
  return run.stdout;
}

const SOURCE = [
  'export function fail(): never {',
  "  throw new Error('no such herd');",
  '}',
  'export const handler = () => fail();',
  '',
].join('\n');

describe('stacks in source lines', () => {
  it('maps frames of a minified bundle to the source file, line and column', async () => {
    const stack = await bundled(SOURCE, true);
    expect(stack).toMatch(/handler\.mjs:1:\d+/);
    const mapped = originalStack(stack);
    expect(mapped).toContain('handler.ts:2:');
    expect(mapped).toContain('handler.ts:4:');
    expect(mapped).not.toMatch(/handler\.mjs:1:/);
    expect(mapped.split('\n')[0]).toBe('Error: no such herd');
  });

  it('leaves frames without a source map as they are', async () => {
    const stack = await bundled(SOURCE, false);
    expect(originalStack(stack)).toBe(stack);
    expect(originalStack('Error: x\n    at node:internal/foo:1:2')).toBe('Error: x\n    at node:internal/foo:1:2');
  });

  it('logs an error with its mapped stack', async () => {
    const stack = await bundled(SOURCE, true);
    const error = Object.assign(new Error('no such herd'), { stack });
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.stubEnv('SURCO_LOG_LEVEL', 'info');
    try {
      createLogger().error('unexpected', { error });
      const entry = JSON.parse(String(write.mock.calls[0]![0])) as { error: { stack: string } };
      expect(entry.error.stack).toContain('handler.ts:2:');
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
