// The messages a caller reads in a 400 are zod's English ones. Schemas are built with zod/mini,
// which ships no messages (it would say "Invalid input" for everything); lib/util/issues.ts
// installs the English locale the classic build used, for every function built on the endpoint
// factory. The expected texts are those zod's classic build gave for the same schemas.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { generalDialect } from '../../lib/http/dialects';
import { endpoint } from '../../lib/http/endpoint';
import { defineRoute } from '../../lib/http/route';

const probe = endpoint(
  defineRoute({
    operationId: 'messageProbe',
    method: 'post',
    paths: ['/probe'],
    summary: 'probe',
    tags: ['test'],
    auth: 'none',
    dialect: generalDialect,
    handler: 'functions/probe.post',
    request: {
      body: z.strictObject({
        name: z.string().check(z.minLength(2)),
        n: z.number().check(z.int()),
        k: z.enum(['a', 'b']),
      }),
    },
    responses: { 200: { description: 'ok' } },
  }),
  { handler: async ({ body }) => ({ received: body }) },
);

const post = (body: unknown) =>
  probe(
    {
      httpMethod: 'POST',
      path: '/probe',
      resource: '/probe',
      headers: { 'Content-Type': 'application/json' },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      body: JSON.stringify(body),
      isBase64Encoded: false,
      requestContext: { requestId: 'r' } as APIGatewayProxyEvent['requestContext'],
    } as APIGatewayProxyEvent,
    { awsRequestId: 'l' } as Context,
  );

describe('validation messages (zod/mini with the English locale)', () => {
  it('names the rule each field breaks, as zod words it', async () => {
    const response = await post({ name: 'x', n: 1.5, k: 'c', extra: 1 });
    expect(response.statusCode).toBe(400);
    const text = response.body;
    expect(text).toContain('name: Too small: expected string to have >=2 characters');
    expect(text).toContain('n: Invalid input: expected int, received number');
    expect(text).toContain('k: Invalid option: expected one of \\"a\\"|\\"b\\"');
    expect(text).toContain('Unrecognized key: \\"extra\\"');
  });

  it('says which type was expected and which arrived', async () => {
    const response = await post({ name: 3, k: 'a' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('name: Invalid input: expected string, received number');
    expect(response.body).toContain('n: Invalid input: expected number, received undefined');
    expect(response.body).not.toContain('Invalid input;');
  });

  it('accepts what the schema allows', async () => {
    const response = await post({ name: 'ok', n: 2, k: 'b' });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ received: { name: 'ok', n: 2, k: 'b' } });
  });
});
