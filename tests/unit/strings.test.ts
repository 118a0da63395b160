// Well-formed Unicode: every text a request carries is checked once, in the
// handler factory, for every route: a lone surrogate (JSON's "x\ud800.pdf") is the area's 400 and
// the handler never runs; texts stored before the check are encoded without a URIError.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { sensorsDialect, spotsDialect, storageDialect } from '../../lib/http/dialects';
import { endpoint } from '../../lib/http/endpoint';
import { contentDisposition } from '../../lib/http/reply';
import { defineRoute } from '../../lib/http/route';
import { encodeRfc5987, illFormedText, isWellFormed, toWellFormed } from '../../lib/util/text';

const LONE = 'x\ud800.pdf';

describe('well-formed texts', () => {
  it('tells lone high and low surrogates from pairs', () => {
    expect(isWellFormed('Fósforo 💧')).toBe(true);
    expect(isWellFormed(LONE)).toBe(false);
    expect(isWellFormed('\udc00x')).toBe(false);
    expect(isWellFormed('x\ud83d')).toBe(false);
    expect(isWellFormed('\ud83d\udca7\udca7')).toBe(false);
    expect(toWellFormed('a\ud800b\udc00💧')).toBe('a\ufffdb\ufffd💧');
  });

  it('finds the first ill-formed text of a parsed request: members, keys, items, uploaded file names; not file bytes', () => {
    expect(illFormedText({ a: ['ok', { b: LONE }] })).toEqual(['a', 1, 'b']);
    expect(illFormedText({ [LONE]: 1 })).toEqual([LONE]);
    expect(
      illFormedText({ img: { filename: LONE, mimetype: 'image/png', content: Buffer.from([0xed, 0xa0, 0x80]) } }),
    ).toEqual(['img', 'filename']);
    expect(illFormedText({ img: { filename: 'a.png', content: Buffer.from('\ud800') } })).toBeUndefined();
    expect(illFormedText({ name: 'Fósforo 💧', n: 1, t: true, z: null })).toBeUndefined();
    // a body nested 20,000 deep is walked in one pass
    let deep: unknown = LONE;
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const started = performance.now();
    expect(illFormedText(deep)).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('encodes a stored name with a lone surrogate for a download without a URIError', () => {
    expect(() => encodeURIComponent(LONE)).toThrow(URIError);
    expect(encodeRfc5987(LONE)).toBe('x%EF%BF%BD.pdf');
    expect(contentDisposition(LONE)).toBe(`attachment; filename="x.pdf"; filename*=UTF-8''x%EF%BF%BD.pdf`);
  });
});

const route = (dialect = spotsDialect) =>
  defineRoute({
    operationId: 'stringProbe',
    method: 'post',
    paths: ['/probe/{name}'],
    summary: 'probe',
    tags: ['test'],
    auth: 'none',
    dialect,
    handler: 'functions/probe.post',
    request: { body: z.looseObject({ name: z.optional(z.string()) }), validateBody: false },
    responses: { 200: { description: 'ok' } },
  });

const event = (body: string, extra: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent =>
  ({
    httpMethod: 'POST',
    path: '/probe/x',
    resource: '/probe/{name}',
    headers: { 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { name: 'x' },
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: { requestId: 'r' } as APIGatewayProxyEvent['requestContext'],
    ...extra,
  }) as APIGatewayProxyEvent;

describe('the handler factory refuses lone surrogates on every route', () => {
  const context = { awsRequestId: 'l' } as Context;
  const probe = (dialect = spotsDialect) => {
    const calls: unknown[] = [];
    const handler = endpoint(route(dialect), { handler: async ({ body }) => void calls.push(body) });
    return { calls, handler };
  };

  it("answers a lone surrogate in a JSON member, a JSON key, a query value or a path parameter with the area's 400, before the handler", async () => {
    for (const [what, request] of [
      ['member', event('{"name":"x\\ud800.pdf"}')],
      ['low surrogate', event('{"name":"\\udc00"}')],
      ['key', event('{"x\\ud800":1}')],
      ['nested', event('{"texts":[{"text":"ok"},{"text":"\\ud83d"}]}')],
      ['query', event('{}', { queryStringParameters: { q: LONE } })],
      ['path', event('{}', { pathParameters: { name: LONE } })],
    ] as const) {
      const { calls, handler } = probe();
      const response = await handler(request, context);
      expect([what, response.statusCode, JSON.parse(response.body).code]).toEqual([what, 400, -4]);
      expect(JSON.parse(response.body).info).toMatch(/well-formed Unicode/);
      expect(calls).toEqual([]);
    }
    const sensors = await probe(sensorsDialect).handler(event('{"name":"x\\ud800"}'), context);
    expect([sensors.statusCode, JSON.parse(sensors.body).code]).toEqual([400, 'PARAMETER_ERROR']);
    const storage = await probe(storageDialect).handler(event('{"name":"x\\ud800"}'), context);
    expect(storage.statusCode).toBe(400);
  });

  it('lets well-formed texts through (emoji pairs, accents)', async () => {
    const { calls, handler } = probe();
    const response = await handler(event('{"name":"Fósforo \\ud83d\\udca7"}'), context);
    expect(response.statusCode).toBe(200);
    expect(calls).toEqual([{ name: 'Fósforo 💧' }]);
  });
});
