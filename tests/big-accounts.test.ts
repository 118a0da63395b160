// Big accounts (docs/deploy.md, "Large answers"): an answer that grows with the account is streamed,
// so it reaches the client whatever its size, where a buffered one would pass Lambda's 6 MB (the
// local gateway answers that 502, as API Gateway does: tests/unit/local-api.test.ts).
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createField, newUser, stack, type TestUser } from './helpers/api';
import { walkedRing } from './helpers/shapes';

const FIELDS = 12;
const VERTICES = 20_000;
let user: TestUser;
let farmId: number;
const fieldIds: number[] = [];

beforeAll(async () => {
  user = await newUser();
  // twelve fields of 20,000 vertices: about 6.7 MB of WKT, more than a buffered answer may hold
  for (let i = 0; i < FIELDS; i += 2) {
    const made = await Promise.all(
      [i, i + 1].map((k) =>
        createField(user, {
          name: `walked ${k}`,
          shape: walkedRing(-61 + k * 0.02, -35, 0.005, VERTICES),
          ...(farmId ? { farmId } : { farmName: 'Estancia grande' }),
        }),
      ),
    );
    farmId ??= made[0]!.farmId;
    fieldIds.push(...made.map((f) => f.fieldId));
  }
}, 240_000);

describe('GET /api/getfields of an account over 6 MB', () => {
  it('answers 200 with the whole structure, streamed', async () => {
    const started = performance.now();
    const response = await call('GET', '/api/getfields', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.text.length).toBeGreaterThan(6 * 1024 * 1024);
    const farms = Object.values(response.body.user.farms) as any[];
    const listed = farms.flatMap((farm) => Object.values(farm.fields) as any[]);
    expect(listed.map((f) => f.id).sort((a, b) => a - b)).toEqual([...fieldIds].sort((a, b) => a - b));
    for (const field of listed) expect(field.shapes.current.polygon.split(',')).toHaveLength(VERTICES + 1);
    expect(farms[0].bbox).toMatch(/^POLYGON\(\(/);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('is gzip-compressed for a client that accepts it', async () => {
    // node's http client leaves the body as it travelled (fetch would decompress it)
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>(
      (resolve, reject) => {
        const url = new URL('/api/getfields', stack().baseUrl);
        get(url, { headers: { authorization: `Bearer ${user.token}`, 'accept-encoding': 'gzip, deflate' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
        }).on('error', reject);
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    const document = gunzipSync(answer.bytes);
    expect(JSON.parse(document.toString()).user.farms[String(farmId)].fields[String(fieldIds[0])].id).toBe(fieldIds[0]);
    expect(answer.bytes.length).toBeLessThan(document.length / 2);
  });
});

describe('key-value storage: a GET of every key over 6 MB', () => {
  it('answers 200 with every object, streamed', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    // twenty objects of 340 KB (each under the 350 KB a value may hold): about 6.8 MB of JSON
    const text = 'v'.repeat(340 * 1024);
    const keys = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    for (let i = 0; i < keys.length; i += 5) {
      const puts = await Promise.all(
        keys.slice(i, i + 5).map((key) =>
          call('POST', '/api/mktplace/storage/fields', {
            token: owner.token,
            query: { operation: 'PUT' },
            json: { id: fieldId, key, data: { key, text }, overwrite: false },
          }),
        ),
      );
      expect(puts.map((p) => p.body.info.code)).toEqual([0, 0, 0, 0, 0]);
    }
    const read = await call('POST', '/api/mktplace/storage/fields', {
      token: owner.token,
      query: { operation: 'GET' },
      json: { ids: [fieldId], keys: [] },
    });
    expect(read.status).toBe(200);
    expect(read.text.length).toBeGreaterThan(6 * 1024 * 1024);
    const objects = read.body.info.objects[String(fieldId)];
    expect(Object.keys(objects).sort()).toEqual(keys);
    for (const key of keys) expect(objects[key]).toEqual({ key, text });
  });
});
