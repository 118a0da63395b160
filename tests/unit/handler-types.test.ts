// A handler's answer is typed by its route's documented success body (lib/http/route.ts
// SuccessBody, lib/http/endpoint.ts SpecFor): the type check (`tsgo -p .`, run by npm test and
// npm run typecheck) fails where a handler answers something else. The lines marked with an
// `@ts-expect-error` must not compile; if one did, the check would fail on the unused directive.

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { generalDialect } from '../../lib/http/dialects';
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { defineRoute } from '../../lib/http/route';

const route = defineRoute({
  operationId: 'typed',
  method: 'get',
  paths: ['/typed'],
  summary: 'a route with a documented success body',
  tags: ['test'],
  auth: 'none',
  dialect: generalDialect,
  handler: 'functions/test/typed.get',
  responses: {
    200: {
      description: 'ok',
      schema: z.object({ res: z.literal('ok'), count: z.number(), names: z.array(z.string()) }),
    },
  },
});

describe("a handler's answer is its route's documented body", () => {
  it('compiles a handler that answers the documented body, a Reply, or fails', () => {
    const answers = endpoint(route, { handler: async () => ({ res: 'ok', count: 1, names: ['a'] }) });
    const replies = endpoint(route, { handler: async () => Reply.empty(204) });
    expect(typeof answers).toBe('function');
    expect(typeof replies).toBe('function');
  });

  it('does not compile a handler that answers another shape', () => {
    const wrong = [
      // @ts-expect-error a literal the document does not allow
      endpoint(route, { handler: async () => ({ res: 'error', count: 1, names: [] }) }),
      // @ts-expect-error a member of the wrong type
      endpoint(route, { handler: async () => ({ res: 'ok', count: '1', names: [] }) }),
      // @ts-expect-error a documented member missing
      endpoint(route, { handler: async () => ({ res: 'ok', count: 1 }) }),
      // @ts-expect-error null where the document says a list
      endpoint(route, { handler: async () => ({ res: 'ok', count: 1, names: null }) }),
    ];
    expect(wrong).toHaveLength(4);
  });
});
