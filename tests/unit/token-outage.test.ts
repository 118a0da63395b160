// Token verification when the table cannot be read: a DynamoDB outage is a 500 with a
// request id, not a 401 that would tell a client its good token is bad. Runs the real handler of
// GET /api/getcultivos (a bearer route answered buffered) in this process against a DynamoDB
// endpoint that refuses connections.
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { handlerWithUnreachableTable, LAMBDA_REQUEST_ID } from '../helpers/unreachable-table';

let call: Awaited<ReturnType<typeof handlerWithUnreachableTable>>['call'];
let token: string;

beforeAll(async () => {
  const loaded = await handlerWithUnreachableTable();
  call = loaded.call;
  token = await new SignJWT({ uid: 'u', locale: 'es', claims: ['*'] })
    .setProtectedHeader({ alg: 'EdDSA', kid: loaded.key.kid })
    .setSubject('1')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(loaded.key.privateKey);
});

describe('token verification during a DynamoDB outage', () => {
  it('answers 500 with the request id, not 401, when the signing key cannot be read', async () => {
    const response = await call(`Bearer ${token}`);
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      res: 'error',
      code: -1,
      info: 'The requested action failed to execute',
      request_id: LAMBDA_REQUEST_ID,
    });
  });

  it('still answers 401 -3 for a token that is not a JWT, without reading the table', async () => {
    const response = await call('Bearer not-a-token');
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ res: 'error', code: -3 });
  });
});
