import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePorts, freeStackPorts, startPrivateStack } from '../../scripts/local/stack';

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });

describe('ports for a stack on chosen ports', () => {
  it('are distinct, free, and below the ephemeral range outgoing connections draw from', async () => {
    const ports = await freePorts(12);
    expect(new Set(ports).size).toBe(12);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
      expect(await bindable(port)).toBe(true);
    }
  });

  it('skip a port that is taken', async () => {
    const [taken] = (await freePorts(1)) as [number];
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen({ port: taken, host: '127.0.0.1' }, resolve));
    try {
      const original = Math.random;
      // the first draw lands on the taken port; the next ones anywhere
      let first = true;
      Math.random = () => {
        if (!first) return original();
        first = false;
        return (taken - 20_000 + 0.5) / 12_000;
      };
      const [port] = await freePorts(1).finally(() => {
        Math.random = original;
      });
      expect(port).not.toBe(taken);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('a stack of its own (tests, benchmarks)', () => {
  it('removes its data and build directories when its start fails', async () => {
    const root = resolve(import.meta.dirname, '..', '..');
    const label = `failing${process.pid}`;
    const ports = await freeStackPorts();
    const holder = createServer();
    await new Promise<void>((done) => holder.listen({ port: ports.api, host: '127.0.0.1' }, done));
    try {
      const start = startPrivateStack(label, {
        root,
        ports,
        internalKey: 'k'.repeat(24),
        signingSeed: 's'.repeat(43),
        inMemory: true,
      });
      await expect(start).rejects.toThrow(new RegExp(`port ${ports.api} .* is already in use`));
    } finally {
      await new Promise((done) => holder.close(done));
    }
    const left = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.includes(label)) : []);
    expect(left(join(root, '.surco', 'builds'))).toEqual([]);
    expect(left(tmpdir())).toEqual([]);
  });
});
