// The real handler of GET /api/getcultivos (a bearer route answered buffered), run in this process
// against a DynamoDB endpoint that refuses connections: a token that made the verifier read the
// table answers 500, one refused from its header alone answers 401 (tests/unit/forged-tokens,
// tests/unit/token-outage).
import { createServer } from 'node:net';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;

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

/** The Lambda request id an answer of the handler carries. */
export const LAMBDA_REQUEST_ID = 'lambda-request-1';
const context = { awsRequestId: LAMBDA_REQUEST_ID, getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

/**
 * Points the process at an unreachable table, bucket and queue, then loads the handler: `call`
 * sends it an Authorization header; `key` is the platform's signing key (from the same seed).
 */
export async function handlerWithUnreachableTable() {
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
  const handler = (await import('../../functions/crops/getcultivos')).get as unknown as Handler;
  return { key, call: (authorization: string) => handler(event(authorization), context) };
}
