// lib/maps/service.ts against memory: the rules of user maps without DynamoDB (repository, gate and
// planned applications are parameters; tests/maps.test.ts runs them through the API).
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { LostRace } from '../../lib/db/retry';
import { DomainError } from '../../lib/errors';
import type { LabourSave } from '../../lib/labours/service';
import { MAP_INFOS } from '../../lib/maps/codes';
import { type MapRecord, zonesOf } from '../../lib/maps/model';
import { type MapRepository, mapsService } from '../../lib/maps/service';
import { memoryGate } from './helpers/memory-gate';

function memory() {
  const maps = new Map<number, MapRecord>();
  const applications: LabourSave[] = [];
  let ids = 0;
  let loseNext = false;
  const nameUsed = (m: MapRecord) =>
    [...maps.values()].some((o) => o.fieldId === m.fieldId && o.id !== m.id && o.name === m.name);
  const repository: MapRepository = {
    nextId: async () => ++ids,
    fieldOf: async (id) => maps.get(id)?.fieldId,
    map: async (_fieldId, id) => maps.get(id),
    mapsOfField: async (fieldId) => [...maps.values()].filter((m) => m.fieldId === fieldId),
    mapsOfOwner: async (ownerId) => [...maps.values()].filter((m) => m.ownerId === ownerId),
    async create(map, application, nameTaken) {
      if (nameUsed(map)) throw nameTaken();
      maps.set(map.id, map);
      if (application) applications.push(application);
    },
    async replace(next, previous, application, nameTaken) {
      if (loseNext || maps.get(previous.id)?.version !== previous.version) {
        loseNext = false;
        throw new LostRace('changed');
      }
      if (nameUsed(next)) throw nameTaken();
      maps.set(next.id, next);
      if (application) applications.push(application);
    },
    remove: async (map) => void maps.delete(map.id),
  };
  return { repository, maps, applications, loseNext: () => (loseNext = true) };
}

const owner = { user: { id: 9 }, claims: new Set(['SEASON_VIEW']) } as unknown as Principal;
const other = { user: { id: 10 }, claims: new Set(['SEASON_VIEW']) } as unknown as Principal;
/** The owner through a token without the View season feature. */
const ownerWithoutSeason = { user: { id: 9 }, claims: new Set() } as unknown as Principal;
const zone = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0.001, 0.001],
            [0.002, 0.001],
            [0.002, 0.002],
            [0.001, 0.002],
            [0.001, 0.001],
          ],
        ],
      },
    },
  ],
};
const infoOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? error.message : error),
  );

function setup(writes = [1, 2], reads = [3]) {
  const store = memory();
  const plannedApplication = async (
    userId: number,
    field: { id: number },
    mapId: number,
    yeargroup: number,
    date: string,
  ) =>
    ({
      labour: { uuid: `app-${mapId}`, fieldId: field.id, yeargroup, date, mapId, createdBy: userId },
    }) as unknown as LabourSave;
  const service = mapsService({
    repository: store.repository,
    fields: memoryGate({ writes, reads }),
    plannedApplication,
    now: () => new Date('2026-11-23T10:00:00Z'),
  });
  return { ...store, service };
}

describe('map rules (repository in memory)', () => {
  it('creates a map on a writable field, with its planned application once when asked', async () => {
    const { service, applications } = setup();
    const map = await service.createMap(owner, {
      name: 'Ambientes',
      fieldId: 1,
      typeId: 1,
      geojson: zone,
      createApplication: true,
    });
    expect(map).toMatchObject({
      fieldId: 1,
      ownerId: 9,
      applicationRequested: true,
      createdAt: '2026-11-23T10:00:00.000Z',
    });
    expect(applications.map((a) => a.labour)).toEqual([
      expect.objectContaining({ mapId: map.id, yeargroup: 2026, date: '2026-11-23' }),
    ]);
    await service.changeMap(owner, map.id, { createApplication: true }, 'patch');
    expect(applications).toHaveLength(1);
  });

  it("refuses a field it cannot read ('Invalid field'), a read-only one, a name in use and another user's changes", async () => {
    const { service, maps } = setup();
    expect(await infoOf(service.createMap(owner, { name: 'x', fieldId: 4, typeId: 1, geojson: zone }))).toBe(
      MAP_INFOS.INVALID_FIELD,
    );
    expect(await infoOf(service.createMap(owner, { name: 'x', fieldId: 3, typeId: 1, geojson: zone }))).toBe(
      MAP_INFOS.NO_PERMISSION,
    );
    const map = await service.createMap(owner, { name: 'x', fieldId: 1, typeId: 1, geojson: zone });
    // names are unique per field, whoever made the maps: taken on field 1 (by anyone), free on field 2
    expect(await infoOf(service.createMap(other, { name: 'x', fieldId: 1, typeId: 1, geojson: zone }))).toBe(
      MAP_INFOS.NAME_TAKEN,
    );
    const elsewhere = await service.createMap(owner, { name: 'x', fieldId: 2, typeId: 1, geojson: zone });
    maps.delete(elsewhere.id);
    expect(await infoOf(service.changeMap(other, map.id, { name: 'mine' }, 'patch'))).toBe(MAP_INFOS.DENIED);
    expect(await infoOf(service.deleteMap(other, map.id))).toBe(MAP_INFOS.DENIED);
    expect(await infoOf(service.changeMap(owner, map.id, { fieldId: 2 }, 'patch'))).toBe(MAP_INFOS.INVALID_PARAMETERS);
    expect(maps.size).toBe(1);
  });

  it("keeps Polygon features (a MultiPolygon as one per part), a client's _featid, and its zones by zone index", async () => {
    const { service } = setup();
    const square = (x: number) => [
      [
        [x, 0.001],
        [x + 0.0005, 0.001],
        [x + 0.0005, 0.0015],
        [x, 0.0015],
        [x, 0.001],
      ],
    ];
    const map = await service.createMap(owner, {
      name: 'zonas',
      fieldId: 1,
      typeId: 1,
      geojson: {
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: { type: 'Polygon', coordinates: square(0.001) }, properties: { id: 5 } },
          {
            type: 'Feature',
            geometry: { type: 'MultiPolygon', coordinates: [square(0.0016), square(0.0022)] },
            properties: { id: 7, nombre: 'Alta', _featid: 'z7' },
          },
        ],
      },
    });
    expect(map.geojson.features.map((f) => [f.geometry.type, f.properties])).toEqual([
      ['Polygon', { id: 5, nombre: null, _featid: 0 }],
      ['Polygon', { id: 7, nombre: 'Alta', _featid: 'z7' }],
      ['Polygon', { id: 7, nombre: 'Alta', _featid: 'z7' }],
    ]);
    expect(zonesOf(map.geojson)).toEqual([[square(0.001)], [square(0.0016), square(0.0022)]]);
    expect(
      await infoOf(
        service.createMap(owner, {
          name: 'malo',
          fieldId: 1,
          typeId: 1,
          geojson: { ...zone, features: [{ ...zone.features[0], properties: { _featid: { a: 1 } } }] },
        }),
      ),
    ).toBe(MAP_INFOS.INVALID_PARAMETERS);
  });

  it('changes what is sent (PATCH) or everything (PUT), retrying a lost race; lists by field or owner', async () => {
    const { service, loseNext } = setup();
    const map = await service.createMap(owner, { name: 'a', fieldId: 1, typeId: 1, geojson: zone });
    loseNext();
    expect(await service.changeMap(owner, map.id, { name: 'b' }, 'patch')).toMatchObject({
      name: 'b',
      typeId: 1,
      version: 2,
    });
    expect(await infoOf(service.changeMap(owner, map.id, { name: 'c' }, 'replace'))).toBe(MAP_INFOS.INVALID_PARAMETERS);
    expect((await service.listMaps(owner, {})).map((m) => m.name)).toEqual(['b']);
    expect((await service.listMaps(owner, { fieldId: 1 })).map((m) => m.name)).toEqual(['b']);
    await service.deleteMap(owner, map.id);
    expect(await infoOf(service.getMap(owner, map.id))).toBe(MAP_INFOS.NOT_FOUND);
  });

  it('create_application needs the View season feature, as a labour write does: 403, nothing recorded', async () => {
    const { service, maps, applications } = setup();
    const refused = service.createMap(ownerWithoutSeason, {
      name: 'Ambientes',
      fieldId: 1,
      typeId: 1,
      geojson: zone,
      createApplication: true,
    });
    await expect(refused).rejects.toMatchObject({
      kind: 'forbidden',
      message: MAP_INFOS.NO_PERMISSION,
      extra: { detail: expect.stringMatching(/View season/) },
    });
    expect([maps.size, applications.length]).toEqual([0, 0]);
    // without the flag the same token draws maps; a change that asks for the labour is refused too
    const map = await service.createMap(ownerWithoutSeason, { name: 'a', fieldId: 1, typeId: 1, geojson: zone });
    for (const mode of ['patch', 'replace'] as const)
      expect(
        await infoOf(
          service.changeMap(
            ownerWithoutSeason,
            map.id,
            { name: 'b', fieldId: 1, typeId: 1, geojson: zone, createApplication: true },
            mode,
          ),
        ),
      ).toBe(MAP_INFOS.NO_PERMISSION);
    expect([maps.get(map.id)?.name, maps.get(map.id)?.applicationRequested, applications.length]).toEqual([
      'a',
      false,
      0,
    ]);
  });

  it("DELETE needs the creator's current right to change the field, as PATCH does", async () => {
    const writes = [1, 2];
    const { service, maps } = setup(writes, [2, 3]);
    const map = await service.createMap(owner, { name: 'a', fieldId: 2, typeId: 1, geojson: zone });
    writes.splice(writes.indexOf(2), 1); // the share of field 2 is downgraded to read
    expect(await infoOf(service.changeMap(owner, map.id, { name: 'b' }, 'patch'))).toBe(MAP_INFOS.NO_PERMISSION);
    expect(await infoOf(service.deleteMap(owner, map.id))).toBe(MAP_INFOS.NO_PERMISSION);
    expect(maps.has(map.id)).toBe(true);
    writes.push(2);
    await service.deleteMap(owner, map.id);
    expect(maps.has(map.id)).toBe(false);
  });
});
