// The shared HTTP behaviour of the handler factory (issue "Foundation" sections 1 and 6):
// unknown routes, malformed and oversized bodies, request ids, the OpenAPI document.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GEOMETRY_ROUTE_MAX_BYTES } from '../lib/geo/bounds';
import { allRoutes, openApiDocument } from '../schemas/index';
import { call, newUser, square, stack, unique } from './helpers/api';

describe('errors never reach the client as 500s or stack traces', () => {
  it('answers unknown routes with 404 in the general dialect', async () => {
    const response = await call('GET', '/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ res: 'error', code: -1, info: expect.stringContaining('route not found') });
  });

  it('answers a path no route declares in the dialect of the area its prefix belongs to (maps, sensors, livestock, spots)', async () => {
    const user = await newUser();
    const cases: Array<[string, (body: any) => void]> = [
      [
        '/api/users/me/maps/1/nothing/here',
        (body) => expect(body).toMatchObject({ res: 'Error', info: 'Map not found' }),
      ],
      ['/sensors/nothing/here/at/all', (body) => expect(body).toMatchObject({ code: 'NOT_FOUND' })],
      ['/api/livestock/nothing/here/at/all', (body) => expect(body).toMatchObject({ res: 'error', code: 'NOT_FOUND' })],
      ['/api/spots/nothing/here/at/all', (body) => expect(body).toMatchObject({ code: 404 })],
    ];
    for (const [path, check] of cases) {
      const response = await call('GET', path, { token: user.token });
      expect(response.status, path).toBe(404);
      check(response.body);
      // not the general dialect's body
      expect(response.body, path).not.toMatchObject({ res: 'error', code: -1 });
    }
  });

  it('answers malformed JSON with 400 -4', async () => {
    const response = await call('POST', '/internal/users', {
      body: '{"user_name": "x",',
      headers: { 'content-type': 'application/json', 'x-internal-key': stack().internalKey },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: -4, info: expect.stringContaining('JSON') });
  });

  it('answers wrong types with 400 -4 naming the member', async () => {
    const response = await call('POST', '/internal/users', {
      json: { user_name: 42 },
      headers: { 'x-internal-key': stack().internalKey },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(-4);
    expect(response.body.info).toContain('user_name');
  });

  it("answers a body over its route's limit with 413: 1 MiB by default, 4 MiB where a detailed boundary is sent", async () => {
    const user = await newUser();
    const rotations = await call('POST', '/rotations', {
      token: user.token,
      body: JSON.stringify([{ note: 'x'.repeat(1_100_000) }]),
      headers: { 'content-type': 'application/json' },
    });
    expect(rotations.status).toBe(413);
    expect(rotations.body).toEqual({ res: 'error', code: -4, info: expect.any(String) });
    const field = (shape: string) =>
      call('POST', '/api/agregarlote', {
        token: user.token,
        body: `nombre=x&nombrecampo=Farm&shape=${shape}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    // over 1 MiB but under 4 MiB: read, and refused for what it says (not a polygon), not for its size
    expect((await field('0'.repeat(1_100_000))).body.code).toBe(2);
    const over = await field('0'.repeat(GEOMETRY_ROUTE_MAX_BYTES));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ res: 'error', code: -4, info: expect.any(String) });
  });

  it('reads multipart/form-data bodies as forms', async () => {
    const user = await newUser();
    const form = new FormData();
    form.set('nombre', unique('multipart'));
    form.set('shape', square(-60.1, -34.1));
    form.set('nombrecampo', unique('farm').slice(0, 40));
    const response = await call('POST', '/api/agregarlote', { token: user.token, body: form });
    expect(response.status).toBe(200);
    expect(response.body.id_lote).toMatch(/^\d+$/);
  });

  it('answers a multipart body it cannot read with 415 in the dialect', async () => {
    const user = await newUser();
    const response = await call('POST', '/api/agregarlote', {
      token: user.token,
      body: '--a b\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary="a b"' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ res: 'error', code: -4, info: expect.any(String) });
  });

  it('gives every response a request id and no stack trace', async () => {
    const response = await call('GET', '/api/getfields');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.text).not.toMatch(/at .*\.(ts|js|mjs):\d+/);
  });
});

describe('OpenAPI 3.1 generated from the zod schemas', () => {
  it('is served without a token and documents every route', async () => {
    const response = await call('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    for (const route of allRoutes.filter((r) => !r.undocumented)) {
      for (const path of route.paths) expect(response.body.paths[path]?.[route.method]).toBeDefined();
    }
    expect(response.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    // the function's bundle (schemas marked pure by the build, ADR 0008) serves the committed document
    expect(response.body).toEqual(JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8')));
  });

  it('is committed in docs/openapi.json and up to date (npm run openapi)', () => {
    const committed = JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(openApiDocument());
  });
});

describe('CORS: browser extensions', () => {
  it("answers the preflight of every declared path with the allowed origin, headers and the path's methods", async () => {
    for (const [path, methods] of [
      ['/api/getfields', 'OPTIONS,GET'],
      ['/spots/spot', 'OPTIONS,POST,GET,PATCH,DELETE'],
      ['/api/rotations/2f1c8a4e-0000-4000-8000-000000000000', 'OPTIONS,GET,PATCH'],
    ] as const) {
      const response = await call('OPTIONS', path, {
        headers: {
          origin: 'https://extension.example.com',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe(methods);
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
      expect(response.headers.get('access-control-max-age')).toBe('600');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('lets the browser read answers and errors: the origin, the request id exposed, no credentials', async () => {
    const user = await newUser();
    const ok = await call('GET', '/api/getfields', {
      token: user.token,
      headers: { origin: 'https://extension.example.com' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    const refused = await call('GET', '/livestock/herd', { headers: { origin: 'https://extension.example.com' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers OPTIONS on a path no route declares with the 404 of unknown routes', async () => {
    const response = await call('OPTIONS', '/api/does-not-exist', {
      headers: { origin: 'https://extension.example.com' },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ res: 'error', code: -1, info: expect.stringContaining('route not found') });
  });
});

describe('hostile requests never bring the API down', () => {
  const TRUNCATED =
    '--x\r\nContent-Disposition: form-data; name="img"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabcd';

  it('answers a multipart body cut inside a file part: 401 when anonymous, 400 in the dialect otherwise, and keeps serving', async () => {
    const anonymous = await call('POST', '/api/agregarlote', {
      body: TRUNCATED,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, -3]);
    const user = await newUser();
    for (const [path, expected] of [
      ['/api/agregarlote', { res: 'error', code: -4 }],
      ['/api/spots/msgs/imgs?uuid=2d7f2d30-c91b-11f0-8de9-0242ac120002', { code: -4 }],
      ['/sensors/v2/providers/variablegroups', { res: 'error', code: 'PARAMETER_ERROR' }],
    ] as const) {
      const response = await call(path.includes('imgs') ? 'PUT' : 'POST', path, {
        token: user.token,
        body: TRUNCATED,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(response.status, path).toBe(400);
      expect(response.body, path).toMatchObject(expected);
    }
    expect((await call('GET', '/openapi.json')).status).toBe(200);
    expect((await call('GET', '/api/getfields', { token: user.token })).status).toBe(200);
  });

  it("answers a body over API Gateway's 10 MB with 413 in the area's dialect", async () => {
    const user = await newUser();
    const big = 'x'.repeat(10 * 1024 * 1024 + 10);
    const general = await call('POST', '/api/agregarlote', {
      token: user.token,
      body: big,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([general.status, general.body]).toEqual([413, { res: 'error', code: -4, info: expect.any(String) }]);
    const sensors = await call('POST', '/sensors/v2/providers/values/variables', {
      token: user.token,
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect([sensors.status, sensors.body.res, sensors.body.code]).toEqual([413, 'error', 'PARAMETER_ERROR']);
  });

  it('answers a 64 KB Authorization header with 431 in the dialect, not an empty answer', async () => {
    const response = await call('GET', '/livestock/herd', {
      headers: { authorization: `Bearer ${'a'.repeat(64 * 1024)}` },
    });
    expect(response.status).toBe(431);
    expect(response.body).toEqual({ res: 'error', code: 'PARAMETER_ERROR', info: expect.stringContaining('headers') });
  });
});

describe('the local stack of the tests', () => {
  it('builds its functions in a directory of its own, never in .surco/build, which a running npm start of this checkout serves from', () => {
    const root = join(import.meta.dirname, '..');
    const { buildDir } = stack();
    expect(relative(root, buildDir)).toMatch(/^\.surco[\\/]builds[\\/]test-/);
    // what the local API runs: the handler modules and its manifest (scripts/local/api.ts)
    expect(existsSync(join(buildDir, 'functions', 'fields', 'getfields.mjs'))).toBe(true);
    expect(JSON.parse(readFileSync(join(buildDir, 'local-api.json'), 'utf8')).buildDir).toBe(buildDir);
  });
});
