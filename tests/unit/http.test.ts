// lib/http: body parsing and the error dialects.
import { describe, expect, it } from 'vitest';
import { Conflict, DomainError, ExpiredToken, Forbidden, Invalid, TooLarge } from '../../lib/errors';
import { parseBody, rawBody } from '../../lib/http/body';
import { generalDialect, internalDialect, spotsDialect } from '../../lib/http/dialects';

describe('request bodies', () => {
  it('decodes base64 bodies from API Gateway and enforces the size limit', () => {
    const body = Buffer.from('{"a":1}').toString('base64');
    expect(rawBody({ body, isBase64Encoded: true, headers: {} }, 100)?.toString()).toBe('{"a":1}');
    expect(() => rawBody({ body: 'x'.repeat(101), headers: {} }, 100)).toThrow(TooLarge);
  });

  const type = (contentType: string) => ({ 'content-type': contentType });

  it('parses JSON, forms (repeated keys as arrays) and JSON sent as text/plain', async () => {
    expect(await parseBody(Buffer.from('{"a":[1]}'), type('application/json'), 100)).toEqual({ a: [1] });
    expect(await parseBody(Buffer.from('a=1&b=x+y&a=2'), type('application/x-www-form-urlencoded'), 100)).toEqual({
      a: ['1', '2'],
      b: 'x y',
    });
    expect(await parseBody(Buffer.from('[{"name":"x"}]'), type('text/plain'), 100)).toEqual([{ name: 'x' }]);
    await expect(parseBody(Buffer.from('{"a":'), type('application/json'), 100)).rejects.toThrow(Invalid);
  });
});

describe('dialects', () => {
  it('renders the general dialect with the spec codes and statuses', () => {
    expect(generalDialect.render(new Invalid('bad'), 'r')).toEqual({
      status: 400,
      body: { res: 'error', code: -4, info: 'bad' },
    });
    expect(generalDialect.render(new ExpiredToken(), 'r').body).toMatchObject({ code: -2 });
    expect(generalDialect.render(new Conflict('dup', { code: 4 }), 'r')).toEqual({
      status: 409,
      body: { res: 'error', code: 4, info: 'dup' },
    });
    expect(generalDialect.render(new Forbidden('no', { code: 7 }), 'r').status).toBe(403);
  });

  it('hides the message of unexpected errors and gives the request id instead', () => {
    const rendered = generalDialect.render(new DomainError('internal', 'secret detail at x.ts:1'), 'req-1');
    expect(rendered.status).toBe(500);
    expect(rendered.body).toEqual({
      res: 'error',
      code: -1,
      info: 'The requested action failed to execute',
      request_id: 'req-1',
    });
  });

  it('keeps the text the contract names for an internal error, still without details', () => {
    const error = new DomainError('internal', 'image could not be stored', { code: 51, publicMessage: true });
    expect(spotsDialect.render(error, 'req-2')).toEqual({
      status: 500,
      body: { code: 51, info: 'image could not be stored', request_id: 'req-2' },
    });
  });

  it('renders the internal dialect as {code, info}', () => {
    expect(internalDialect.render(new Invalid('bad'), 'r')).toEqual({ status: 400, body: { code: -4, info: 'bad' } });
  });
});
