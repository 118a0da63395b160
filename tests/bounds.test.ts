// docs/decisions.md, "Bounds": every geometry, text, object and list a client sends has a bound
// checked before anything is written, answering the area's 400. Bounds of an area that has its
// own test file are tested there (spots: tests/spots.test.ts; sensors: tests/unit/sensor-codec.test.ts
// and tests/sensors.test.ts; storage objects: tests/storage.test.ts); this file holds the geometry
// bounds shared by every area and the list bounds of filters.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../lib/db/keys';
import { formatNumber } from '../lib/geo/bounds';
import { GEOMETRY_LIMITS } from '../lib/geo/geometry';
import { PADDOCK_MAX_VERTICES } from '../lib/livestock/paddocks';
import { call, createField, internal, newUser, square, stack, type TestUser } from './helpers/api';

/** A polygon of `vertices` vertices (the closing one counted, as the bound counts them) around (lon, lat). */
function ring(vertices: number, lon: number, lat: number, radius: number, digits = 13): string {
  const distinct = vertices - 1;
  const points = Array.from({ length: distinct }, (_, i) => {
    const angle = (2 * Math.PI * i) / distinct;
    return `${(lon + radius * Math.cos(angle)).toFixed(digits)} ${(lat + radius * Math.sin(angle)).toFixed(digits)}`;
  });
  return `POLYGON((${[...points, points[0]].join(',')}))`;
}

/** A WKT as the API writes it back: numbers with at most 12 decimals. */
const asWritten = (wkt: string) => wkt.replace(/-?\d+\.\d+/g, (n) => formatNumber(Number(n)));

async function fieldItem(fieldId: number): Promise<Record<string, any>> {
  const { endpoints, table } = stack();
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: 'us-east-1',
      endpoint: endpoints.dynamodb,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    }),
  );
  return (await db.send(new GetCommand({ TableName: table, Key: keys.field(fieldId) }))).Item!;
}

const agregar = (user: TestUser, shape: string) =>
  call('POST', '/api/agregarlote', {
    token: user.token,
    form: { nombre: 'bounded', shape, nombrecampo: 'Bounds farm' },
  });

describe('geometry bounds', () => {
  it(`fields: a GPS-traced boundary of ${GEOMETRY_LIMITS.VERTICES} vertices at full precision is stored whole (packed, in one record); one more is code 10; nothing is left behind`, async () => {
    const user = await newUser();
    const detailed = ring(GEOMETRY_LIMITS.VERTICES, -60.5, -33.9, 0.005);
    expect(detailed.length).toBeGreaterThan(1_500_000);
    const largest = await agregar(user, detailed);
    expect(largest.status).toBe(200);
    const over = await agregar(user, ring(GEOMETRY_LIMITS.VERTICES + 1, -60.5, -33.9, 0.005));
    expect([over.status, over.body.code]).toEqual([400, 10]);
    expect(over.body.info).toContain(`${GEOMETRY_LIMITS.VERTICES} vertices`);
    const long = await agregar(user, `POLYGON((${'-60.5 -33.9,'.repeat(GEOMETRY_LIMITS.CHARS / 10)}-60.5 -33.9))`);
    expect([long.status, long.body.code]).toEqual([400, 10]);
    const listing = (await call('GET', '/api/getfields', { token: user.token })).body;
    const farms = Object.values(listing.user.farms as Record<string, { fields: Record<string, any> }>);
    const fields = farms.flatMap((farm) => Object.keys(farm.fields));
    expect(fields).toEqual([String(largest.body.id_lote)]);
    // every vertex comes back as sent (to the 12 decimals the API writes)
    const polygon: string = farms.flatMap((farm) => Object.values(farm.fields))[0].shapes.current.polygon;
    expect(polygon).toBe(asWritten(detailed));
    // kept in one record, packed
    const item = await fieldItem(Number(largest.body.id_lote));
    expect(item.polygon).toBeUndefined();
    expect(item.polygon_packed.byteLength).toBeLessThan(350_000);
  });

  it(`season shapes: ${GEOMETRY_LIMITS.VERTICES} vertices are stored, one more is INVALID_GEOMETRY (never a 500)`, async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(-60.5, -33.9, 0.01) });
    const campaign = new Date().getUTCFullYear();
    const post = (shape: string) =>
      call('POST', '/api/fields/v2/shapes', { token: user.token, json: { field_id: fieldId, campaign, shape } });
    // inside the field: no reprocessing lock in the way of the second request
    expect((await post(ring(GEOMETRY_LIMITS.VERTICES + 1, -60.495, -33.895, 0.004))).body.code).toBe(
      'INVALID_GEOMETRY',
    );
    const detailed = ring(GEOMETRY_LIMITS.VERTICES, -60.495, -33.895, 0.004);
    expect((await post(detailed)).status).toBe(200);
    const listing = (await call('GET', '/api/getfields', { token: user.token })).body;
    const [field] = Object.values(listing.user.farms as Record<string, { fields: Record<string, any> }>).flatMap(
      (farm) => Object.values(farm.fields),
    );
    expect(field.shapes.current.polygon).toBe(asWritten(detailed));
  });

  it(`paddocks: at most ${PADDOCK_MAX_VERTICES} vertices (INVALID_GEOMETRY beyond)`, async () => {
    const user = await newUser();
    const { fieldId } = await createField(user, { shape: square(-60.5, -33.9, 0.02) });
    const paddock = (vertices: number) =>
      call('POST', '/livestock/paddock', {
        token: user.token,
        json: {
          field_id: fieldId,
          name: 'P',
          date: '2026-05-10T12:00:00Z',
          shape: ring(vertices, -60.49, -33.89, 0.004),
        },
      });
    expect((await paddock(PADDOCK_MAX_VERTICES)).status).toBe(200);
    const over = await paddock(PADDOCK_MAX_VERTICES + 1);
    expect([over.status, over.body.code]).toEqual([400, 'INVALID_GEOMETRY']);
    expect(
      (await call('GET', '/livestock/paddock', { token: user.token, query: { field_id: fieldId } })).body.data,
    ).toHaveLength(1);
  });
});

describe('list bounds of filters and bodies', () => {
  const many = (count: number, make: (i: number) => string | number) =>
    Array.from({ length: count }, (_, i) => make(i));

  it('rotations: at most 100 ids in a filter and 50 items in a metadata list (the item refused, -4)', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const list = (query: Record<string, string>) => call('GET', '/api/rotations', { token: user.token, query });
    expect((await list({ fields_id: many(100, (i) => i + 1).join(',') })).status).toBe(200);
    const over = await list({ fields_id: many(101, (i) => i + 1).join(',') });
    expect([over.status, over.body.code]).toEqual([400, -4]);
    const year = new Date().getUTCFullYear();
    const item = (utilization: number[]) => ({
      field_id: fieldId,
      crop_id: 1,
      yeargroup: year,
      start_date: `${year}-01-01T00:00:00Z`,
      end_date: `${year}-06-01T00:00:00Z`,
      metadata: { utilization },
    });
    const refused = await call('POST', '/api/rotations', {
      token: user.token,
      json: [item(many(51, () => 1) as number[])],
    });
    expect(refused.status).toBe(200);
    expect(refused.body.data.created_ones).toEqual([]);
    expect(refused.body.data.unabled_to_be_created[0].reason).toMatchObject({
      error_code: -4,
      error_msg: expect.stringContaining('utilization'),
    });
    expect((await list({})).body.data).toEqual([]);
  });

  it('spots: at most 100 uuids in a filter', async () => {
    const user = await newUser();
    const query = (count: number) => ({ uuid: many(count, () => randomUUID()).join(',') });
    expect((await call('GET', '/api/spots/spot', { token: user.token, query: query(100) })).status).toBe(200);
    const over = await call('GET', '/api/spots/spot', { token: user.token, query: query(101) });
    expect([over.status, over.body.code]).toEqual([400, -4]);
  });

  it('farm metadata: at most 100 farm ids', async () => {
    const user = await newUser();
    const { farmId } = await createField(user);
    const get = (ids: number[]) =>
      call('GET', '/api/farms/metadata', { token: user.token, query: { farms_id: ids.join(',') } });
    expect((await get([farmId])).status).toBe(200);
    const over = await get(many(101, () => farmId) as number[]);
    expect([over.status, over.body.info]).toEqual([400, 'Error could not get metadata']);
  });

  it('storage: at most 100 ids and 100 keys per GET (-4)', async () => {
    const user = await newUser();
    const { fieldId } = await createField(user);
    const get = (json: unknown) =>
      call('POST', '/api/mktplace/storage/fields', { token: user.token, query: { operation: 'GET' }, json });
    const ids = await get({ ids: many(101, (i) => i + 1), keys: [] });
    expect([ids.status, ids.body.info.code]).toEqual([400, -4]);
    const keys = await get({ ids: [1], keys: many(101, (i) => `k${i}`) });
    expect([keys.status, keys.body.info.code]).toEqual([400, -4]);
    expect((await get({ ids: many(100, () => fieldId), keys: many(100, (i) => `k${i}`) })).status).toBe(200);
  });

  it('internal API: at most 100 features and claims', async () => {
    const created = await internal('/internal/users', { user_name: 'bounded', features: many(101, () => 'STORAGE') });
    expect([created.status, created.body.code]).toEqual([400, -4]);
  });
});
