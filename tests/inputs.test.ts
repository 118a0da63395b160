// Spec 3, "Inputs": the master list plus personal inputs (GET /api/registro_campo/insumos) and the
// array changes POST, PATCH, DELETE /registro_campo/insumo (with and without /api): each item is
// processed on its own; only the owner's personal inputs change.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../lib/db/keys';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import { call, createField, newUser, stack, type TestUser } from './helpers/api';

const LIST = '/api/registro_campo/insumos';
const send = (user: TestUser, method: string, json: unknown, path = '/registro_campo/insumo') =>
  call(method, path, { token: user.token, json });
const list = (user: TestUser, query: Record<string, string> = {}) =>
  call('GET', LIST, { token: user.token, query, headers: { 'content-type': 'text/plain' } });

describe('inputs', () => {
  it("lists the master catalogue with every field of the Input table, and the caller's inputs after it", async () => {
    const user = await newUser();
    const created = await send(user, 'POST', [{ name: 'Caldo bordelés casero', type: 'Fungicida', country: 'es' }]);
    const response = await list(user);
    expect(response.status).toBe(200);
    const master = response.body.filter((i: any) => !i.user_input);
    expect(master.length).toBeGreaterThanOrEqual(25);
    expect(new Set(master.map((i: any) => i.type))).toEqual(
      new Set([
        'Fertilizante',
        'Herbicida',
        'Fungicida',
        'Insecticida',
        'Semilla',
        'Fertilizante orgánico',
        'Coadyuvante',
      ]),
    );
    const glyphosate = master.find((i: any) => i.name.startsWith('Glifosato'));
    expect(glyphosate).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Glifosato 66,2% sal potásica',
      user_input: false,
      code: expect.any(String),
      country: 'AR',
      company: 'Bayer',
      type: 'Herbicida',
      state: 'Líquido',
      density: 1.35,
      composition: null,
      components: [
        {
          uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          id: expect.any(Number),
          name: 'Glifosato',
          active_principle: true,
          eiq_1: 15.33,
          concentration: 66.2,
        },
      ],
    });
    expect(master.some((i: any) => i.country === null)).toBe(true);
    const own = response.body.filter((i: any) => i.user_input);
    expect(own).toEqual([
      {
        id: created.body.created[0].id,
        uuid: created.body.created[0].uuid,
        name: 'Caldo bordelés casero',
        user_input: true,
        // strings where the Input table says string; only country, density and composition may be null
        code: '',
        country: 'ES',
        company: '',
        type: 'Fungicida',
        state: '',
        density: null,
        composition: null,
        components: [],
      },
    ]);
    // every input of the list, master or personal, follows the table's types
    for (const input of response.body) {
      for (const key of ['code', 'company', 'type', 'state', 'name', 'uuid'])
        expect(typeof input[key], key).toBe('string');
    }
    // another user does not see it
    const other = await newUser();
    expect((await list(other)).body.filter((i: any) => i.user_input)).toEqual([]);
  });

  it('filters with AND: user_input, code, country (that country and those of no country)', async () => {
    const user = await newUser();
    await send(user, 'POST', [{ name: 'Propio AR', country: 'AR', code: '9001' }, { name: 'Propio sin país' }]);
    const mine = await list(user, { user_input: 'true' });
    expect(mine.body.map((i: any) => i.name).sort()).toEqual(['Propio AR', 'Propio sin país']);
    expect((await list(user, { user_input: 'false' })).body.every((i: any) => !i.user_input)).toBe(true);
    const spain = await list(user, { country: 'ES' });
    expect(spain.body.length).toBeGreaterThan(0);
    expect(spain.body.every((i: any) => i.country === 'ES' || i.country === null)).toBe(true);
    expect(spain.body.some((i: any) => i.country === 'ES')).toBe(true);
    expect(spain.body.some((i: any) => i.name === 'Propio sin país')).toBe(true);
    expect(spain.body.some((i: any) => i.name === 'Propio AR')).toBe(false);
    expect((await list(user, { code: '9001' })).body.map((i: any) => i.name)).toEqual(['Propio AR']);
    expect((await list(user, { code: '9001', country: 'ES' })).body).toEqual([]);
    expect((await list(user, { user_input: 'true', country: 'AR' })).body.map((i: any) => i.name).sort()).toEqual([
      'Propio AR',
      'Propio sin país',
    ]);
    expect((await list(user, { country: 'ARG' })).status).toBe(400);
  });

  it('POST creates each item it can and denies the others with a reason; a repeated uuid is idempotent; names may repeat', async () => {
    const user = await newUser();
    const uuid = randomUUID();
    const masterUuid = (await list(user)).body[0].uuid;
    const response = await send(user, 'POST', [
      { name: 'Urea propia', uuid },
      { uuid: randomUUID() },
      { name: 'Urea propia' },
      { name: 'copia maestra', uuid: masterUuid },
      'no es un objeto',
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'successful inputs creation', res: 'OK' });
    expect(response.body.created).toEqual([
      { nombre: 'Urea propia', id: expect.any(Number), uuid },
      { nombre: 'Urea propia', id: expect.any(Number), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
    expect(response.body.denied).toEqual([
      { uuid: expect.any(String), reason: expect.stringContaining('name') },
      { name: 'copia maestra', uuid: masterUuid, reason: 'the uuid is a master input' },
      { item: 'no es un objeto', reason: expect.any(String) },
    ]);
    // the same uuid with the same members answers the same input, and makes no second one
    const again = await send(user, 'POST', [{ name: 'Urea propia', uuid }], '/api/registro_campo/insumo');
    expect([again.status, again.body.created]).toEqual([200, [response.body.created[0]]]);
    expect((await list(user, { user_input: 'true' })).body).toHaveLength(2);
  });

  it("lets two users each hold an input of the same uuid, and shows neither to the other (uuids are the owner's)", async () => {
    const [first, second] = [await newUser(), await newUser()];
    // an extension shipping a catalogue with fixed uuids
    const uuid = randomUUID();
    const mine = await send(first, 'POST', [{ name: 'Catálogo: Urea', uuid, company: 'Primera' }]);
    expect(mine.body.created).toEqual([{ nombre: 'Catálogo: Urea', id: expect.any(Number), uuid }]);
    const theirs = await send(second, 'POST', [{ name: 'Catálogo: Urea granulada', uuid }]);
    // answered as a uuid nobody holds: created, nothing denied, nothing of the first user's
    expect([theirs.status, theirs.body.denied, theirs.body.created]).toEqual([
      200,
      [],
      [{ nombre: 'Catálogo: Urea granulada', id: expect.any(Number), uuid }],
    ]);
    // ids are numbered per owner: each is the first of its own list
    expect([mine.body.created[0].id, theirs.body.created[0].id]).toEqual([100_001, 100_001]);
    expect(theirs.text).not.toContain('Primera');
    const own = async (user: TestUser) =>
      (await list(user, { user_input: 'true' })).body.map((i: any) => [i.uuid, i.name, i.company]);
    expect(await own(first)).toEqual([[uuid, 'Catálogo: Urea', 'Primera']]);
    expect(await own(second)).toEqual([[uuid, 'Catálogo: Urea granulada', '']]);
    // each changes and deletes only its own
    await send(second, 'PATCH', [{ uuid, name: 'Urea (segunda)' }]);
    await send(second, 'DELETE', [{ uuid }]);
    expect(await own(first)).toEqual([[uuid, 'Catálogo: Urea', 'Primera']]);
    expect(await own(second)).toEqual([]);
    // and each uses its own in a labour
    const { fieldId } = await createField(first);
    const labour = await call('POST', '/activities/labour', {
      token: first.token,
      json: {
        labour_type_id: 1,
        yeargroup: 2026,
        date: '2026-11-20',
        field_id: fieldId,
        inputs: [{ uuid, dose: 1, unit: 'kg/ha' }],
      },
    });
    expect(labour.status, labour.text).toBe(200);
    const read = await call('GET', `/activities/labour/${labour.body.data.uuid}`, { token: first.token });
    expect(read.body.data.inputs.map((i: any) => [i.input_uuid, i.input_id, i.input_name])).toEqual([
      [uuid, mine.body.created[0].id, 'Catálogo: Urea'],
    ]);
  });

  it('answers 409 for a repeated uuid sent with other members, and writes nothing of that request', async () => {
    const user = await newUser();
    const uuid = randomUUID();
    const created = await send(user, 'POST', [{ name: 'Sulfato de amonio', uuid, code: '21' }]);
    expect(created.status).toBe(200);
    // renamed since: the first request sent again is still a replay
    await send(user, 'PATCH', [{ uuid, name: 'Sulfato (renombrado)' }]);
    const replay = await send(user, 'POST', [{ name: 'Sulfato de amonio', uuid, code: '21' }]);
    expect([replay.status, replay.body.created]).toEqual([
      200,
      [{ nombre: 'Sulfato (renombrado)', id: created.body.created[0].id, uuid }],
    ]);
    const other = randomUUID();
    for (const body of [
      [{ name: 'Otro nombre', uuid, code: '21' }],
      [{ name: 'Sulfato de amonio', uuid, code: '22' }],
      [
        { name: 'Nuevo', uuid: other },
        { name: 'Sulfato de amonio', uuid },
      ],
    ]) {
      const conflict = await send(user, 'POST', body);
      expect([conflict.status, conflict.body.res, conflict.body.code], JSON.stringify(body)).toEqual([409, 'error', 1]);
    }
    // nothing of the refused requests was written
    expect((await list(user, { user_input: 'true' })).body.map((i: any) => [i.uuid, i.name, i.code])).toEqual([
      [uuid, 'Sulfato (renombrado)', '21'],
    ]);
  });

  it("PATCH and DELETE change only the caller's own inputs: master and others' inputs are denied", async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const created = (await send(owner, 'POST', [{ name: 'Fungicida A' }, { name: 'Fungicida B' }])).body.created;
    const foreign = (await send(other, 'POST', [{ name: 'Ajeno' }])).body.created[0];
    const master = (await list(owner, { user_input: 'false' })).body[0];
    const patched = await send(owner, 'PATCH', [
      { uuid: created[0].uuid, name: 'Fungicida A (renombrado)', company: 'Propia' },
      { id: created[1].id, name: 'Fungicida B2' },
      { uuid: master.uuid, name: 'maestro cambiado' },
      { uuid: foreign.uuid, name: 'ajeno cambiado' },
      { name: 'sin identificar' },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ status: 'successful inputs modification', res: 'OK' });
    expect(patched.body.modificated).toEqual([
      { id: created[0].id, name: 'Fungicida A (renombrado)', uuid: created[0].uuid },
      { id: created[1].id, name: 'Fungicida B2', uuid: created[1].uuid },
    ]);
    expect(patched.body.denied.map((d: any) => d.reason)).toEqual([
      'master inputs cannot be changed',
      'no input of yours has this uuid or id',
      'uuid or id is required',
    ]);
    expect((await list(other, { user_input: 'true' })).body.map((i: any) => i.name)).toEqual(['Ajeno']);
    expect((await list(owner)).body.find((i: any) => i.uuid === master.uuid).name).toBe(master.name);

    const deleted = await send(
      owner,
      'DELETE',
      [{ uuid: created[0].uuid }, { id: master.id }, { uuid: foreign.uuid, id: foreign.id }],
      '/api/registro_campo/insumo',
    );
    expect(deleted.body).toMatchObject({ status: 'successful inputs deletion', res: 'OK' });
    expect(deleted.body.deleted).toEqual([
      { id: created[0].id, name: 'Fungicida A (renombrado)', uuid: created[0].uuid },
    ]);
    // ids count per owner: the other user's first input has the id of the owner's first
    expect(foreign.id).toBe(created[0].id);
    expect(deleted.body.denied.map((d: any) => d.reason)).toEqual([
      'master inputs cannot be deleted',
      'uuid and id name different inputs',
    ]);
    expect((await list(owner, { user_input: 'true' })).body.map((i: any) => i.name)).toEqual(['Fungicida B2']);
    expect((await list(other, { user_input: 'true' })).body).toHaveLength(1);
  });

  it('refuses a body that is not an array, and callers without a token', async () => {
    const user = await newUser();
    const notArray = await send(user, 'POST', { name: 'x' });
    expect([notArray.status, notArray.body.res, notArray.body.code]).toEqual([400, 'error', -4]);
    expect((await call('GET', LIST)).status).toBe(401);
    expect((await call('POST', '/registro_campo/insumo', { json: [{ name: 'x' }] })).status).toBe(401);
  });

  it("numbers each user's personal inputs on its own: ids say nothing of other users' inputs", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const first = (await send(a, 'POST', [{ name: 'A1' }, { name: 'A2' }])).body.created.map((i: any) => i.id);
    // b's inputs, whatever a made before, start where a's started
    const theirs = (await send(b, 'POST', [{ name: 'B1' }])).body.created.map((i: any) => i.id);
    expect(theirs).toEqual([first[0]]);
    expect(first[1]).toBe(first[0] + 1);
    expect(first[0]).toBe(100_001);
    // a labour that creates a personal input takes the next id of its owner
    const { fieldId } = await createField(b);
    const labour = await call('POST', '/activities/labour', {
      token: b.token,
      json: {
        labour_type_id: 1,
        yeargroup: 2026,
        date: '2026-05-10',
        field_id: fieldId,
        inputs: [{ name: 'B2 en labor', dose: 1, unit: 'L/ha' }],
      },
    });
    expect(labour.status).toBe(200);
    const mine = (await list(b, { user_input: 'true' })).body.map((i: any) => [i.nombre ?? i.name, i.id]);
    expect(mine).toEqual(
      expect.arrayContaining([
        ['B1', 100_001],
        ['B2 en labor', 100_002],
      ]),
    );
  });

  it('continues after the ids a user holds from when ids were global, so that its ids stay unique', async () => {
    const user = await newUser();
    const { endpoints, table, region } = stack();
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region, endpoint: endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }),
    );
    const legacy = randomUUID();
    // an input numbered by the old global sequence
    await db.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...keys.userInput(user.id, legacy),
          kind: 'input',
          input_id: 100_057,
          input_uuid: legacy,
          name: 'Antiguo',
          owner_id: user.id,
          code: null,
          country: null,
          company: null,
          type: null,
          state: null,
          density: null,
          composition: null,
          components: [],
          deleted: false,
          created_at: '2026-01-01T00:00:00Z',
          version: 1,
        },
      }),
    );
    const made = (await send(user, 'POST', [{ name: 'Nuevo' }])).body.created;
    expect(made.map((i: any) => i.id)).toEqual([100_058]);
  });
});
