// lib/util/first-use.ts: a kit's loader runs its import once, whoever calls it; `preload` starts it
// early and leaves a failure to the request that awaits the kit; lib/http/endpoint.ts preloads a
// route's kits for every request it answers.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { generalDialect } from '../../lib/http/dialects';
import { endpoint } from '../../lib/http/endpoint';
import { defineRoute } from '../../lib/http/route';
import { onFirstUse, preload } from '../../lib/util/first-use';

describe('modules loaded on first use', () => {
  it('loads once, at the first call, and hands every caller the same module', async () => {
    let loads = 0;
    const kit = onFirstUse(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([kit(), kit()]);
    expect(await kit()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('preload starts the load without waiting, and the later call gets the module it started', async () => {
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const kit = onFirstUse(async () => {
      loads++;
      await gate;
      return { ready: true };
    });
    expect(preload(kit)).toBeUndefined();
    expect(loads).toBe(1);
    release();
    expect(await kit()).toEqual({ ready: true });
    expect(loads).toBe(1);
  });

  it('preload of a failing load throws nothing and leaves no unhandled rejection; the request awaiting the kit gets the error', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const kit = onFirstUse(() => Promise.reject(new Error('chunk missing')));
      preload(kit);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      await expect(kit()).rejects.toThrow('chunk missing');
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

describe("an endpoint's preloaded kits (EndpointSpec.preload)", () => {
  const route = defineRoute({
    operationId: 'preloading',
    method: 'get',
    paths: ['/preloading'],
    summary: 'a route whose every answer needs a kit',
    tags: ['test'],
    auth: 'none',
    dialect: generalDialect,
    handler: 'functions/test/preloading.get',
    request: { query: z.strictObject({ n: z.string().check(z.regex(/^\d+$/)) }) },
    responses: { 200: { description: 'ok' } },
  });
  const event = (query: Record<string, string>) =>
    ({
      httpMethod: 'GET',
      path: '/preloading',
      resource: '/preloading',
      headers: {},
      queryStringParameters: query,
      pathParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'req' },
    }) as unknown as APIGatewayProxyEvent;
  const context = { awsRequestId: 'req', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

  it('starts loading them before the handler runs, once per container, and not for a request it refuses', async () => {
    let loads = 0;
    const kit = onFirstUse(async () => ({ loaded: ++loads }));
    const seen: number[] = [];
    const handler = endpoint(route, {
      preload: [kit],
      handler: async () => {
        seen.push(loads); // before the handler awaits anything
        return { kit: await kit() };
      },
    });
    const refused = await handler(event({ n: 'x' }), context);
    expect(refused.statusCode).toBe(400);
    expect(loads).toBe(0);
    const answered = await handler(event({ n: '1' }), context);
    expect([answered.statusCode, JSON.parse(answered.body)]).toEqual([200, { kit: { loaded: 1 } }]);
    await handler(event({ n: '2' }), context);
    expect(seen).toEqual([1, 1]);
    expect(loads).toBe(1);
  });

  it("answers a kit that fails to load as the handler's own error, a 500 in the route's dialect", async () => {
    const kit = onFirstUse(() => Promise.reject(new Error('chunk missing')));
    const handler = endpoint(route, { preload: [kit], handler: async () => ({ kit: await kit() }) });
    const result = await handler(event({ n: '1' }), context);
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('chunk missing');
  });
});
