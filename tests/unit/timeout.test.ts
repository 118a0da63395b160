// lib/http/endpoint.ts: a request whose work outlives the function's timeout minus
// TIMEOUT_MARGIN_MS is answered 503 in the route's dialect, with its request id, before Lambda
// cuts the function (and the gateway answers its own timeout without either).

import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { generalDialect } from '../../lib/http/dialects';
import { endpoint, TIMED_OUT, TIMEOUT_MARGIN_MS } from '../../lib/http/endpoint';
import { defineRoute } from '../../lib/http/route';

const route = defineRoute({
  operationId: 'slow',
  method: 'get',
  paths: ['/slow'],
  summary: 'a handler that takes its time',
  tags: ['test'],
  auth: 'none',
  dialect: generalDialect,
  handler: 'functions/test/slow.get',
  responses: { 200: { description: 'done' } },
});

const event = {
  httpMethod: 'GET',
  path: '/slow',
  resource: '/slow',
  headers: {},
  queryStringParameters: null,
  pathParameters: null,
  body: null,
  isBase64Encoded: false,
  requestContext: { requestId: 'req-slow' },
} as unknown as APIGatewayProxyEvent;
const context = (remainingMs: number) => {
  const deadline = Date.now() + remainingMs;
  return { awsRequestId: 'req-slow', getRemainingTimeInMillis: () => deadline - Date.now() } as unknown as Context;
};

describe('answering before the function times out', () => {
  it('answers 503 with the request id when the work outlives the timeout margin', async () => {
    const slow = endpoint(route, {
      handler: () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 3_000)),
    });
    const started = performance.now();
    const result = await slow(event, context(TIMEOUT_MARGIN_MS + 300));
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body)).toEqual({
      res: 'error',
      code: -1,
      info: TIMED_OUT,
      request_id: expect.any(String),
    });
  });

  it('answers normally when the work finishes in time', async () => {
    const quick = endpoint(route, { handler: async () => ({ done: true }) });
    const result = await quick(event, context(TIMEOUT_MARGIN_MS + 300));
    expect([result.statusCode, JSON.parse(result.body)]).toEqual([200, { done: true }]);
  });
});
