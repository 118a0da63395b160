import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from '../../scripts/local/stack';

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
      Math.random = () => (first ? ((first = false), (taken - 20_000 + 0.5) / 12_000) : original());
      const [port] = await freePorts(1).finally(() => (Math.random = original));
      expect(port).not.toBe(taken);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
