// Spec 1, "Sensors" (/sensors/v2): variable groups, variables, values; the eight functionalities;
// isolation between extensions and users; the values rules; reading values; the bulk path.

import { createHash, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { call, createUser, eventually, internal, stack, tokenFor } from './helpers/api';

const V2 = '/sensors/v2/providers';
const ALL = [
  'VARIABLE_GROUPS_CREATE',
  'VARIABLE_GROUPS_READ',
  'VARIABLE_GROUPS_UPDATE',
  'VARIABLE_GROUPS_DELETE',
  'VARIABLES_CREATE',
  'VARIABLES_READ',
  'VARIABLES_UPDATE',
  'VARIABLES_DELETE',
];
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

interface Sensors {
  user: Awaited<ReturnType<typeof createUser>>;
  token: string;
}

async function extension(
  user?: Sensors['user'],
  options: { extension_id?: string; claims?: string[] } = {},
): Promise<Sensors> {
  const owner = user ?? (await createUser());
  return {
    user: owner,
    token: await tokenFor(owner.id, {
      claims: options.claims ?? ALL,
      extension_id: options.extension_id ?? 'weather-station',
    }),
  };
}

const as = (s: Sensors | string) => (typeof s === 'string' ? s : s.token);
const api = (
  who: Sensors | string,
  method: string,
  path: string,
  json?: unknown,
  query?: Record<string, string | number>,
) => call(method, `${V2}${path}`, { token: as(who), json, query });

async function group(who: Sensors, extra: Record<string, unknown> = {}) {
  const response = await api(who, 'POST', '/variablegroups', { group_name: 'Estación 1', ...extra });
  if (response.status !== 200) throw new Error(response.text);
  return response.body.data;
}

async function variable(who: Sensors, groupUuid: string, name = 'temperature') {
  const response = await api(who, 'POST', '/variables', {
    group_uuid: groupUuid,
    variable: { variable_name: name, device: 'T-01', metadata: { unit: '°C' } },
  });
  if (response.status !== 200) throw new Error(response.text);
  return response.body.data;
}

const values = (who: Sensors, data: unknown) => api(who, 'POST', '/values/variables', { data });
const read = (who: Sensors | string, variableUuid: string, query: Record<string, string | number> = {}) =>
  api(who, 'GET', '/values/variables', undefined, { variable_uuid: variableUuid, ...query });

describe('variable groups', () => {
  it('creates a group with the defaults of rule 1', async () => {
    const ext = await extension();
    const response = await api(ext, 'POST', '/variablegroups', { group_name: 'Estación Norte', device: 'SN-123' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      res: 'ok',
      info: 'variable group created successfully',
      data: {
        group_uuid: expect.any(String),
        created_at: expect.stringMatching(TS),
        deleted_at: null,
        group_name: 'Estación Norte',
        user_group_name: null,
        device: 'SN-123',
        position: null,
        user_position: null,
        timezone_offset: 0,
        metadata: {},
        variables: [],
      },
    });
  });

  it('accepts every listed field, with variables, and refuses others', async () => {
    const ext = await extension();
    const uuid = randomUUID();
    const created = await group(ext, {
      group_uuid: uuid,
      created_at: '2026-01-02T03:04:05Z',
      user_group_name: 'Mi estación',
      position: 'POINT(-60 -34)',
      user_position: 'POINT(-60.1 -34.1)',
      timezone_offset: -180,
      metadata: { licenses: { soy: true } },
      variables: [{ variable_name: 'humidity' }],
    });
    expect(created).toMatchObject({
      group_uuid: uuid,
      created_at: '2026-01-02T03:04:05Z',
      user_group_name: 'Mi estación',
      timezone_offset: -180,
      metadata: { licenses: { soy: true } },
    });
    expect(created.variables).toHaveLength(1);
    expect(created.variables[0]).toMatchObject({
      variable_name: 'humidity',
      group_uuid: uuid,
      last_value: null,
      last_value_time: null,
      deleted_at: null,
    });
    const deep = (levels: number): Record<string, unknown> => (levels === 0 ? { leaf: 1 } : { n: deep(levels - 1) });
    for (const body of [
      { device: 'x' },
      { group_name: 'x', color: 'red' },
      { group_name: 'x', timezone_offset: null },
      { group_name: 'x', created_at: 'yesterday' },
      { group_name: 'x', created_at: '2026-02-30T00:00:00Z' },
      // free-form objects within docs/decisions.md's bounds: no empty keys, 16 levels
      { group_name: 'x', metadata: { '': 1 } },
      { group_name: 'x', metadata: { a: [{ '': 1 }] } },
      { group_name: 'x', metadata: deep(40) },
    ]) {
      const response = await api(ext, 'POST', '/variablegroups', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ res: 'error', code: 'PARAMETER_ERROR', info: 'Parameters error' });
    }
  });

  it('returns the same group for a repeated group_uuid', async () => {
    const ext = await extension();
    const uuid = randomUUID();
    const first = await group(ext, { group_uuid: uuid });
    const second = await group(ext, { group_uuid: uuid });
    expect(second).toEqual(first);
    expect((await api(ext, 'GET', '/variablegroups')).body.data).toHaveLength(1);
  });

  it('updates every field but user_group_name and user_position, which are ignored', async () => {
    const ext = await extension();
    const g = await group(ext, { user_group_name: 'Original', user_position: 'POINT(1 1)' });
    const response = await api(ext, 'PATCH', '/variablegroups', {
      group_uuid: g.group_uuid,
      group_name: 'Renombrada',
      device: 'SN-9',
      timezone_offset: 60,
      metadata: { licenses: {} },
      user_group_name: 'Cambiado',
      user_position: 'POINT(2 2)',
    });
    expect(response.body).toMatchObject({ res: 'ok', info: 'variable group updated successfully' });
    expect(response.body.data).toMatchObject({
      group_name: 'Renombrada',
      device: 'SN-9',
      timezone_offset: 60,
      user_group_name: 'Original',
      user_position: 'POINT(1 1)',
    });
  });

  it('soft-deletes a group and its variables', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    const response = await api(ext, 'DELETE', '/variablegroups', { group_uuid: g.group_uuid });
    expect(response.body).toEqual({ res: 'ok', info: 'variable group deleted successfully' });
    const [listed] = (await api(ext, 'GET', '/variablegroups', undefined, { group_uuid: g.group_uuid })).body.data;
    expect(listed.deleted_at).toMatch(TS);
    expect(listed.variables[0].deleted_at).toMatch(TS);
    const refused = await values(ext, [
      { variable_uuid: v.variable_uuid, values: [1], timestamps: ['2026-01-01T00:00:00Z'] },
    ]);
    expect([refused.status, refused.body.code]).toEqual([404, 'VARIABLE_NOT_FOUND']);
    expect(
      (await api(ext, 'POST', '/variables', { group_uuid: g.group_uuid, variable: { variable_name: 'x' } })).body.code,
    ).toBe('VARIABLE_CREATE_ERROR');
  });

  it('answers VARIABLEGROUP_NOT_FOUND for unknown groups', async () => {
    const ext = await extension();
    const response = await api(ext, 'GET', '/variablegroups', undefined, { group_uuid: randomUUID() });
    expect([response.status, response.body]).toEqual([
      404,
      {
        res: 'error',
        code: 'VARIABLEGROUP_NOT_FOUND',
        info: 'Variable group could not be found',
        detail: expect.any(String),
      },
    ]);
  });
});

describe('variables', () => {
  it('creates a variable, answering group_id (integer) instead of group_uuid', async () => {
    const ext = await extension();
    const g = await group(ext);
    const response = await api(ext, 'POST', '/variables', {
      group_uuid: g.group_uuid,
      variable: { variable_name: 'rain', device: 'R-1', metadata: { unit: 'mm' } },
    });
    expect(response.body).toEqual({
      res: 'ok',
      info: 'variable created successfully',
      data: {
        variable_uuid: expect.any(String),
        created_at: expect.stringMatching(TS),
        deleted_at: null,
        variable_name: 'rain',
        user_variable_name: 'rain',
        device: 'R-1',
        metadata: { unit: 'mm' },
        last_value: null,
        last_value_time: null,
        group_id: expect.any(Number),
      },
    });
    expect(response.body.data.group_uuid).toBeUndefined();
  });

  it('updates only variable_name, device and metadata; other keys are not applied', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    const response = await api(ext, 'PATCH', '/variables', {
      variable_uuid: v.variable_uuid,
      variable_name: 'air temperature',
      device: 'T-02',
      metadata: { unit: 'K' },
      created_at: '2000-01-01T00:00:00Z',
      last_value: 99,
      user_variable_name: 'mine',
    });
    expect(response.body).toMatchObject({ res: 'ok', info: 'variable updated successfully' });
    expect(response.body.data).toMatchObject({
      variable_name: 'air temperature',
      device: 'T-02',
      metadata: { unit: 'K' },
      created_at: v.created_at,
      last_value: null,
      user_variable_name: 'temperature',
      group_id: v.group_id,
    });
  });

  it('soft-deletes a variable', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    expect((await api(ext, 'DELETE', '/variables', { variable_uuid: v.variable_uuid })).body).toEqual({
      res: 'ok',
      info: 'variable deleted successfully',
    });
    const [listed] = (await api(ext, 'GET', '/variablegroups')).body.data;
    expect(listed.variables[0].deleted_at).toMatch(TS);
    expect((await api(ext, 'PATCH', '/variables', { variable_uuid: randomUUID(), variable_name: 'x' })).body.code).toBe(
      'VARIABLE_NOT_FOUND',
    );
  });
});

describe('functionalities, authentication and isolation', () => {
  it('checks the functionality of each operation (PERMISSION_ERROR)', async () => {
    const owner = await createUser();
    const full = await extension(owner);
    const g = await group(full);
    const v = await variable(full, g.group_uuid);
    const without = async (claim: string) => extension(owner, { claims: ALL.filter((c) => c !== claim) });
    const cases: Array<[string, string, string, unknown, Record<string, string>?]> = [
      ['VARIABLE_GROUPS_READ', 'GET', '/variablegroups', undefined],
      ['VARIABLE_GROUPS_CREATE', 'POST', '/variablegroups', { group_name: 'x' }],
      ['VARIABLE_GROUPS_UPDATE', 'PATCH', '/variablegroups', { group_uuid: g.group_uuid, group_name: 'x' }],
      ['VARIABLE_GROUPS_DELETE', 'DELETE', '/variablegroups', { group_uuid: g.group_uuid }],
      ['VARIABLES_CREATE', 'POST', '/variables', { group_uuid: g.group_uuid, variable: { variable_name: 'x' } }],
      ['VARIABLE_GROUPS_UPDATE', 'PATCH', '/variables', { variable_uuid: v.variable_uuid, variable_name: 'x' }],
      ['VARIABLES_DELETE', 'DELETE', '/variables', { variable_uuid: v.variable_uuid }],
      ['VARIABLES_CREATE', 'POST', '/values/variables', { data: [] }],
      ['VARIABLES_READ', 'GET', '/values/variables', undefined, { variable_uuid: v.variable_uuid }],
    ];
    for (const [claim, method, path, json, query] of cases) {
      const response = await api(await without(claim), method, path, json, query);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        res: 'error',
        code: 'PERMISSION_ERROR',
        info: 'The User is not allowed to execute the specified action over the requested resource',
        detail: expect.any(String),
      });
    }
  });

  it('needs the functionalities enabled for the user too (plan)', async () => {
    const user = await createUser({ features: ['VARIABLE_GROUPS_READ'] });
    const ext = await extension(user);
    expect((await api(ext, 'GET', '/variablegroups')).status).toBe(200);
    expect((await api(ext, 'POST', '/variablegroups', { group_name: 'x' })).body.code).toBe('PERMISSION_ERROR');
  });

  it('answers UNAUTHORIZED_USER, INVALID_AUTH and EXPIRED_AUTHENTICATION', async () => {
    const none = await call('GET', `${V2}/variablegroups`);
    expect([none.status, none.body]).toEqual([
      401,
      {
        res: 'error',
        code: 'UNAUTHORIZED_USER',
        info: 'Unauthorized attempt to access a protected endpoint',
        detail: expect.any(String),
      },
    ]);
    const invalid = await api('not.a.token', 'GET', '/variablegroups');
    expect([invalid.status, invalid.body.code, invalid.body.info]).toEqual([
      401,
      'INVALID_AUTH',
      'Invalid Authentication token',
    ]);
    const user = await createUser();
    const expired = await api(await tokenFor(user.id, { ttl_s: 0, claims: ALL }), 'GET', '/variablegroups');
    expect([expired.status, expired.body.code, expired.body.info]).toEqual([
      401,
      'EXPIRED_AUTHENTICATION',
      'Expired Authentication token',
    ]);
  });

  it('keeps two extensions of one user apart; the user sees both', async () => {
    const owner = await createUser();
    const a = await extension(owner, { extension_id: 'ext-a' });
    const b = await extension(owner, { extension_id: 'ext-b' });
    const ga = await group(a);
    const va = await variable(a, ga.group_uuid);
    await group(b);
    expect((await api(a, 'GET', '/variablegroups')).body.data.map((g: any) => g.group_uuid)).toEqual([ga.group_uuid]);
    // another extension's records are answered as records nobody made (nothing tells they exist)
    expect((await api(b, 'GET', '/variablegroups', undefined, { group_uuid: ga.group_uuid })).body.code).toBe(
      'VARIABLEGROUP_NOT_FOUND',
    );
    expect((await api(b, 'PATCH', '/variablegroups', { group_uuid: ga.group_uuid, group_name: 'x' })).body.code).toBe(
      'VARIABLEGROUP_NOT_FOUND',
    );
    expect((await api(b, 'DELETE', '/variables', { variable_uuid: va.variable_uuid })).body.code).toBe(
      'VARIABLE_NOT_FOUND',
    );
    const write = await values(b, [
      { variable_uuid: va.variable_uuid, values: [1], timestamps: ['2026-01-01T00:00:00Z'] },
    ]);
    const nobodys = await values(b, [
      { variable_uuid: randomUUID(), values: [1], timestamps: ['2026-01-01T00:00:00Z'] },
    ]);
    expect([write.status, write.body.code]).toEqual([404, 'VARIABLE_NOT_FOUND']);
    expect([write.status, write.body.code, write.body.info]).toEqual([
      nobodys.status,
      nobodys.body.code,
      nobodys.body.info,
    ]);
    await values(a, [{ variable_uuid: va.variable_uuid, values: [21.5], timestamps: ['2026-01-01T00:00:00Z'] }]);
    const session = (await internal('/internal/tokens', { user_id: owner.id, claims: ALL })).body.data.access_token;
    expect((await api(session, 'GET', '/variablegroups')).body.data).toHaveLength(2);
    expect((await read(session, va.variable_uuid)).body.data.values).toEqual([21.5]);
    expect((await api(session, 'POST', '/variablegroups', { group_name: 'x' })).body.code).toBe('PERMISSION_ERROR');
  });

  it('keeps users apart', async () => {
    const a = await extension();
    const b = await extension();
    const ga = await group(a);
    expect((await api(b, 'GET', '/variablegroups')).body.data).toEqual([]);
    const theirs = await api(b, 'GET', '/variablegroups', undefined, { group_uuid: ga.group_uuid });
    expect([theirs.status, theirs.body.code]).toEqual([404, 'VARIABLEGROUP_NOT_FOUND']);
  });

  it('answers unknown sensor routes in the sensors dialect', async () => {
    const ext = await extension();
    const response = await call('GET', '/sensors/v2/providers/nothing', { token: ext.token });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ res: 'error', code: 'NOT_FOUND' });
  });
});

describe('POST /providers/values/variables', () => {
  async function oneVariable() {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    return { ext, g, v };
  }
  const lastValue = async (ext: Sensors, groupUuid: string) =>
    (await api(ext, 'GET', '/variablegroups', undefined, { group_uuid: groupUuid })).body.data[0].variables[0];

  it("inserts values: {res:'ok', info:'values inserted'}; they read back with their metadata", async () => {
    const { ext, g, v } = await oneVariable();
    const response = await values(ext, [
      {
        variable_uuid: v.variable_uuid,
        values: [20.5, 21, 19.75],
        timestamps: ['2026-03-01T10:00:00Z', '2026-03-01T10:10:00Z', '2026-03-02T00:00:00Z'],
        metadata: [{}, { q: 'ok' }, {}],
      },
    ]);
    expect([response.status, response.body]).toEqual([200, { res: 'ok', info: 'values inserted' }]);
    const stored = await read(ext, v.variable_uuid);
    expect(stored.body.data).toEqual({
      variable_uuid: v.variable_uuid,
      timestamps: ['2026-03-01T10:00:00Z', '2026-03-01T10:10:00Z', '2026-03-02T00:00:00Z'],
      values: [20.5, 21, 19.75],
      metadata: [{}, { q: 'ok' }, {}],
      next_cursor: null,
    });
    expect(await lastValue(ext, g.group_uuid)).toMatchObject({
      last_value: 19.75,
      last_value_time: '2026-03-02T00:00:00Z',
    });
  });

  it('keeps last_value at the latest timestamp when batches arrive out of order; a repeated timestamp: last write wins', async () => {
    const { ext, g, v } = await oneVariable();
    await values(ext, [{ variable_uuid: v.variable_uuid, values: [5], timestamps: ['2026-03-05T00:00:00Z'] }]);
    await values(ext, [
      { variable_uuid: v.variable_uuid, values: [1, 2], timestamps: ['2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z'] },
    ]);
    expect(await lastValue(ext, g.group_uuid)).toMatchObject({
      last_value: 5,
      last_value_time: '2026-03-05T00:00:00Z',
    });
    await values(ext, [
      { variable_uuid: v.variable_uuid, values: [7, 8], timestamps: ['2026-03-05T00:00:00Z', '2026-03-05T00:00:00Z'] },
    ]);
    expect(await lastValue(ext, g.group_uuid)).toMatchObject({
      last_value: 8,
      last_value_time: '2026-03-05T00:00:00Z',
    });
    await values(ext, [{ variable_uuid: v.variable_uuid, values: [1.5], timestamps: ['2026-03-01T00:00:00Z'] }]);
    expect((await read(ext, v.variable_uuid)).body.data.values).toEqual([1.5, 2, 8]);
  });

  it('answers 204 "no values were inserted" when nothing is sent', async () => {
    const { ext, v } = await oneVariable();
    for (const data of [[], [{ variable_uuid: v.variable_uuid, values: [], timestamps: [] }]]) {
      const response = await values(ext, data);
      expect(response.status).toBe(204);
      expect(response.headers.get('x-info')).toBe('no values were inserted');
    }
  });

  it('refuses more than 2,000,000 values with the spec message', async () => {
    const { ext, v } = await oneVariable();
    const response = await values(ext, [
      { variable_uuid: v.variable_uuid, values: new Array(2_000_001).fill(0), timestamps: [] },
    ]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      res: 'error',
      code: 'PARAMETER_ERROR',
      info: 'Total number of values to insert must not exceed 2,000,000',
    });
  });

  it('validates every item: equal lengths, timestamp format, numbers; nothing is stored on error', async () => {
    const { ext, v } = await oneVariable();
    const good = { variable_uuid: v.variable_uuid, values: [1], timestamps: ['2026-03-01T00:00:00Z'] };
    for (const bad of [
      { variable_uuid: v.variable_uuid, values: [1, 2], timestamps: ['2026-03-01T00:00:00Z'] },
      { variable_uuid: v.variable_uuid, values: [1], timestamps: ['2026-03-01 00:00:00'] },
      { variable_uuid: v.variable_uuid, values: ['1'], timestamps: ['2026-03-01T00:00:00Z'] },
      { variable_uuid: v.variable_uuid, values: [1], timestamps: ['2026-03-01T00:00:00Z'], metadata: [] },
      { variable_uuid: 'nope', values: [1], timestamps: ['2026-03-01T00:00:00Z'] },
    ]) {
      const response = await values(ext, [good, bad]);
      expect([response.status, response.body.code]).toEqual([400, 'PARAMETER_ERROR']);
    }
    expect((await read(ext, v.variable_uuid)).body.data.values).toEqual([]);
  });

  it('stores a dense day (40,000 values) in time parts and reads it all back in pages', async () => {
    const { ext, v } = await oneVariable();
    const start = Date.parse('2026-04-01T00:00:00Z') / 1000;
    const n = 40_000;
    const timestamps = Array.from(
      { length: n },
      (_, i) => `${new Date((start + i * 2) * 1000).toISOString().slice(0, 19)}Z`,
    );
    const data = Array.from({ length: n }, (_, i) => i / 10);
    expect((await values(ext, [{ variable_uuid: v.variable_uuid, values: data, timestamps }])).status).toBe(200);
    let cursor: string | undefined;
    const seen: number[] = [];
    do {
      const page = await read(ext, v.variable_uuid, { limit: 10_000, ...(cursor ? { cursor } : {}) });
      seen.push(...page.body.data.values);
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(data);
  });
});

describe('reading values', () => {
  it('pages by limit and cursor and downsamples by interval', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    const timestamps = Array.from({ length: 6 }, (_, i) => `2026-05-01T00:${String(i * 10).padStart(2, '0')}:00Z`);
    await values(ext, [{ variable_uuid: v.variable_uuid, values: [1, 3, 5, 7, 9, 11], timestamps }]);
    const first = await read(ext, v.variable_uuid, { limit: 4 });
    expect(first.body.data.values).toEqual([1, 3, 5, 7]);
    const second = await read(ext, v.variable_uuid, { limit: 4, cursor: first.body.data.next_cursor });
    expect(second.body.data).toMatchObject({ values: [9, 11], next_cursor: null });
    const ranged = await read(ext, v.variable_uuid, { from: '2026-05-01T00:10:00Z', to: '2026-05-01T00:30:00Z' });
    expect(ranged.body.data.values).toEqual([3, 5, 7]);
    const hourly = await read(ext, v.variable_uuid, { interval: 1800 });
    expect(hourly.body.data).toEqual({
      variable_uuid: v.variable_uuid,
      interval: 1800,
      timestamps: ['2026-05-01T00:00:00Z', '2026-05-01T00:30:00Z'],
      min: [1, 7],
      max: [5, 11],
      mean: [3, 9],
      count: [3, 3],
      next_cursor: null,
    });
  });
});

describe('the bulk path', () => {
  const declare = (file: Buffer) => ({ size_bytes: file.length, md5: createHash('md5').update(file).digest('base64') });

  async function bulk(ext: Sensors, body: unknown, gzip = true) {
    const json = Buffer.from(JSON.stringify(body));
    const file = gzip ? gzipSync(json) : json;
    const started = await api(ext, 'POST', '/values/bulk', declare(file));
    expect(started.status).toBe(200);
    const { job_uuid, upload } = started.body.data;
    const form = new FormData();
    for (const [k, value] of Object.entries(upload.fields as Record<string, string>)) form.set(k, value);
    form.set('file', new Blob([file]), 'values.json.gz');
    const s3 = await fetch(upload.url, { method: 'POST', body: form });
    expect(s3.status).toBeLessThan(300);
    const deadline = performance.now() + 30_000;
    for (;;) {
      const status = await api(ext, 'GET', `/values/bulk/${job_uuid}`);
      if (['done', 'failed'].includes(status.body.data.status) || performance.now() > deadline) return status.body.data;
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  it('ingests an uploaded (gzipped) body through the worker and reports the job', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v1 = await variable(ext, g.group_uuid, 'a');
    const v2 = await variable(ext, g.group_uuid, 'b');
    const timestamps = Array.from(
      { length: 5000 },
      (_, i) => `${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().slice(0, 19)}Z`,
    );
    const job = await bulk(ext, {
      data: [
        { variable_uuid: v1.variable_uuid, values: timestamps.map((_, i) => i), timestamps },
        { variable_uuid: v2.variable_uuid, values: timestamps.map((_, i) => -i), timestamps },
      ],
    });
    expect(job).toMatchObject({
      status: 'done',
      values_total: 10_000,
      values_inserted: 10_000,
      variables: 2,
      error: null,
    });
    expect(job.items_written).toBeGreaterThan(0);
    expect(job.write_units).toBeLessThan(100);
    const stored = await read(ext, v2.variable_uuid, { limit: 10_000 });
    expect(stored.body.data.values).toHaveLength(5000);
    expect(stored.body.data.values[4999]).toBe(-4999);
  });

  it('fails the job, storing nothing, for an invalid body', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    const job = await bulk(
      ext,
      { data: [{ variable_uuid: v.variable_uuid, values: [1, 2], timestamps: ['2026-01-01T00:00:00Z'] }] },
      false,
    );
    expect(job).toMatchObject({ status: 'failed', error: { code: 'PARAMETER_ERROR' } });
    expect((await read(ext, v.variable_uuid)).body.data.values).toEqual([]);
  });

  it('fails the job, storing nothing, when the object under its key is not the declared file', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    const declared = Buffer.from(
      JSON.stringify({ data: [{ variable_uuid: v.variable_uuid, values: [1], timestamps: ['2026-01-01T00:00:00Z'] }] }),
    );
    const { job_uuid } = (await api(ext, 'POST', '/values/bulk', declare(declared))).body.data;
    // another file put under the job's key, by whatever way: the worker checks size and MD5 first
    const forged = Buffer.from(
      JSON.stringify({
        data: [{ variable_uuid: v.variable_uuid, values: [666], timestamps: ['2026-01-01T00:00:00Z'] }],
      }),
    );
    const { endpoints, bucket } = stack();
    const s3 = new S3Client({
      region: 'us-east-1',
      endpoint: endpoints.s3,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `sensor-bulk/${job_uuid}`, Body: forged }));
    s3.destroy();
    const job = await eventually(async () => {
      const status = (await api(ext, 'GET', `/values/bulk/${job_uuid}`)).body.data;
      return status.status === 'failed' || status.status === 'done' ? status : undefined;
    });
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'PARAMETER_ERROR', info: expect.stringContaining('not the one declared') },
    });
    expect((await read(ext, v.variable_uuid)).body.data.values).toEqual([]);
  });

  it('keeps jobs to the extension that made them', async () => {
    const owner = await createUser();
    const a = await extension(owner, { extension_id: 'a' });
    const b = await extension(owner, { extension_id: 'b' });
    const { job_uuid } = (await api(a, 'POST', '/values/bulk', declare(Buffer.from('{}')))).body.data;
    expect((await api(b, 'GET', `/values/bulk/${job_uuid}`)).body.code).toBe('NOT_FOUND');
    expect((await api(a, 'GET', `/values/bulk/${job_uuid}`)).body.data.status).toBe('awaiting_upload');
  });
});

describe('sensors follow the contract (rules 1 to 4)', () => {
  it('updates with only the changed properties: group_uuid and device alone (rule 2)', async () => {
    const ext = await extension();
    const g = await group(ext);
    const response = await api(ext, 'PATCH', '/variablegroups', { group_uuid: g.group_uuid, device: 'SN-10' });
    expect([response.status, response.body.res]).toEqual([200, 'ok']);
    expect(response.body.data).toMatchObject({ group_name: 'Estación 1', device: 'SN-10' });
  });

  it('refuses a group whose variables share a variable_uuid with 400 PARAMETER_ERROR, creating nothing', async () => {
    const ext = await extension();
    const uuid = randomUUID();
    const shared = randomUUID();
    const response = await api(ext, 'POST', '/variablegroups', {
      group_uuid: uuid,
      group_name: 'dup',
      variables: [
        { variable_uuid: shared, variable_name: 'a' },
        { variable_uuid: shared, variable_name: 'b' },
      ],
    });
    expect([response.status, response.body.code]).toEqual([400, 'PARAMETER_ERROR']);
    expect((await api(ext, 'GET', '/variablegroups')).body.data).toEqual([]);
  });

  it('refuses impossible timestamps instead of storing another day', async () => {
    const ext = await extension();
    const g = await group(ext);
    const v = await variable(ext, g.group_uuid);
    const response = await values(ext, [
      { variable_uuid: v.variable_uuid, values: [1], timestamps: ['2026-02-30T00:00:00Z'] },
    ]);
    expect([response.status, response.body.code]).toEqual([400, 'PARAMETER_ERROR']);
    expect(
      (await read(ext, v.variable_uuid, { from: '2026-02-01T00:00:00Z', to: '2026-03-31T00:00:00Z' })).body.data.values,
    ).toEqual([]);
    const group2 = await api(ext, 'POST', '/variablegroups', { group_name: 'x', created_at: '2026-04-31T00:00:00Z' });
    expect([group2.status, group2.body.code]).toEqual([400, 'PARAMETER_ERROR']);
  });

  it('deletes through PATCH deleted_at exactly as DELETE does; a deleted group or variable stays deleted', async () => {
    const ext = await extension();
    const uuid = randomUUID();
    const g = await group(ext, { group_uuid: uuid });
    const v = await variable(ext, g.group_uuid);
    const patched = await api(ext, 'PATCH', '/variablegroups', {
      group_uuid: uuid,
      deleted_at: '2026-06-01T00:00:00Z',
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.deleted_at).toBe('2026-06-01T00:00:00Z');
    expect(patched.body.data.variables[0].deleted_at).toBe('2026-06-01T00:00:00Z');
    const refused = await values(ext, [
      { variable_uuid: v.variable_uuid, values: [1], timestamps: ['2026-01-01T00:00:00Z'] },
    ]);
    expect([refused.status, refused.body.code]).toEqual([404, 'VARIABLE_NOT_FOUND']);
    // created again with its uuid: refused, never "created successfully"
    const again = await api(ext, 'POST', '/variablegroups', { group_uuid: uuid, group_name: 'otra vez' });
    expect([again.status, again.body.code]).toEqual([409, 'VARIABLEGROUP_CREATE_ERROR']);
    expect(again.body.info).toBe('Variable group could not be created');
    const undelete = await api(ext, 'PATCH', '/variablegroups', { group_uuid: uuid, deleted_at: null });
    expect([undelete.status, undelete.body.code]).toEqual([409, 'VARIABLEGROUP_UPDATE_ERROR']);
    // a deleted variable's uuid is not created again either
    const other = await group(ext);
    const live = await variable(ext, other.group_uuid, 'humidity');
    expect((await api(ext, 'DELETE', '/variables', { variable_uuid: live.variable_uuid })).status).toBe(200);
    const recreated = await api(ext, 'POST', '/variables', {
      group_uuid: other.group_uuid,
      variable: { variable_uuid: live.variable_uuid, variable_name: 'humidity' },
    });
    expect([recreated.status, recreated.body.code]).toEqual([409, 'VARIABLE_CREATE_ERROR']);
    const edit = await api(ext, 'PATCH', '/variables', { variable_uuid: live.variable_uuid, variable_name: 'x' });
    expect([edit.status, edit.body.code]).toEqual([409, 'VARIABLE_UPDATE_ERROR']);
  });

  it("lets another user or extension use a group or variable uuid one chose, without touching one's records", async () => {
    const owner = await createUser();
    const a = await extension(owner, { extension_id: 'ext-a' });
    const b = await extension(owner, { extension_id: 'ext-b' });
    const stranger = await extension();
    const uuid = randomUUID();
    const variableUuid = randomUUID();
    const made = await api(a, 'POST', '/variablegroups', {
      group_uuid: uuid,
      group_name: 'de A',
      variables: [{ variable_uuid: variableUuid, variable_name: 't' }],
    });
    for (const other of [b, stranger]) {
      const response = await api(other, 'POST', '/variablegroups', {
        group_uuid: uuid,
        group_name: 'otro',
        variables: [{ variable_uuid: variableUuid, variable_name: 't' }],
      });
      expect([response.status, response.body.info]).toEqual([200, 'variable group created successfully']);
      expect(response.body.data.group_name).toBe('otro');
      expect(
        (await values(other, [{ variable_uuid: variableUuid, values: [99], timestamps: ['2026-01-01T00:00:00Z'] }]))
          .status,
      ).toBe(200);
    }
    const [mine] = (await api(a, 'GET', '/variablegroups', undefined, { group_uuid: uuid })).body.data;
    expect(mine).toMatchObject({ group_name: 'de A', variables: [{ variable_uuid: variableUuid, last_value: null }] });
    expect(mine.variables).toEqual(made.body.data.variables);
    expect((await read(a, variableUuid)).body.data.values).toEqual([]);
  });
});
