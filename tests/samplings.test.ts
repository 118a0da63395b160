// Spec 3, "Samplings": GET /api/sampling, /api/sampling/analysis, /api/sampling/variablelist;
// samplings created and closed through the internal API; samples recorded as spots of the
// sampling's sample set show in GET /api/sampling; -11 'insufficient permissions'.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, createField, internal, newUser, stack, type TestUser } from './helpers/api';

const analysis = {
  'Suelo 0-20': [
    { name: 'P', unit_id: 7 },
    { name: 'MO', unit_id: 2 },
  ],
  'Suelo 20-40': [{ name: 'N-NO3', unit_id: 7 }],
};

async function setup() {
  const owner = await newUser();
  const { fieldId, farmId } = await createField(owner);
  const [low, high] = [randomUUID(), randomUUID()];
  const created = await internal('/internal/samplings', {
    sampling_name: 'Muestreo de suelo 2026',
    field_id: fieldId,
    yeargroup: 2026,
    zoning: { info: { map_id: '12' }, type: 'map' },
    analysis,
    groups: [
      { group_uuid: low, color: '#D7191C', name: 'Ambiente bajo' },
      { group_uuid: high, color: '#1A9641', name: 'Ambiente alto' },
    ],
    points: [
      { geometry: 'POINT(-60.495 -33.895)', group_uuid: low },
      { geometry: 'POINT(-60.491 -33.891)', group_uuid: high, checked: 1 },
    ],
  });
  expect(created.status).toBe(200);
  const { sampling_uuid: samplingUuid, sample_set_uuid: sampleSetUuid } = created.body.data;
  return { owner, fieldId, farmId, samplingUuid, sampleSetUuid, low, high };
}

const get = (user: TestUser, path: string, query: Record<string, string | number> = {}) =>
  call('GET', path, { token: user.token, query });

describe('samplings', () => {
  it('answers a sampling with every field of the spec; a sample value written through the spots API shows in its group', async () => {
    const { owner, fieldId, samplingUuid, sampleSetUuid, low } = await setup();
    const spot = await call('POST', '/spots/spot', {
      token: owner.token,
      json: {
        field_id: fieldId,
        shape: 'POINT(-60.495 -33.895)',
        name: 'Suelo 0-20',
        group_uuid: low,
        sample_set: { sample_set_uuid: sampleSetUuid, sample_set_type: 'soil_sampling' },
        data: {
          variables: [
            { name: 'P', unit_id: 7, value: 12.5 },
            { name: 'MO', unit_id: 2, value: 3.1 },
          ],
        },
      },
    });
    expect(spot.status).toBe(200);
    const response = await get(owner, '/api/sampling', { field_id: fieldId });
    expect(response.status).toBe(200);
    expect(response.body.code).toBe(0);
    const [sampling] = response.body.data;
    expect(sampling).toMatchObject({
      sampling_uuid: samplingUuid,
      sampling_name: 'Muestreo de suelo 2026',
      sample_set_uuid: sampleSetUuid,
      field_id: fieldId,
      field_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      yeargroup: 2026,
      // the project's own form of a timestamp (docs/decisions.md, General): whole seconds, no milliseconds
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      closed_at: null,
      group_assigned_id: 0,
      zoning: { info: { map_id: '12' }, type: 'map' },
      analysis,
    });
    expect(sampling.groups.map((g: any) => [g.group_data.sampling.name, g.samples.length])).toEqual([
      ['Ambiente bajo', 1],
      ['Ambiente alto', 0],
    ]);
    expect(sampling.groups[0].samples[0]).toEqual({
      code: spot.body.code,
      spot_uuid: spot.body.spot_uuid,
      spot_data: {
        variables: [
          { name: 'P', value: 12.5, unit_id: 7 },
          { name: 'MO', value: 3.1, unit_id: 2 },
        ],
        sampling: { analysis: 'Suelo 0-20' },
      },
    });
    const seconds = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(sampling.points.map((p: any) => [p.geometry, p.checked, p.group_uuid, p.created_at])).toEqual([
      ['POINT(-60.495 -33.895)', 0, low, seconds],
      ['POINT(-60.491 -33.891)', 1, expect.any(String), seconds],
    ]);
    // the same by uuid; the sample spot is a sample, not a plain spot in spot lists
    expect((await get(owner, '/api/sampling', { sampling_uuid: samplingUuid })).body.data).toEqual(response.body.data);
    expect((await get(owner, '/spots/spot', { field_id: fieldId })).body.data).toEqual([]);
  });

  it('lists analyses by field, farm or sampling; variable lists; closes through the internal API', async () => {
    const { owner, fieldId, farmId, samplingUuid, sampleSetUuid } = await setup();
    const expected = [
      {
        farm_id: farmId,
        field_id: fieldId,
        sampling_name: 'Muestreo de suelo 2026',
        sampling_uuid: samplingUuid,
        sample_set_uuid: sampleSetUuid,
        zoning: { info: { map_id: '12' }, type: 'map' },
        analysis,
      },
    ];
    for (const query of [{ field_id: fieldId }, { farm_id: farmId }, { sampling_uuid: samplingUuid }] as Array<
      Record<string, string | number>
    >) {
      const response = await get(owner, '/api/sampling/analysis', query);
      expect([response.status, response.body], JSON.stringify(query)).toEqual([200, { code: 0, data: expected }]);
    }
    const lists = await get(owner, '/api/sampling/variablelist');
    expect(lists.body.code).toBe(0);
    expect(lists.body.variablelist[0]).toEqual({
      list_name: 'Textura',
      variablelist_uuid: expect.any(String),
      items: expect.arrayContaining([{ name: 'Franca', value: 3 }]),
    });
    const closed = await call('PATCH', `/internal/samplings/${samplingUuid}`, {
      json: { closed_at: '2026-06-01T12:00:00Z' },
      headers: { 'x-internal-key': stack().internalKey },
    });
    expect(closed.status).toBe(200);
    expect((await get(owner, '/api/sampling', { sampling_uuid: samplingUuid })).body.data[0].closed_at).toBe(
      '2026-06-01T12:00:00Z',
    );
  });

  it('answers -11 insufficient permissions for a field or farm the caller cannot read; a read share reads', async () => {
    const { fieldId, farmId } = await setup();
    const stranger = await newUser();
    for (const [path, query] of [
      ['/api/sampling', { field_id: fieldId }],
      ['/api/sampling/analysis', { field_id: fieldId }],
      ['/api/sampling/analysis', { farm_id: farmId }],
    ] as const) {
      const response = await get(stranger, path, query);
      expect([response.status, response.body], `${path} ${JSON.stringify(query)}`).toEqual([
        403,
        { code: -11, msg: 'insufficient permissions' },
      ]);
    }
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    expect((await get(reader, '/api/sampling', { field_id: fieldId })).body.data).toHaveLength(1);
    const missing = await get(reader, '/api/sampling');
    expect([missing.status, missing.body.code]).toEqual([400, -4]);
    expect((await get(reader, '/api/sampling', { sampling_uuid: randomUUID() })).body).toEqual({ code: 0, data: [] });
  });

  it("answers another user's sampling_uuid exactly as a uuid nobody used: an empty list", async () => {
    const { samplingUuid } = await setup();
    const stranger = await newUser();
    const unknown = randomUUID();
    for (const path of ['/api/sampling', '/api/sampling/analysis']) {
      const foreign = await get(stranger, path, { sampling_uuid: samplingUuid });
      const nobody = await get(stranger, path, { sampling_uuid: unknown });
      expect([foreign.status, foreign.body], path).toEqual([nobody.status, nobody.body]);
      expect([foreign.status, foreign.body], path).toEqual([200, { code: 0, data: [] }]);
    }
  });

  it('creates samplings only through the internal key, idempotently by uuid', async () => {
    const { fieldId } = await createField(await newUser());
    const body = {
      sampling_uuid: randomUUID(),
      sampling_name: 'M',
      field_id: fieldId,
      yeargroup: 2026,
      zoning: { info: {}, type: 'none' },
      analysis: {},
      groups: [],
      points: [],
    };
    expect((await internal('/internal/samplings', body, '')).status).toBe(401);
    expect((await internal('/internal/samplings', body, 'wrong-key')).status).toBe(401);
    const first = await internal('/internal/samplings', body);
    const again = await internal('/internal/samplings', body);
    expect(again.body.data.sample_set_uuid).toBe(first.body.data.sample_set_uuid);
    expect(
      (await internal('/internal/samplings', { ...body, sampling_uuid: randomUUID(), field_id: 999_999_999 })).status,
    ).toBe(404);
  });
});
