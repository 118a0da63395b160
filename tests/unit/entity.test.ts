// lib/db/entity.ts: one definition drives the item mapping both ways (livestock, rotations, sensor groups, spots).
import { describe, expect, it } from 'vitest';
import { Herd, Paddock } from '../../lib/livestock/model';
import { Spot } from '../../lib/spots/model';

describe('entities defined once', () => {
  it('writes every property under its attribute, with the kind, and reads it back', () => {
    const herd: Herd = {
      id: 7,
      uuid: 'f0c5d0b2-1c1e-4a5b-9a43-2b6f1c1d2e3f',
      name: 'Novillos',
      typeId: 4,
      animalCount: 10,
      weightKg: 4000,
      weightUnit: 'kg',
      fieldId: 3,
      paddockUuid: null,
      paddockId: null,
      lastTransactionDate: null,
      createdAt: '2026-05-10T12:00:00.000Z',
      version: 2,
    };
    const item = Herd.toItem(herd);
    expect(item).toMatchObject({ kind: 'herd', herd_id: 7, herd_name: 'Novillos', weight_kg: 4000, paddock_uuid: null, date_of_last_transaction: null, version: 2 });
    expect(Herd.fromItem(item)).toEqual(herd);
  });

  it('reads absent optional attributes as null or their default', () => {
    const paddock = Paddock.fromItem({ paddock_id: 1, paddock_uuid: 'u', field_id: 2, name: 'P', creation_ts: '2026-05-10', shape: 'POLYGON EMPTY', area_ha: 1.5 });
    expect(paddock).toMatchObject({ herdCount: 0, version: 1, areaHa: 1.5 });
    expect(Herd.fromItem({ herd_id: '5', paddock_id: '9' })).toMatchObject({ id: 5, paddockId: 9, paddockUuid: null, lastTransactionDate: null, version: 1 });
  });

  it('maps attributes with their own shape both ways and writes derived attributes (spots)', () => {
    const spot: Spot = {
      id: 1, uuid: 'u', code: 'ABC-DEF-GHJ', fieldId: 2, farmId: 3, ownerId: 4, name: null, shape: 'POINT(1 2)', kind: 'point', areaHa: 0,
      creationTs: '2026-05-10T09:30:00Z', createdAt: '2026-05-10T09:30:00.123Z', groupUuid: null, sampleSetType: 'soil_sampling',
      sampleSetUuid: 's', sampleSetTypeId: 1, sampleSetId: 5, variables: null, tags: [{ uuid: 't', ownerId: null }],
      totalImgs: 0, totalMsgs: 1, createdBy: 4, version: 3,
    };
    const item = Spot.toItem(spot);
    expect(item).toMatchObject({ kind: 'spot', spot_kind: 'point', tags: [{ uuid: 't', owner_id: null }], has_sample_set: true, created_at: '2026-05-10T09:30:00.123Z' });
    expect(Spot.fromItem(item)).toEqual(spot);
    // an older item without created_at orders by its creation_ts
    const { created_at: _dropped, ...older } = item;
    expect(Spot.fromItem(older).createdAt).toBe('2026-05-10T09:30:00Z');
    expect(Spot.toItem({ ...spot, sampleSetUuid: null }).has_sample_set).toBe(false);
  });
});
