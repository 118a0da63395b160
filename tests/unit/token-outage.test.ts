// Token verification when the table cannot be read: a DynamoDB outage is a 500 with a
// request id, not a 401 that would tell a client its good token is bad. Runs the real handler of
// GET /api/getcultivos (a bearer route answered buffered) in this process against a DynamoDB
// endpoint that refuses connections.
import { createServer } from 'node:net';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';

const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const event = (authorization: string): APIGatewayProxyEvent =>
  ({
    httpMethod: 'GET',
    path: '/api/getcultivos',
    resource: '/api/getcultivos',
    headers: { Authorization: authorization },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'api-request-1' } as APIGatewayProxyEvent['requestContext'],
  }) as APIGatewayProxyEvent;

const context = { awsRequestId: 'lambda-request-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;
let token: string;

beforeAll(async () => {
  Object.assign(process.env, {
    SURCO_TABLE: 'unreachable',
    SURCO_BUCKET: 'unreachable',
    SURCO_EVENTS_QUEUE_URL: 'http://127.0.0.1:1/000000000000/unreachable',
    SURCO_DYNAMODB_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
    SURCO_SIGNING_SEED: 'seed-for-this-test',
    SURCO_LOG_LEVEL: 'silent',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'x',
    AWS_REGION: 'us-east-1',
  });
  const { deriveSigningKey } = await import('../../lib/auth/tokens');
  const key = await deriveSigningKey('seed-for-this-test');
  token = await new SignJWT({ uid: 'u', locale: 'es', claims: ['*'] })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
    .setSubject('1')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key.privateKey);
  handler = (await import('../../functions/crops/getcultivos')).get as unknown as typeof handler;
});

describe('token verification during a DynamoDB outage', () => {
  it('answers 500 with the request id, not 401, when the signing key cannot be read', async () => {
    const response = await handler(event(`Bearer ${token}`), context);
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      res: 'error',
      code: -1,
      info: 'The requested action failed to execute',
      request_id: 'lambda-request-1',
    });
  });

  it('still answers 401 -3 for a token that is not a JWT, without reading the table', async () => {
    const response = await handler(event('Bearer not-a-token'), context);
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ res: 'error', code: -3 });
  });
});
