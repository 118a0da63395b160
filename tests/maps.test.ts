// Spec 2, "Maps": /api/users/me/maps (GET, POST, PUT, PATCH, and our DELETE) and the shapefile
// download, read back with an independent library (shpjs); every error info of the contract.
import JSZip from 'jszip';
import { combine, parseDbf, parseShp } from 'shpjs';
import { describe, expect, it } from 'vitest';
import { call, createField, download, internal, newUser, square, type TestUser, tokenFor } from './helpers/api';

const PATH = '/api/users/me/maps';
const ring = (lon: number, lat: number, size: number) => [
  [lon, lat],
  [lon + size, lat],
  [lon + size, lat + size],
  [lon, lat + size],
  [lon, lat],
];
const zoning = (lon = -60.5, lat = -33.9) => ({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [ring(lon, lat, 0.005)] },
      properties: { nombre: 'Zona baja', id: 0 },
    },
    {
      type: 'Feature',
      geometry: {
        type: 'MultiPolygon',
        coordinates: [[ring(lon + 0.005, lat, 0.005)], [ring(lon, lat + 0.005, 0.005)]],
      },
      properties: { id: 1 },
    },
  ],
});
const metadata = {
  capas: {
    0: { color: [255, 0, 0, 255], nombre: 'Zona baja' },
    1: { color: [0, 128, 0, 255], nombre: 'Zona alta ñandú' },
  },
};

const send = (user: TestUser, method: string, json: unknown) => call(method, PATH, { token: user.token, json });
const list = (user: TestUser, query: Record<string, number> = {}) => call('GET', PATH, { token: user.token, query });

async function setup() {
  const owner = await newUser();
  const { fieldId } = await createField(owner, { shape: square(-60.5, -33.9, 0.01) });
  const created = await send(owner, 'POST', {
    nombre: 'Ambientes 2026',
    id_lote: fieldId,
    id_tipo: 1,
    geojson: zoning(),
    metadata,
  });
  expect(created.status).toBe(200);
  return { owner, fieldId, mapId: created.body.id as number };
}

const expectError = (response: { status: number; body: any }, status: number, info: string) =>
  expect([response.status, response.body.res, response.body.info]).toEqual([status, 'Error', info]);

describe('/api/users/me/maps', () => {
  it("creates a map ({info:'Valid data', res:'OK', code:0}); lists carry no geojson, one map carries it with every field of the Map table", async () => {
    const { owner, fieldId, mapId } = await setup();
    const listed = await list(owner, { id_lote: fieldId });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const [summary] = listed.body.data;
    expect(summary).toEqual({
      id: mapId,
      nombre: 'Ambientes 2026',
      id_lote: fieldId,
      id_tipo: 1,
      id_usuario: owner.id,
      fecha_ini: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
      metadata,
    });
    expect((await list(owner)).body.data.map((m: any) => m.id)).toEqual([mapId]);
    const one = await list(owner, { id: mapId });
    expect(one.body.data).toMatchObject({ ...summary, geojson: { type: 'FeatureCollection' } });
    // Polygon features, as the Map table shows: the MultiPolygon sent is one feature per part, of the same zone
    expect(one.body.data.geojson.features.map((f: any) => [f.geometry.type, f.properties])).toEqual([
      ['Polygon', { nombre: 'Zona baja', _featid: 0, id: 0 }],
      ['Polygon', { nombre: 'Zona alta ñandú', _featid: 1, id: 1 }],
      ['Polygon', { nombre: 'Zona alta ñandú', _featid: 2, id: 1 }],
    ]);
    const [low, high] = zoning().features;
    expect(one.body.data.geojson.features.map((f: any) => f.geometry.coordinates)).toEqual([
      low!.geometry.coordinates,
      ...(high!.geometry.coordinates as unknown[]),
    ]);
  });

  it('refuses a name the caller already uses (409), bad parameters (400) and a field it cannot use (Invalid field / permissions)', async () => {
    const { owner, fieldId } = await setup();
    expectError(
      await send(owner, 'POST', { nombre: ' ambientes  2026 ', id_lote: fieldId, id_tipo: 2, geojson: zoning() }),
      409,
      'The map name is already used',
    );
    const bad = [
      { nombre: '', id_lote: fieldId, id_tipo: 1, geojson: zoning() },
      { nombre: 'x', id_lote: fieldId, id_tipo: 7, geojson: zoning() },
      { nombre: 'x', id_lote: fieldId, id_tipo: 1, geojson: { type: 'FeatureCollection', features: [] } },
      {
        nombre: 'x',
        id_lote: fieldId,
        id_tipo: 1,
        geojson: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [-60.5, -33.9] } }],
        },
      },
      // a bow tie is not a valid polygon; a zone far from the field does not intersect it
      {
        nombre: 'x',
        id_lote: fieldId,
        id_tipo: 1,
        geojson: {
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [-60.5, -33.9],
                    [-60.49, -33.89],
                    [-60.49, -33.9],
                    [-60.5, -33.89],
                    [-60.5, -33.9],
                  ],
                ],
              },
            },
          ],
        },
      },
      { nombre: 'x', id_lote: fieldId, id_tipo: 1, geojson: zoning(10, 10) },
      {
        nombre: 'x',
        id_lote: fieldId,
        id_tipo: 1,
        geojson: zoning(),
        metadata: { capas: { 0: { color: [300, 0, 0, 1], nombre: 'a' } } },
      },
      { nombre: 'x', id_lote: fieldId, id_tipo: 1, geojson: zoning(), metadata: { otra: 1 } },
      { nombre: 'x', id_tipo: 1, geojson: zoning() },
    ];
    for (const body of bad) expectError(await send(owner, 'POST', body), 400, 'Invalid parameters');
    expectError(
      await send(owner, 'POST', { nombre: 'x', id_lote: 999_999_999, id_tipo: 1, geojson: zoning() }),
      400,
      'Invalid field',
    );
    const stranger = await newUser();
    expectError(
      await send(stranger, 'POST', { nombre: 'x', id_lote: fieldId, id_tipo: 1, geojson: zoning() }),
      400,
      'Invalid field',
    );
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    expectError(
      await send(reader, 'POST', { nombre: 'x', id_lote: fieldId, id_tipo: 1, geojson: zoning() }),
      403,
      'User does not have enough permissions',
    );
    expect((await list(owner)).body.data).toHaveLength(1);
  });

  it('PUT overwrites, PATCH changes only what is sent; only the creator may (Denied access); names stay unique', async () => {
    const { owner, fieldId, mapId } = await setup();
    const other = await send(owner, 'POST', { nombre: 'Rinde', id_lote: fieldId, id_tipo: 2, geojson: zoning() });
    const patched = await send(owner, 'PATCH', { id: mapId, nombre: 'Ambientes corregidos' });
    expect(patched.body).toMatchObject({ info: 'Valid data', res: 'OK', code: 0 });
    const afterPatch = (await list(owner, { id: mapId })).body.data;
    expect([afterPatch.nombre, afterPatch.id_tipo, afterPatch.metadata]).toEqual(['Ambientes corregidos', 1, metadata]);
    // the old name is free again, the other map's is not
    expectError(await send(owner, 'PATCH', { id: mapId, nombre: 'rinde' }), 409, 'The map name is already used');
    expect(
      (await send(owner, 'POST', { nombre: 'Ambientes 2026', id_lote: fieldId, id_tipo: 1, geojson: zoning() })).status,
    ).toBe(200);
    const replaced = await send(owner, 'PUT', {
      id: mapId,
      nombre: 'Prescripción',
      id_lote: fieldId,
      id_tipo: 6,
      geojson: { type: 'FeatureCollection', features: [zoning().features[0]] },
    });
    expect(replaced.status).toBe(200);
    const afterPut = (await list(owner, { id: mapId })).body.data;
    expect([afterPut.nombre, afterPut.id_tipo, afterPut.metadata, afterPut.geojson.features.length]).toEqual([
      'Prescripción',
      6,
      {},
      1,
    ]);
    expectError(
      await send(owner, 'PUT', { id: mapId, nombre: 'x', id_lote: fieldId, id_tipo: 1 }),
      400,
      'Invalid parameters',
    );
    expectError(await send(owner, 'PATCH', { nombre: 'sin id' }), 400, 'Invalid parameters');
    expectError(await send(owner, 'PATCH', { id: 999_999_999, nombre: 'x' }), 404, 'Map not found');
    // another user who edits the field may read the map, not change it
    const editor = await newUser();
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    expect((await list(editor, { id: mapId })).status).toBe(200);
    expectError(
      await send(editor, 'PUT', { id: mapId, nombre: 'Mío', id_lote: fieldId, id_tipo: 1, geojson: zoning() }),
      403,
      'Denied access',
    );
    expectError(await send(editor, 'PATCH', { id: other.body.id, nombre: 'Mío' }), 403, 'Denied access');
    // a stranger does not even see it
    expectError(await list(await newUser(), { id: mapId }), 404, 'Map not found');
  });

  it("create_application: true records a planned application of the field's current campaign that references the map, once", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: square(-60.5, -33.9, 0.01) });
    const campaign = new Date().getUTCFullYear();
    const labours = async () =>
      (
        await call('GET', '/activities/labour', {
          token: owner.token,
          query: { yeargroup: campaign, fields_id: fieldId },
        })
      ).body.data as any[];
    const created = await send(owner, 'POST', {
      nombre: 'Prescripción N',
      id_lote: fieldId,
      id_tipo: 6,
      geojson: zoning(),
      create_application: true,
    });
    expect(created.status).toBe(200);
    const [application] = await labours();
    expect(application).toMatchObject({
      labour_type_id: 1,
      status: 1,
      yeargroup: campaign,
      field_id: fieldId,
      map_id: created.body.id,
      inputs: [],
    });
    // a map without it records none; a change that asks again does not record a second one
    const plain = await send(owner, 'POST', { nombre: 'Ambientes', id_lote: fieldId, id_tipo: 1, geojson: zoning() });
    await send(owner, 'PATCH', { id: created.body.id, create_application: true });
    expect((await labours()).map((l) => l.map_id)).toEqual([created.body.id]);
    // asked later on a change, once
    await send(owner, 'PATCH', { id: plain.body.id, create_application: 'true' });
    await send(owner, 'PATCH', { id: plain.body.id, create_application: true });
    expect((await labours()).map((l) => l.map_id).sort()).toEqual([created.body.id, plain.body.id].sort());
    // a map refused (name taken) records no labour
    expect(
      (
        await send(owner, 'POST', {
          nombre: 'prescripción n',
          id_lote: fieldId,
          id_tipo: 6,
          geojson: zoning(),
          create_application: true,
        })
      ).status,
    ).toBe(409);
    expect(await labours()).toHaveLength(2);
  });

  it('deletes a map (the creator only), and deletes the maps of a deleted field', async () => {
    const { owner, fieldId, mapId } = await setup();
    const editor = await newUser();
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    expectError(await call('DELETE', PATH, { token: editor.token, query: { id: mapId } }), 403, 'Denied access');
    expect((await call('DELETE', PATH, { token: owner.token, query: { id: mapId } })).body).toEqual({
      info: 'Map deleted',
      res: 'OK',
      code: 0,
    });
    expectError(await list(owner, { id: mapId }), 404, 'Map not found');
    // its name is free again
    const again = await send(owner, 'POST', {
      nombre: 'Ambientes 2026',
      id_lote: fieldId,
      id_tipo: 1,
      geojson: zoning(),
    });
    expect(again.status).toBe(200);
    expect((await call('GET', '/api/borrarlotes', { token: owner.token, query: { lote: fieldId } })).status).toBe(200);
    const deadline = performance.now() + 30_000;
    while (performance.now() < deadline && (await list(owner)).body.data.length > 0)
      await new Promise((r) => setTimeout(r, 250));
    expect((await list(owner)).body.data).toEqual([]);
    expectError(await list(owner, { id: again.body.id }), 404, 'Map not found');
  });

  it('downloads the map as a zipped shapefile: .shp .shx .dbf .prj .cpg named after nombre, read back by shpjs with the same geometries and accented names', async () => {
    const { owner, mapId } = await setup();
    const form = new FormData();
    form.set('id_mapa', String(mapId));
    form.set('nombre', 'Ambientes Ñandú');
    const response = await download('POST', `${PATH}/download`, { token: owner.token, body: form });
    expect(response.status).toBe(200);
    expect(response.type).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Ambientes Ñandú.zip')}`,
    );
    const zip = await JSZip.loadAsync(response.bytes);
    expect(Object.keys(zip.files).sort(), JSON.stringify(Object.keys(zip.files))).toEqual([
      'Ambientes Ñandú.cpg',
      'Ambientes Ñandú.dbf',
      'Ambientes Ñandú.prj',
      'Ambientes Ñandú.shp',
      'Ambientes Ñandú.shx',
    ]);
    const file = async (ext: string) => zip.file(`Ambientes Ñandú.${ext}`)!.async('uint8array');
    const cpg = new TextDecoder().decode(await file('cpg'));
    const read = combine([
      parseShp(await file('shp'), new TextDecoder().decode(await file('prj'))),
      parseDbf(await file('dbf'), cpg),
    ]);
    expect(cpg).toBe('UTF-8');
    expect(read.features.map((f: any) => [f.properties.nombre, f.properties.id, f.geometry.type])).toEqual([
      ['Zona baja', 0, 'Polygon'],
      ['Zona alta ñandú', 1, 'Polygon'],
      ['Zona alta ñandú', 1, 'Polygon'],
    ]);
    const sorted = (r: number[][]) =>
      r
        .slice(0, -1)
        .map(([x, y]) => [Number(x!.toFixed(9)), Number(y!.toFixed(9))])
        .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    expect(read.features.map((f: any) => sorted(f.geometry.coordinates[0]))).toEqual([
      sorted(ring(-60.5, -33.9, 0.005)),
      sorted(ring(-60.495, -33.9, 0.005)),
      sorted(ring(-60.5, -33.895, 0.005)),
    ]);
    const stranger = new FormData();
    stranger.set('id_mapa', String(mapId));
    stranger.set('nombre', 'x');
    expectError(
      await call('POST', `${PATH}/download`, { token: (await newUser()).token, body: stranger }),
      404,
      'Map not found',
    );
  });

  it('keeps every name exactly in the shapefile: the .dbf in UTF-8 with a UTF-8 .cpg, whatever the script', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: square(-60.5, -33.9, 0.01) });
    const names = ['Zona “Norte” €', 'Ζώνη βόρεια', 'Северная зона', 'Lote Ñandú — 50 % (çà)', '北区'];
    const geojson = {
      type: 'FeatureCollection',
      features: names.map((nombre, i) => ({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [ring(-60.5 + i * 0.001, -33.9, 0.001)] },
        properties: { nombre, id: i },
      })),
    };
    const created = await send(owner, 'POST', { nombre: 'Zonas', id_lote: fieldId, id_tipo: 1, geojson });
    expect(created.status, created.text).toBe(200);
    const form = new FormData();
    form.set('id_mapa', String(created.body.id));
    form.set('nombre', 'zonas');
    const response = await download('POST', `${PATH}/download`, { token: owner.token, body: form });
    expect(response.status).toBe(200);
    const zip = await JSZip.loadAsync(response.bytes);
    const dbf = Buffer.from(await zip.file('zonas.dbf')!.async('uint8array'));
    expect(await zip.file('zonas.cpg')!.async('string')).toBe('UTF-8');
    // the bytes are each name's UTF-8, whole (not cut to a low byte)
    for (const name of names) expect(dbf.includes(Buffer.from(name, 'utf8')), name).toBe(true);
    const read = parseDbf(new Uint8Array(dbf), 'UTF-8') as Array<{ nombre: string }>;
    expect(read.map((row) => row.nombre)).toEqual(names);
  });

  it("takes id_tipo and create_application as id_lote (JSON text, form bodies); names are unique per field, whoever made the maps; a client's _featid is kept", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: square(-60.5, -33.9, 0.01) });
    const { fieldId: otherField } = await createField(owner, { shape: square(-60.4, -33.9, 0.01) });
    // JSON with texts for the numbers and the boolean
    const texts = await send(owner, 'POST', {
      nombre: 'Como texto',
      id_lote: String(fieldId),
      id_tipo: '6',
      create_application: 'true',
      geojson: zoning(),
    });
    expect(texts.status, texts.text).toBe(200);
    const read = (await list(owner, { id: texts.body.id })).body.data;
    expect([read.id_tipo, read.id_lote]).toEqual([6, fieldId]);
    // a form-encoded body (geojson and metadata as JSON text)
    const form = await call('POST', PATH, {
      token: owner.token,
      form: {
        nombre: 'Como formulario',
        id_lote: fieldId,
        id_tipo: '2',
        create_application: 'false',
        geojson: JSON.stringify(zoning()),
        metadata: JSON.stringify(metadata),
      },
    });
    expect(form.status, form.text).toBe(200);
    const fromForm = (await list(owner, { id: form.body.id })).body.data;
    expect([fromForm.id_tipo, fromForm.metadata]).toEqual([2, metadata]);
    const labours = await call('GET', '/activities/labour', {
      token: owner.token,
      query: { yeargroup: new Date().getUTCFullYear() },
    });
    expect(labours.body.data.map((l: any) => l.map_id)).toEqual([texts.body.id]);
    // names: unique on a field whoever made them; the same name on another field is fine
    const editor = await newUser();
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    expectError(
      await send(editor, 'POST', { nombre: 'como  TEXTO', id_lote: fieldId, id_tipo: 1, geojson: zoning() }),
      409,
      'The map name is already used',
    );
    expect(
      (await send(owner, 'POST', { nombre: 'Como texto', id_lote: otherField, id_tipo: 1, geojson: zoning(-60.4) }))
        .status,
    ).toBe(200);
    // a client's _featid is kept (numbers and texts); features without one take their position
    const featids = zoning();
    (featids.features[0]!.properties as Record<string, unknown>)._featid = 'zona-a';
    (featids.features[1]!.properties as Record<string, unknown>)._featid = 41;
    const kept = await send(owner, 'POST', { nombre: 'Con ids', id_lote: fieldId, id_tipo: 1, geojson: featids });
    expect(kept.status, kept.text).toBe(200);
    expect(
      (await list(owner, { id: kept.body.id })).body.data.geojson.features.map((f: any) => f.properties._featid),
    ).toEqual(['zona-a', 41, 41]);
  });

  it('answers 401 without a token, in the maps dialect', async () => {
    const response = await call('GET', PATH);
    expect([response.status, response.body.res]).toEqual([401, 'Error']);
  });
});

describe('maps: the rights a change needs', () => {
  it('create_application needs the View season feature, as POST /activities/labour does: 403, no map, no labour', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: square(-60.5, -33.9, 0.01) });
    const noSeason = { ...owner, token: await tokenFor(owner.id, { claims: ['FIELDS_CREATE', 'MANAGEMENT_ZONES'] }) };
    const campaign = new Date().getUTCFullYear();
    // the same token is refused a labour with code 11
    const labour = await call('POST', '/activities/labour', {
      token: noSeason.token,
      json: { labour_type_id: 1, yeargroup: campaign, date: `${campaign}-05-10`, field_id: fieldId },
    });
    expect([labour.status, labour.body.code]).toEqual([403, 11]);
    const refused = await send(noSeason, 'POST', {
      nombre: 'Prescripción',
      id_lote: fieldId,
      id_tipo: 6,
      geojson: zoning(),
      create_application: true,
    });
    expectError(refused, 403, 'User does not have enough permissions');
    expect(refused.body.detail).toMatch(/View season/);
    expect((await list(owner, { id_lote: fieldId })).body.data).toEqual([]);
    const labours = await call('GET', '/activities/labour', {
      token: owner.token,
      query: { yeargroup: campaign, fields_id: fieldId },
    });
    expect(labours.body.data).toEqual([]);
    // the map alone is drawn with that token; asking for the labour on a change is refused too
    const plain = await send(noSeason, 'POST', {
      nombre: 'Ambientes',
      id_lote: fieldId,
      id_tipo: 1,
      geojson: zoning(),
    });
    expect(plain.status).toBe(200);
    expectError(
      await send(noSeason, 'PATCH', { id: plain.body.id, create_application: true }),
      403,
      'User does not have enough permissions',
    );
    const after = await call('GET', '/activities/labour', {
      token: owner.token,
      query: { yeargroup: campaign, fields_id: fieldId },
    });
    expect(after.body.data).toEqual([]);
  });

  it("DELETE checks the creator's current rights: a share downgraded to read answers 403 to PATCH and to DELETE", async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner, { shape: square(-60.5, -33.9, 0.01) });
    const editor = await newUser();
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    const made = await send(editor, 'POST', { nombre: 'Del editor', id_lote: fieldId, id_tipo: 1, geojson: zoning() });
    expect(made.status).toBe(200);
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'read' });
    expectError(
      await send(editor, 'PATCH', { id: made.body.id, nombre: 'Otro' }),
      403,
      'User does not have enough permissions',
    );
    expectError(
      await call('DELETE', PATH, { token: editor.token, query: { id: made.body.id } }),
      403,
      'User does not have enough permissions',
    );
    expect((await list(owner, { id: made.body.id })).body.data).toMatchObject({ nombre: 'Del editor' });
    // edit again: the creator deletes it
    await internal('/internal/shares', { user_id: editor.id, field_id: fieldId, permission: 'edit' });
    expect((await call('DELETE', PATH, { token: editor.token, query: { id: made.body.id } })).status).toBe(200);
  });
});
