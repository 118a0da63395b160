// docs/data-model.md, "Backfills": rotations, labours, spots, samplings, fields' storage and maps
// written before their indexes (the farm's rotations, a field's and a farm's labours by date, its
// campaign's and its farm's tallies, a farm's spots, samplings and storage, the maps' heads) are found by the lists once the
// backfill has run (scripts/backfill.ts, run by the stack's start and by npm run deploy), the same
// answers as for those written since; it touches nothing else and may run again.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { BACKFILLS } from '../lib/db/backfills';
import { keys } from '../lib/db/keys';
import { runBackfills } from '../scripts/backfill';
import { call, createField, eventually, internal, newUser, stack } from './helpers/api';

const client = () =>
  new DynamoDBClient({
    region: 'us-east-1',
    endpoint: stack().endpoints.dynamodb,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

describe('backfill of the list indexes', () => {
  it('indexes and counts what was written before the indexes; the lists then answer it as before', async () => {
    const user = await newUser();
    const { fieldId, farmId } = await createField(user);
    const rotation = await call('POST', '/rotations', {
      token: user.token,
      json: [
        {
          field_id: fieldId,
          crop_id: 1,
          yeargroup: 2026,
          start_date: '2026-01-10T00:00:00Z',
          end_date: '2026-06-10T00:00:00Z',
        },
      ],
    });
    expect(rotation.status).toBe(200);
    for (const [date, status] of [
      ['2026-03-10', 1],
      ['2026-01-10', 2],
      ['2026-02-10', 2],
    ] as const) {
      const made = await call('POST', '/activities/labour', {
        token: user.token,
        json: { field_id: fieldId, yeargroup: 2026, date, labour_type_id: 4, status, surface: 1 },
      });
      expect(made.status).toBe(200);
    }
    for (const name of ['one', 'two']) {
      const spot = await call('POST', '/spots/spot', {
        token: user.token,
        json: { field_id: fieldId, shape: 'POINT(-60.495 -33.895)', name },
      });
      expect(spot.status, spot.text).toBe(200);
    }
    const sampling = await internal('/internal/samplings', {
      sampling_name: 'Muestreo',
      field_id: fieldId,
      yeargroup: 2026,
      zoning: { info: {}, type: 'none' },
      analysis: { Fertilidad: [{ name: 'P', unit_id: 1 }] },
      groups: [],
      points: [],
    });
    expect(sampling.status, sampling.text).toBe(200);
    // an extension's value and file of the field (its storage, spec 3)
    const stored = await call('POST', '/api/mktplace/storage/fields', {
      token: user.token,
      query: { operation: 'PUT' },
      json: { id: fieldId, key: 'notes', data: { crop: 'soy' } },
    });
    expect(stored.body, stored.text).toEqual({ info: { code: 0 } });
    const declared = await call('POST', '/api/mktplace/filestorage/fields', {
      token: user.token,
      query: { operation: 'PUT' },
      json: {
        key: 'plan',
        original_file_name: 'plan.pdf',
        md5: '1B2M2Y8AsgTpgAmY7PhCfg==',
        file_size_kb: 1,
        field: fieldId,
      },
    });
    expect(declared.status, declared.text).toBe(200);
    // a map of the field: its lists answer it without its GeoJSON (spec 2)
    const lonLat = [-60.5 + 0.001, -33.9 + 0.001];
    const ring = [0, 1, 2, 3, 0].map((corner) => [
      lonLat[0]! + (corner === 1 || corner === 2 ? 0.002 : 0),
      lonLat[1]! + (corner >= 2 && corner <= 3 ? 0.002 : 0),
    ]);
    const madeMap = await call('POST', '/api/users/me/maps', {
      token: user.token,
      json: {
        nombre: 'Ambientes',
        id_lote: fieldId,
        id_tipo: 1,
        geojson: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { id: 0 } }],
        },
      },
    });
    expect(madeMap.status, madeMap.text).toBe(200);
    const mapLists = async () => [
      (await call('GET', '/api/users/me/maps', { token: user.token, query: { id_lote: fieldId } })).body,
      (await call('GET', '/api/users/me/maps', { token: user.token })).body,
    ];
    // every field's storage (no ids): the farm's index
    const storage = async () => [
      (
        await call('POST', '/api/mktplace/storage/fields', {
          token: user.token,
          query: { operation: 'GET' },
          json: { keys: [] },
        })
      ).body,
      (
        await call('POST', '/api/mktplace/filestorage/fields', {
          token: user.token,
          query: { operation: 'GET' },
          json: { keys: ['plan'] },
        })
      ).body,
    ];
    const analyses = () => call('GET', '/api/sampling/analysis', { token: user.token, query: { farm_id: farmId } });
    const labours = (query: Record<string, string | number> = {}) =>
      call('GET', '/activities/labour', {
        token: user.token,
        query: { yeargroup: 2026, fields_id: String(fieldId), page_size: 2, ...query },
      });
    // without field ids: the farms' index and tallies
    const everyFarm = (query: Record<string, string | number> = {}) =>
      call('GET', '/activities/labour', { token: user.token, query: { yeargroup: 2026, page_size: 2, ...query } });
    const spots = () => call('POST', '/spots/all', { token: user.token, json: { page_size: 1 } });
    const rotations = () => call('GET', '/rotations', { token: user.token, query: { yeargroup: 2026 } });
    const before = {
      labours: (await labours()).body,
      rotations: (await rotations()).body,
      everyFarm: (await everyFarm()).body,
      spots: (await spots()).body,
      analyses: (await analyses()).body,
      storage: await storage(),
      maps: await mapLists(),
    };
    expect(before.maps.map((listed) => listed.data.map((m: { nombre: string }) => m.nombre))).toEqual([
      ['Ambientes'],
      ['Ambientes'],
    ]);
    expect(before.storage[0].info.objects).toEqual({ [fieldId]: { notes: { crop: 'soy' } } });
    expect(Object.keys(before.storage[1].objects[fieldId])).toEqual(['plan']);
    expect(before.analyses.data.map((a: { sampling_uuid: string }) => a.sampling_uuid)).toEqual([
      sampling.body.data.sampling_uuid,
    ]);
    expect(before.everyFarm).toEqual(before.labours);
    expect(before.spots.data.map((s: { spot_name: string }) => s.spot_name)).toEqual(['two']);
    expect(before.labours.data.map((l: { date: string }) => l.date.slice(0, 10))).toEqual(['2026-01-10', '2026-02-10']);
    expect(before.labours.pagination.total_page).toBe(2);
    expect(before.rotations.data).toHaveLength(1);

    // as the code before the indexes wrote them: no index attributes, no farm on the rotation, no tally
    const { table } = stack();
    const db = DynamoDBDocumentClient.from(client());
    const partition = (
      await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `FIELD#${fieldId}` },
        }),
      )
    ).Items!;
    const strip = async (item: Record<string, unknown>, attributes: string[]) =>
      db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: `REMOVE ${attributes.map((_, i) => `#a${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
        }),
      );
    for (const item of partition) {
      const sk = String(item.sk);
      if (sk.startsWith('ROTATION#')) await strip(item, ['gsi1pk', 'gsi1sk', 'farm_id']);
      if (sk.startsWith('LABOUR#')) await strip(item, ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']);
      if (sk.startsWith('SPOT#')) await strip(item, ['gsi3pk', 'gsi3sk']);
      if (sk.startsWith('SAMPLING#')) await strip(item, ['gsi1pk', 'gsi1sk', 'farm_id']);
      if (sk.startsWith('KV#') || sk.startsWith('FILE#')) await strip(item, ['gsi1pk', 'gsi1sk', 'farm_id']);
      if (sk.startsWith('MAPHEAD#')) await db.send(new DeleteCommand({ TableName: table, Key: { pk: item.pk, sk } }));
      if (sk.startsWith('CAMPAIGN#'))
        await strip(item, [
          'labours_tallied',
          'labour_writes',
          'farm_counted',
          'farm_id',
          ...Object.keys(item).filter((k) => /^labours_\d/.test(k)),
        ]);
    }
    // no farm tally either
    await db.send(new DeleteCommand({ TableName: table, Key: keys.farmLabourTally(farmId, 2026) }));
    for (const name of Object.values(BACKFILLS))
      await db.send(new DeleteCommand({ TableName: table, Key: keys.backfill(name) }));

    const changed = await runBackfills(client(), table);
    expect(changed[BACKFILLS.rotationsByFarm]).toBeGreaterThanOrEqual(1);
    expect(changed[BACKFILLS.labourTallies]).toBeGreaterThanOrEqual(4); // the campaign and its three labours
    expect(changed[BACKFILLS.laboursByFarm]).toBeGreaterThanOrEqual(4); // the same, in the farm
    expect(changed[BACKFILLS.spotsByFarm]).toBeGreaterThanOrEqual(2);
    expect(changed[BACKFILLS.samplingsByFarm]).toBeGreaterThanOrEqual(1);
    expect(changed[BACKFILLS.storageByFarm]).toBe(2); // the value and the file's record
    expect(changed[BACKFILLS.mapHeads]).toBe(1);
    const campaign = (
      await db.send(new GetCommand({ TableName: table, Key: keys.campaign(fieldId, 2026), ConsistentRead: true }))
    ).Item!;
    expect([campaign.labours_tallied, campaign.labours_1_4, campaign.labours_2_4]).toEqual([true, 1, 2]);
    expect([campaign.farm_counted, campaign.farm_id]).toEqual([true, farmId]);
    const farmTally = (
      await db.send(new GetCommand({ TableName: table, Key: keys.farmLabourTally(farmId, 2026), ConsistentRead: true }))
    ).Item!;
    expect([farmTally.labours_1_4, farmTally.labours_2_4]).toEqual([1, 2]);
    // run again: nothing left to do
    expect(Object.values(await runBackfills(client(), table)).every((n) => n === 0)).toBe(true);

    expect((await labours()).body).toEqual(before.labours);
    expect((await labours({ page: 2 })).body.data.map((l: { date: string }) => l.date.slice(0, 10))).toEqual([
      '2026-03-10',
    ]);
    expect((await labours({ status: 2 })).body.pagination.total_page).toBe(1);
    expect((await rotations()).body).toEqual(before.rotations);
    expect(await mapLists()).toEqual(before.maps);
    // the head follows the map's writes: renamed, then deleted
    const mapId = madeMap.body.id as number;
    const renamed = await call('PATCH', '/api/users/me/maps', {
      token: user.token,
      json: { id: mapId, nombre: 'Rinde' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await mapLists()).map((listed) => listed.data.map((m: { nombre: string }) => m.nombre))).toEqual([
      ['Rinde'],
      ['Rinde'],
    ]);
    expect((await call('DELETE', '/api/users/me/maps', { token: user.token, query: { id: mapId } })).status).toBe(200);
    expect((await mapLists()).map((listed) => listed.data)).toEqual([[], []]);
    // the farm's index lags its writes (an index is eventually consistent)
    await eventually(async () => {
      const [farmPage, spotPage, analysesPage] = [
        (await everyFarm()).body,
        (await spots()).body,
        (await analyses()).body,
      ];
      return JSON.stringify(farmPage) === JSON.stringify(before.everyFarm) &&
        JSON.stringify(spotPage) === JSON.stringify(before.spots) &&
        JSON.stringify(analysesPage) === JSON.stringify(before.analyses) &&
        JSON.stringify(await storage()) === JSON.stringify(before.storage)
        ? true
        : undefined;
    });
    expect((await everyFarm({ status: 2 })).body.pagination.total_page).toBe(1);
    // counted once: a labour written since moves the farm's tally, a run again adds nothing
    const made = await call('POST', '/activities/labour', {
      token: user.token,
      json: { field_id: fieldId, yeargroup: 2026, date: '2026-04-10', labour_type_id: 4, status: 2, surface: 1 },
    });
    expect(made.status).toBe(200);
    expect(Object.values(await runBackfills(client(), table)).every((n) => n === 0)).toBe(true);
    expect((await everyFarm({ status: 2 })).body.pagination.total_page).toBe(2);
    expect((await everyFarm()).body.pagination.total_page).toBe(2);
  });
});
