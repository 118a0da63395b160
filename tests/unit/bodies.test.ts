// Every body kind a Lambda event carries, read by the one handler factory: a body cut short or
// malformed is a 400 in the route's dialect, never a thrown error or a crashed process; an
// anonymous caller never reaches the parser (401 first).
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { sensorsDialect, spotsDialect } from '../../lib/http/dialects';
import { endpoint } from '../../lib/http/endpoint';
import { defineRoute } from '../../lib/http/route';

const route = (auth: 'none' | 'bearer', dialect = spotsDialect) =>
  defineRoute({
    operationId: 'bodyProbe',
    method: 'post',
    paths: ['/probe'],
    summary: 'probe',
    tags: ['test'],
    auth,
    dialect,
    handler: 'functions/probe.post',
    request: { body: z.looseObject({ name: z.string() }), validateBody: false },
    responses: { 200: { description: 'ok' } },
  });

const echo = (auth: 'none' | 'bearer', dialect = spotsDialect) =>
  endpoint(route(auth, dialect), { handler: async ({ body }) => ({ received: body }) });

const event = (
  body: string,
  contentType: string,
  base64 = false,
  headers: Record<string, string> = {},
): APIGatewayProxyEvent =>
  ({
    httpMethod: 'POST',
    path: '/probe',
    resource: '/probe',
    headers: { 'Content-Type': contentType, ...headers },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
    requestContext: { requestId: 'r' } as APIGatewayProxyEvent['requestContext'],
  }) as APIGatewayProxyEvent;

const context = { awsRequestId: 'l' } as Context;
const TRUNCATED =
  '--x\r\nContent-Disposition: form-data; name="img"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabcd';

describe('bodies of every kind', () => {
  for (const base64 of [false, true]) {
    const how = base64 ? 'base64' : 'plain';
    it(`answers a multipart body cut inside a file part with 400 in the dialect (${how})`, async () => {
      const response = await echo('none')(event(TRUNCATED, 'multipart/form-data; boundary=x', base64), context);
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ code: -4, info: expect.stringContaining('multipart') });
    });

    it(`answers malformed JSON and forms with 400 in the dialect (${how})`, async () => {
      const json = await echo('none', sensorsDialect)(event('{"name": ', 'application/json', base64), context);
      expect([json.statusCode, JSON.parse(json.body).code]).toEqual([400, 'PARAMETER_ERROR']);
      const form = await echo('none')(event('name=%E0%A4%A', 'application/x-www-form-urlencoded', base64), context);
      expect(form.statusCode).toBe(200); // URLSearchParams keeps what it cannot decode
      expect(JSON.parse(form.body).received).toEqual({ name: expect.any(String) });
    });

    it(`reads a whole multipart body (${how})`, async () => {
      const whole = `${TRUNCATED}\r\n--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nvalue\r\n--x--\r\n`;
      const response = await echo('none')(event(whole, 'multipart/form-data; boundary=x', base64), context);
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.body).received.name).toBe('value');
    });
  }

  it('answers an anonymous caller 401 before reading its body, however broken', async () => {
    for (const [body, type] of [
      [TRUNCATED, 'multipart/form-data; boundary=x'],
      ['{"name": ', 'application/json'],
      ['x'.repeat(2 * 1024 * 1024), 'application/json'],
    ]) {
      const response = await echo('bearer')(event(body!, type!), context);
      expect(response.statusCode).toBe(401);
      expect(JSON.parse(response.body)).toMatchObject({ code: -3 });
    }
  });
});
