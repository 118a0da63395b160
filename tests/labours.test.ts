// Spec 3, "Labours": GET /activities/labour (View season feature; every filter of the spec, AND;
// paging) and the contract of docs/decisions.md for POST, PATCH and DELETE: inputs lists written
// with the personal inputs they create or rename in one step, one campaign per field and yeargroup
// shared with rotations, status transitions, who reads and who writes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, createField, eventually, internal, newUser, nextSecond, square, type TestUser } from './helpers/api';

const BASE = '/activities/labour';
const post = (user: TestUser, json: unknown) => call('POST', BASE, { token: user.token, json });
const patch = (user: TestUser, uuid: string, json: unknown) =>
  call('PATCH', `/api${BASE}/${uuid}`, { token: user.token, json });
const list = (user: TestUser, query: Record<string, string | number>) =>
  call('GET', `/api${BASE}`, { token: user.token, query });
const one = (user: TestUser, uuid: string) => call('GET', `${BASE}/${uuid}`, { token: user.token });
const inputs = (user: TestUser) =>
  call('GET', '/api/registro_campo/insumos', { token: user.token, query: { user_input: 'true' } });

async function rotation(user: TestUser, fieldId: number, yeargroup: number, cropId = 1) {
  const response = await call('POST', '/api/rotations', {
    token: user.token,
    json: [
      {
        field_id: fieldId,
        crop_id: cropId,
        yeargroup,
        start_date: `${yeargroup}-10-01T00:00:00Z`,
        end_date: `${yeargroup + 1}-03-01T00:00:00Z`,
      },
    ],
  });
  expect(response.status).toBe(200);
  return response.body.data.created_ones[0] as { rotation_uuid: string; cicle_id: number };
}

const application = (fieldId: number, extra: Record<string, unknown> = {}) => ({
  labour_type_id: 1,
  yeargroup: 2026,
  date: '2026-11-20',
  field_id: fieldId,
  surface: 50,
  application_type_id: 1,
  end_cycle: false,
  ...extra,
});

async function created(user: TestUser, json: unknown): Promise<string> {
  const response = await post(user, json);
  expect(response.status, response.text).toBe(200);
  return response.body.data.uuid;
}

describe('labours', () => {
  it('records an application whose inputs list uses a master input, renames one own input, creates another, all in one step; lists it with every field', async () => {
    const owner = await newUser();
    const { fieldId, farmId } = await createField(owner);
    const { rotation_uuid: rotationUuid, cicle_id: cicleId } = await rotation(owner, fieldId, 2026);
    const own = (await call('POST', '/registro_campo/insumo', { token: owner.token, json: [{ name: 'Aceite viejo' }] }))
      .body.created[0];
    const newUuid = randomUUID();
    const uuid = await created(
      owner,
      application(fieldId, {
        rotation_uuid: rotationUuid,
        observations: 'Barbecho químico; viento del norte',
        attachments: [randomUUID()],
        staff: [randomUUID()],
        resources: [{ name: 'Pulverizadora Pla 3000' }],
        stock: [{ warehouse: 'Galpón 1' }],
        inputs: [
          { id: 20, dose: 2.5, unit: 'L/ha', observations: 'con agua de pozo' },
          { uuid: own.uuid, name: 'Aceite metilado propio', dose: 0.5, unit: 'L/ha' },
          { uuid: newUuid, name: 'Coadyuvante ñandú', dose: 100, unit: 'cc/ha' },
        ],
        costs: { labour: { unit: 'USD/ha', value: 12.5 }, inputs: { [newUuid]: { unit: 'USD/L', value: 8 } } },
      }),
    );
    // the own input was renamed and the new one created, in the caller's list
    expect((await inputs(owner)).body.map((i: any) => [i.uuid, i.name]).sort()).toEqual(
      [
        [own.uuid, 'Aceite metilado propio'],
        [newUuid, 'Coadyuvante ñandú'],
      ].sort(),
    );
    const response = await list(owner, { yeargroup: 2026 });
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ total_page: 1, page: 1 });
    const [labour] = response.body.data;
    expect(labour).toMatchObject({
      uuid,
      labour_type_id: 1,
      status: 1,
      yeargroup: 2026,
      biennial: false,
      cicle_id: cicleId,
      date: '2026-11-20',
      farm_id: farmId,
      field_id: fieldId,
      farm_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      field_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      rotation: { crop_name: 'Soja', crop_id: 1, uuid: rotationUuid },
      attachments: [expect.any(String)],
      stock: [{ warehouse: 'Galpón 1' }],
      resources: [{ name: 'Pulverizadora Pla 3000' }],
      staff: [expect.any(String)],
      surface: 50,
      surface_unit: null,
      observations: 'Barbecho químico; viento del norte',
      costs: { labour: { unit: 'USD/ha', value: 12.5 }, inputs: { [newUuid]: { unit: 'USD/L', value: 8 } } },
      application_type_id: 1,
      end_cycle: false,
      map_id: null,
    });
    // the list without field ids (by farm) names the field from the labour's item: as one labour read alone does
    const alone = (await one(owner, uuid)).body.data;
    const names = (l: Record<string, unknown>) => [l.field_uuid, l.field_name, l.farm_uuid, l.farm_name];
    expect(names(labour)).toEqual(names(alone));
    expect(alone.field_name).toEqual(expect.any(String));
    expect(labour.inputs).toEqual([
      {
        unit: 'L/ha',
        dose: 2.5,
        unit_total: 'L',
        total: 125,
        input_name: 'Glifosato 66,2% sal potásica',
        input_uuid: expect.any(String),
        input_id: 20,
        input_deleted: false,
        labour_input_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        pest_uuid: null,
        warehouse_uuid: null,
        justify_id: null,
        crop_id: 1,
        stock: null,
        observations: 'con agua de pozo',
      },
      expect.objectContaining({
        input_name: 'Aceite metilado propio',
        input_uuid: own.uuid,
        input_id: own.id,
        dose: 0.5,
        total: 25,
      }),
      expect.objectContaining({
        input_name: 'Coadyuvante ñandú',
        input_uuid: newUuid,
        dose: 100,
        unit: 'cc/ha',
        unit_total: 'cc',
        total: 5000,
      }),
    ]);
    expect((await one(owner, uuid)).body.data).toEqual(labour);
  });

  it('writes nothing when one item of the inputs list breaks a rule (no labour, no input created or renamed)', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const own = (await call('POST', '/registro_campo/insumo', { token: owner.token, json: [{ name: 'Original' }] }))
      .body.created[0];
    const refused = await post(
      owner,
      application(fieldId, {
        inputs: [
          { name: 'Nuevo', dose: 1, unit: 'L/ha' },
          { uuid: own.uuid, name: 'Renombrado', dose: 1, unit: 'L/ha' },
          { id: 99_999_999, dose: 1, unit: 'L/ha' },
        ],
      }),
    );
    expect([refused.status, refused.body.res, refused.body.code]).toEqual([400, 'error', 5]);
    expect(refused.body.info).toContain('inputs[2]');
    expect((await inputs(owner)).body.map((i: any) => i.name)).toEqual(['Original']);
    expect((await list(owner, { yeargroup: 2026 })).body.data).toEqual([]);
    // an input listed twice, costs of an input the labour does not list, inputs on a harvest
    expect(
      (
        await post(
          owner,
          application(fieldId, {
            inputs: [
              { id: 20, dose: 1, unit: 'L/ha' },
              { id: 20, dose: 2, unit: 'L/ha' },
            ],
          }),
        )
      ).body.code,
    ).toBe(5);
    expect(
      (await post(owner, application(fieldId, { costs: { inputs: { [randomUUID()]: { unit: 'USD', value: 1 } } } })))
        .body.code,
    ).toBe(5);
    const harvest = await post(owner, {
      labour_type_id: 2,
      yeargroup: 2026,
      date: '2026-12-01',
      field_id: fieldId,
      inputs: [{ id: 20, dose: 1, unit: 'L/ha' }],
      application_type_id: 1,
    });
    expect([harvest.status, harvest.body.code]).toEqual([400, 7]);
    expect(harvest.body.info).toContain('application_type_id');
  });

  it("keeps one campaign per field and yeargroup, shared by labours and rotations (cicle_id); biennial is the campaign's", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const first = await created(owner, application(fieldId));
    const second = await created(owner, {
      labour_type_id: 4,
      yeargroup: 2026,
      date: '2026-12-02',
      field_id: fieldId,
      name: 'Desmalezado mecánico',
      biennial: true,
    });
    const { cicle_id: cicleId, rotation_uuid: rotationUuid } = await rotation(owner, fieldId, 2026);
    const listed = (await list(owner, { yeargroup: 2026 })).body.data;
    expect(listed.map((l: any) => [l.uuid, l.cicle_id, l.biennial])).toEqual([
      [first, cicleId, true],
      [second, cicleId, true],
    ]);
    expect(listed[1]).toMatchObject({ labour_type_id: 4, name: 'Desmalezado mecánico' });
    // another yeargroup is another campaign; a rotation of another campaign is refused
    const next = await created(owner, application(fieldId, { yeargroup: 2027, date: '2027-11-20' }));
    const nextCampaign = (await one(owner, next)).body.data.cicle_id;
    expect(nextCampaign).not.toBe(cicleId);
    const wrongCampaign = await post(
      owner,
      application(fieldId, { yeargroup: 2027, date: '2027-11-21', rotation_uuid: rotationUuid }),
    );
    expect([wrongCampaign.status, wrongCampaign.body.code]).toEqual([400, 4]);
    const other = await createField(owner, { farmId: undefined });
    const wrongField = await post(owner, application(other.fieldId, { rotation_uuid: rotationUuid }));
    expect([wrongField.status, wrongField.body.code]).toEqual([400, 4]);
    // a labour stays in its campaign and field
    expect((await patch(owner, first, { yeargroup: 2027 })).status).toBe(400);
    expect((await patch(owner, first, { field_id: other.fieldId })).status).toBe(400);
    expect((await patch(owner, first, { labour_type_id: 2 })).status).toBe(400);
  });

  it('corrects any status to any other (Executed included), recorded in updated_at; timestamps in whole seconds', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await created(owner, application(fieldId));
    const seconds = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
    const first = (await one(owner, uuid)).body.data;
    expect([first.created_at, first.updated_at]).toEqual([expect.stringMatching(seconds), first.created_at]);
    let previous = first.updated_at as string;
    // every move among 1 Planned, 2 Executed and 3 Cancelled (an agronomist who mis-marked a labour corrects it)
    for (const status of [2, 1, 3, 2, 3, 1, 2]) {
      await nextSecond();
      const changed = await patch(owner, uuid, { status });
      expect([changed.status, changed.body], `-> ${status}`).toEqual([200, { data: { uuid } }]);
      const labour = (await one(owner, uuid)).body.data;
      expect([labour.status, labour.created_at]).toEqual([status, first.created_at]);
      expect(labour.updated_at).toMatch(seconds);
      expect(labour.updated_at > previous, `${labour.updated_at} after ${previous}`).toBe(true);
      previous = labour.updated_at;
    }
    // the labour keeps its uuid (and so its work orders) through every correction
    expect((await list(owner, { yeargroup: 2026 })).body.data.map((l: any) => [l.uuid, l.status])).toEqual([[uuid, 2]]);
    // an executed labour may be recorded as such from the start
    expect((await one(owner, await created(owner, application(fieldId, { status: 2 })))).body.data.status).toBe(2);
  });

  it('PATCH changes only what is sent; inputs sent are the complete final list; a deleted input stays readable in the labour', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await created(owner, {
      labour_type_id: 3,
      yeargroup: 2026,
      date: '2026-10-15',
      field_id: fieldId,
      surface: 40,
      seeding_type_id: 1,
      variety_name: 'DM 46i20',
      seed_rate: { unit: 'semillas/m', value: 18 },
      row_width: { unit: 'cm', value: 52.5 },
      inputs: [
        { id: 80, dose: 80, unit: 'kg/ha' },
        { name: 'Inoculante propio', dose: 2, unit: 'L/ha' },
      ],
      costs: { seed: { unit: 'USD/kg', value: 0.9 } },
    });
    const before = (await one(owner, uuid)).body.data;
    expect(before).toMatchObject({
      labour_type_id: 3,
      seeding_type_id: 1,
      variety_name: 'DM 46i20',
      seed_rate: { unit: 'semillas/m', value: 18 },
      seed_total: null,
      costs: { labour: null, inputs: {}, seed: { unit: 'USD/kg', value: 0.9 } },
    });
    const inoculant = before.inputs[1];
    expect((await patch(owner, uuid, { observations: 'resembrado parcial' })).status).toBe(200);
    const after = (await one(owner, uuid)).body.data;
    expect(after).toEqual({ ...before, observations: 'resembrado parcial', updated_at: expect.any(String) });
    // the list sent replaces the list
    expect((await patch(owner, uuid, { inputs: [{ uuid: inoculant.input_uuid, dose: 3, unit: 'L/ha' }] })).status).toBe(
      200,
    );
    expect((await one(owner, uuid)).body.data.inputs.map((i: any) => [i.input_name, i.dose])).toEqual([
      ['Inoculante propio', 3],
    ]);
    // deleting the input leaves it readable inside the labour, marked
    await call('DELETE', '/registro_campo/insumo', { token: owner.token, json: [{ uuid: inoculant.input_uuid }] });
    expect((await one(owner, uuid)).body.data.inputs[0]).toMatchObject({
      input_name: 'Inoculante propio',
      input_deleted: true,
    });
    // seed costs belong to sowings only; surface never above the field
    expect((await post(owner, application(fieldId, { costs: { seed: { unit: 'USD', value: 1 } } }))).body.code).toBe(7);
    const tooLarge = await patch(owner, uuid, { surface: 5000 });
    expect([tooLarge.status, tooLarge.body.code]).toEqual([400, 6]);
  });

  it("takes back the list it answers from whoever edits the labour: a collaborator's input stays, by uuid or id; lines keep their labour_input_uuid; a dropped input drops its cost", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const editor = await newUser();
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    const editorsOwn = randomUUID();
    // the editor records the labour with a new personal input of its own, and costs for it
    const uuid = await created(
      editor,
      application(fieldId, {
        inputs: [
          { id: 20, dose: 2, unit: 'L/ha' },
          { uuid: editorsOwn, name: 'Coadyuvante del contratista', dose: 0.1, unit: 'L/ha' },
        ],
        costs: {
          labour: { unit: 'USD/ha', value: 10 },
          inputs: { [editorsOwn]: { unit: 'USD/L', value: 7 } },
        },
      }),
    );
    const first = (await one(owner, uuid)).body.data;
    const [glyphosate, adjuvant] = first.inputs;
    expect(adjuvant).toMatchObject({ input_uuid: editorsOwn, input_name: 'Coadyuvante del contratista' });
    // the field's owner sends back the same list with other doses: by uuid, then by id
    for (const byUuid of [true, false]) {
      const dose = byUuid ? 0.2 : 0.3;
      const response = await patch(owner, uuid, {
        inputs: [
          { id: 20, dose: 2.5, unit: 'L/ha' },
          byUuid
            ? { uuid: editorsOwn, dose, unit: 'L/ha' }
            : { id: adjuvant.input_id, name: 'Coadyuvante del contratista', dose, unit: 'L/ha' },
        ],
      });
      expect(response.status, response.text).toBe(200);
      const lines = (await one(owner, uuid)).body.data.inputs;
      expect(lines.map((l: any) => [l.input_uuid, l.input_id, l.input_name, l.dose, l.labour_input_uuid])).toEqual([
        [glyphosate.input_uuid, 20, glyphosate.input_name, 2.5, glyphosate.labour_input_uuid],
        [editorsOwn, adjuvant.input_id, 'Coadyuvante del contratista', dose, adjuvant.labour_input_uuid],
      ]);
    }
    // the owner's list holds none of the editor's inputs: nothing was created for it
    expect((await inputs(owner)).body).toEqual([]);
    // a line that stays keeps its labour_input_uuid; a new one gets its own
    const reordered = await patch(owner, uuid, {
      inputs: [
        { uuid: editorsOwn, dose: 0.3, unit: 'L/ha' },
        { id: 21, dose: 1, unit: 'L/ha' },
      ],
    });
    expect(reordered.status, reordered.text).toBe(200);
    const after = (await one(owner, uuid)).body.data;
    expect(after.inputs.map((l: any) => l.labour_input_uuid)).toEqual([
      adjuvant.labour_input_uuid,
      expect.not.stringMatching(new RegExp(`${glyphosate.labour_input_uuid}|${adjuvant.labour_input_uuid}`)),
    ]);
    // dropping the editor's input drops its cost with it (the labour's own cost stays)
    const dropped = await patch(owner, uuid, { inputs: [{ id: 21, dose: 1, unit: 'L/ha' }] });
    expect(dropped.status, dropped.text).toBe(200);
    const last = (await one(owner, uuid)).body.data;
    expect(last.inputs.map((l: any) => [l.input_id, l.labour_input_uuid])).toEqual([
      [21, after.inputs[1].labour_input_uuid],
    ]);
    expect(last.costs).toEqual({ labour: { unit: 'USD/ha', value: 10 }, inputs: {} });
    // costs sent in the same request must still name listed inputs
    const stray = await patch(owner, uuid, {
      inputs: [{ id: 21, dose: 1, unit: 'L/ha' }],
      costs: { inputs: { [editorsOwn]: { unit: 'USD/L', value: 1 } } },
    });
    expect([stray.status, stray.body.code]).toEqual([400, 5]);
  });

  it('answers a repeated client uuid and body with the labour it made, another body with 409; deletes', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = randomUUID();
    const [a, b] = await Promise.all([
      post(owner, application(fieldId, { uuid })),
      post(owner, application(fieldId, { uuid })),
    ]);
    expect([a.status, b.status, a.body.data.uuid, b.body.data.uuid]).toEqual([200, 200, uuid, uuid]);
    expect((await list(owner, { yeargroup: 2026 })).body.data).toHaveLength(1);
    // changed since: the first request sent again is still a replay
    expect((await patch(owner, uuid, { observations: 'cambiada' })).status).toBe(200);
    const replay = await post(owner, application(fieldId, { uuid }));
    expect([replay.status, replay.body]).toEqual([200, { data: { uuid } }]);
    // the same uuid with another body is a conflict, and changes nothing
    for (const other of [application(fieldId, { uuid, surface: 49 }), application(fieldId, { uuid, status: 2 })]) {
      const conflict = await post(owner, other);
      expect([conflict.status, conflict.body.res, conflict.body.code]).toEqual([409, 'error', 10]);
    }
    // a uuid of a labour the caller sees in another field too
    const { fieldId: second } = await createField(owner, { shape: square(-60.3, -33.9) });
    const elsewhere = await post(owner, application(second, { uuid }));
    expect([elsewhere.status, elsewhere.body.code]).toEqual([409, 10]);
    const only = (await list(owner, { yeargroup: 2026 })).body.data;
    expect(only.map((l: any) => [l.uuid, l.field_id, l.surface, l.status, l.observations])).toEqual([
      [uuid, fieldId, 50, 1, 'cambiada'],
    ]);
    const removed = await call('DELETE', `${BASE}/${uuid}`, { token: owner.token });
    expect(removed.status).toBe(200);
    expect((await one(owner, uuid)).status).toBe(404);
    expect((await list(owner, { yeargroup: 2026 })).body.data).toEqual([]);
  });

  it("names a labour by its uuid within its field: another tenant's labour of that uuid is answered as one nobody made, and blocks nothing", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = randomUUID();
    await created(owner, application(fieldId, { uuid, observations: 'del dueño' }));
    const stranger = await newUser();
    const { fieldId: strangerField } = await createField(stranger);
    const unknown = randomUUID();
    // every operation on the owner's uuid answers as on a uuid nobody uses (modulo the uuid itself)
    const same = (response: { status: number; body: any }, id: string) => [
      response.status,
      JSON.stringify(response.body).replaceAll(id, '<uuid>'),
    ];
    for (const [method, json] of [
      ['GET', undefined],
      ['PATCH', { observations: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await call(method, `${BASE}/${uuid}`, { token: stranger.token, json });
      const nobody = await call(method, `${BASE}/${unknown}`, { token: stranger.token, json });
      expect(same(foreign, uuid), method).toEqual(same(nobody, unknown));
      expect(foreign.status).toBe(404);
    }
    // creating with that uuid makes the stranger's own labour, as with a uuid nobody used
    const foreign = await post(stranger, application(strangerField, { uuid, observations: 'del otro' }));
    const nobody = await post(stranger, application(strangerField, { uuid: unknown, observations: 'del otro' }));
    expect(same(foreign, uuid)).toEqual(same(nobody, unknown));
    expect(foreign.status).toBe(200);
    expect((await one(stranger, uuid)).body.data).toMatchObject({ field_id: strangerField, observations: 'del otro' });
    expect((await one(owner, uuid)).body.data).toMatchObject({ field_id: fieldId, observations: 'del dueño' });
    // each changes and deletes its own
    expect((await call('DELETE', `${BASE}/${uuid}`, { token: stranger.token })).status).toBe(200);
    expect((await one(owner, uuid)).body.data.observations).toBe('del dueño');
  });

  it('filters with every parameter of the spec (AND) and pages by date', async () => {
    const owner = await newUser();
    const north = await createField(owner);
    const south = await createField(owner, { shape: square(-60.4, -33.9) });
    const southFields = await call('GET', '/api/getfields', { token: owner.token });
    const farmOf = (fieldId: number) =>
      Object.values(southFields.body.user.farms).find((f: any) => f.fields[String(fieldId)]) as any;
    const southUuid = farmOf(south.fieldId).fields[String(south.fieldId)].uuid;
    const southFarmUuid = farmOf(south.fieldId).uuid;
    const soy = await rotation(owner, north.fieldId, 2026, 1);
    const maize = await rotation(owner, south.fieldId, 2026, 2);
    const a = await created(
      owner,
      application(north.fieldId, { date: '2026-11-01', rotation_uuid: soy.rotation_uuid }),
    );
    const b = await created(owner, {
      labour_type_id: 2,
      yeargroup: 2026,
      date: '2027-03-10',
      field_id: north.fieldId,
      rotation_uuid: soy.rotation_uuid,
      harvested_yield: 3.8,
      harvested_unit: 't/ha',
      humidity: 13.5,
    });
    const c = await created(
      owner,
      application(south.fieldId, { date: '2026-12-05', rotation_uuid: maize.rotation_uuid, status: 2 }),
    );
    const d = await created(owner, {
      labour_type_id: 4,
      yeargroup: 2026,
      date: '2026-11-15',
      field_id: south.fieldId,
      name: 'Rolado',
    });
    await created(owner, application(north.fieldId, { yeargroup: 2025, date: '2025-11-01' }));
    const uuids = async (query: Record<string, string | number>) => {
      const response = await list(owner, { yeargroup: 2026, ...query });
      expect(response.status, response.text).toBe(200);
      return response.body.data.map((l: any) => l.uuid);
    };
    expect(await uuids({})).toEqual([a, d, c, b]);
    expect(await uuids({ farm_id: north.farmId })).toEqual([a, b]);
    expect(await uuids({ fields_id: `${north.fieldId},${south.fieldId}` })).toEqual([a, d, c, b]);
    expect(await uuids({ fields_id: String(south.fieldId) })).toEqual([d, c]);
    expect(await uuids({ field_uuid: southUuid })).toEqual([d, c]);
    expect(await uuids({ farm_uuid: southFarmUuid })).toEqual([d, c]);
    expect(await uuids({ status: 2 })).toEqual([c]);
    expect(await uuids({ date_from: '2026/11/10', date_to: '2026/12/31' })).toEqual([d, c]);
    expect(await uuids({ crop_id: 1 })).toEqual([a, b]);
    expect(await uuids({ crops_ids: '1,2' })).toEqual([a, c, b]);
    expect(await uuids({ labour_type_id: 1 })).toEqual([a, c]);
    expect(await uuids({ labour_type_id: 1, fields_id: String(north.fieldId), status: 1 })).toEqual([a]);
    expect((await list(owner, { yeargroup: 2025 })).body.data).toHaveLength(1);
    const harvest = (await one(owner, b)).body.data;
    expect(harvest).toMatchObject({
      harvested_yield: 3.8,
      harvested_unit: 't/ha',
      humidity: 13.5,
      end_cycle: false,
      expected_yield: null,
      yield_zones: [],
    });
    expect(harvest.inputs).toBeUndefined();
    // paging
    const page = await list(owner, { yeargroup: 2026, page_size: 3, page: 2 });
    expect(page.body).toEqual({ data: [expect.objectContaining({ uuid: b })], pagination: { total_page: 2, page: 2 } });
    expect((await list(owner, { yeargroup: 2026, page_size: 3 })).body.pagination).toEqual({ total_page: 2, page: 1 });
    // yeargroup is required; dates are %Y/%m/%d
    for (const query of [
      {},
      { yeargroup: 2026, date_from: '2026-11-10' },
      { yeargroup: 2026, status: 4 },
      { yeargroup: 2026, page_size: 0 },
    ]) {
      const refused = await list(owner, query as Record<string, string | number>);
      expect([refused.status, refused.body.res, refused.body.code]).toEqual([400, 'error', -4]);
    }
  });

  it('lets readers of a shared field list its labours but not change them; strangers see nothing; the View season feature is required', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const uuid = await created(owner, application(fieldId));
    const [reader, editor, stranger] = [await newUser(), await newUser(), await newUser()];
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    expect((await list(reader, { yeargroup: 2026 })).body.data.map((l: any) => l.uuid)).toEqual([uuid]);
    const readerPatch = await patch(reader, uuid, { observations: 'x' });
    expect([readerPatch.status, readerPatch.body.code]).toEqual([403, 2]);
    expect((await post(reader, application(fieldId))).status).toBe(403);
    expect((await call('DELETE', `${BASE}/${uuid}`, { token: reader.token })).status).toBe(403);
    expect((await patch(editor, uuid, { observations: 'revisado' })).status).toBe(200);
    expect((await list(stranger, { yeargroup: 2026 })).body.data).toEqual([]);
    for (const response of [
      await one(stranger, uuid),
      await patch(stranger, uuid, { status: 2 }),
      await call('DELETE', `${BASE}/${uuid}`, { token: stranger.token }),
    ]) {
      expect([response.status, response.body.code]).toEqual([404, 1]);
    }
    const strangerPost = await post(stranger, application(fieldId));
    expect([strangerPost.status, strangerPost.body.code]).toEqual([404, 8]);
    expect((await one(owner, uuid)).body.data.observations).toBe('revisado');
    // the View season feature: in the user's plan and in the extension's claimset
    const noClaim = await newUser({ claims: ['FIELDS_CREATE', 'CAMPAIGN'] });
    const refused = await list(noClaim, { yeargroup: 2026 });
    expect([refused.status, refused.body.res, refused.body.code]).toEqual([403, 'error', 11]);
    expect((await post(noClaim, application(fieldId))).status).toBe(403);
    const noFeature = await newUser({ features: ['FIELDS_CREATE'], claims: ['*'] });
    expect((await list(noFeature, { yeargroup: 2026 })).status).toBe(403);
    expect((await call('GET', BASE, { query: { yeargroup: 2026 } })).status).toBe(401);
  });

  it("goes with its field: once a deleted field's cleanup ran, the labour is gone and its uuid can name a new labour", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const { fieldId: other } = await createField(owner, { name: 'Lote 2', farmName: 'Otro campo' });
    const uuid = randomUUID();
    expect((await post(owner, application(fieldId, { uuid }))).status).toBe(200);
    expect((await call('GET', '/api/borrarlotes', { token: owner.token, query: { lote: fieldId } })).status).toBe(200);
    // the worker removes the field's records and what points to them
    const again = await eventually(
      async () => {
        const response = await post(owner, application(other, { uuid }));
        return response.status === 200 ? response : undefined;
      },
      30_000,
      250,
    );
    expect(again.body.data.uuid).toBe(uuid);
    expect((await one(owner, uuid)).body.data.field_id).toBe(other);
  });

  it("counts every farm's labours once through writes, status changes, deletes and a field's deletion (the list without field ids totals from the farms' tallies)", async () => {
    const owner = await newUser();
    const { fieldId, farmId } = await createField(owner);
    const { fieldId: second } = await createField(owner, { farmId, shape: square(-60.4, -33.9) });
    const { fieldId: elsewhere } = await createField(owner, { farmName: `Otro ${randomUUID().slice(0, 8)}` });
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: second, permission: 'read' });
    const made: Record<number, string[]> = { [fieldId]: [], [second]: [], [elsewhere]: [] };
    for (const [index, field] of [fieldId, fieldId, second, second, second, elsewhere].entries())
      made[field]!.push(await created(owner, application(field, { date: `2026-11-0${index + 1}` })));
    // page_size 1: total_page is the total; the labours in the list's order (by date)
    const totals = async (user: TestUser, query: Record<string, string | number> = {}) => {
      const page = await list(user, { yeargroup: 2026, page_size: 1, ...query });
      expect(page.status).toBe(200);
      return page.body.pagination.total_page;
    };
    const everything = async (user: TestUser) =>
      (await list(user, { yeargroup: 2026, page_size: 50 })).body.data.map((l: { uuid: string }) => l.uuid);
    expect(await totals(owner)).toBe(6);
    expect(await totals(owner, { farm_id: farmId })).toBe(5);
    expect(await totals(reader)).toBe(3); // the field shared alone
    expect(await everything(reader)).toEqual(made[second]);
    // a status change moves the labour within the tally; a delete takes it out
    expect((await patch(owner, made[second]![0]!, { status: 2 })).status).toBe(200);
    expect(await totals(owner, { status: 2 })).toBe(1);
    expect(await totals(owner, { status: 1 })).toBe(5);
    expect((await call('DELETE', `${BASE}/${made[fieldId]![0]}`, { token: owner.token })).status).toBe(200);
    expect(await totals(owner)).toBe(5);
    // a deleted field's labours leave the list at once and its farm's tally with the clean-up job
    expect((await call('GET', '/api/borrarlotes', { token: owner.token, query: { lote: second } })).status).toBe(200);
    expect(await everything(owner)).toEqual(expect.arrayContaining([made[fieldId]![1], made[elsewhere]![0]]));
    expect((await everything(owner)).length).toBe(2);
    await eventually(async () => ((await totals(owner)) === 2 ? true : undefined), 30_000, 250);
    expect(await totals(owner, { farm_id: farmId })).toBe(1);
    expect(await totals(owner, { status: 2 })).toBe(0);
    expect(await everything(reader)).toEqual([]);
  });
});
