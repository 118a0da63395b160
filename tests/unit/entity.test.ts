// lib/db/entity.ts: one definition drives the item mapping both ways (livestock uses it).
import { describe, expect, it } from 'vitest';
import { Herd, Paddock } from '../../lib/livestock/model';

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
});
