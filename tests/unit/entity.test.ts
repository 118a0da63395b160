// lib/db/entity.ts: one definition drives the item mapping both ways (livestock, rotations, sensor groups, spots).
import { describe, expect, it } from 'vitest';
import { Herd, Paddock } from '../../lib/livestock/model';
import { Field, POLYGON_INLINE_MAX_CHARS } from '../../lib/platform/model';
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
    expect(item).toMatchObject({
      kind: 'herd',
      herd_id: 7,
      herd_name: 'Novillos',
      weight_kg: 4000,
      paddock_uuid: null,
      date_of_last_transaction: null,
      version: 2,
    });
    expect(Herd.fromItem(item)).toEqual(herd);
  });

  it('reads absent optional attributes as null or their default', () => {
    const paddock = Paddock.fromItem({
      paddock_id: 1,
      paddock_uuid: 'u',
      field_id: 2,
      name: 'P',
      creation_ts: '2026-05-10',
      shape: 'POLYGON EMPTY',
      area_ha: 1.5,
    });
    expect(paddock).toMatchObject({ herdCount: 0, version: 1, areaHa: 1.5 });
    expect(Herd.fromItem({ herd_id: '5', paddock_id: '9' })).toMatchObject({
      id: 5,
      paddockId: 9,
      paddockUuid: null,
      lastTransactionDate: null,
      version: 1,
    });
  });

  it('maps attributes with their own shape both ways and writes derived attributes (spots)', () => {
    const spot: Spot = {
      id: 1,
      uuid: 'u',
      code: 'ABC-DEF-GHJ',
      fieldId: 2,
      farmId: 3,
      ownerId: 4,
      name: null,
      shape: 'POINT(1 2)',
      kind: 'point',
      areaHa: 0,
      creationTs: '2026-05-10T09:30:00Z',
      createdAt: '2026-05-10T09:30:00.123Z',
      groupUuid: null,
      sampleSetType: 'soil_sampling',
      sampleSetUuid: 's',
      sampleSetTypeId: 1,
      sampleSetId: 5,
      variables: null,
      tags: [{ uuid: 't', ownerId: null }],
      totalImgs: 0,
      totalMsgs: 1,
      createdBy: 4,
      version: 3,
    };
    const item = Spot.toItem(spot);
    expect(item).toMatchObject({
      kind: 'spot',
      spot_kind: 'point',
      tags: [{ uuid: 't', owner_id: null }],
      has_sample_set: true,
      created_at: '2026-05-10T09:30:00.123Z',
    });
    expect(Spot.fromItem(item)).toEqual(spot);
    // an older item without created_at orders by its creation_ts
    const { created_at: _dropped, ...older } = item;
    expect(Spot.fromItem(older).createdAt).toBe('2026-05-10T09:30:00Z');
    expect(Spot.toItem({ ...spot, sampleSetUuid: null }).has_sample_set).toBe(false);
  });

  it("embeds a value held in several attributes (a field's shape, packed when long) and reads fallbacks from the item", () => {
    const ring = Array.from(
      { length: 4_000 },
      (_, i) => `${(-60.5 + Math.cos(i / 636.6) * 0.01).toFixed(9)} ${(-33.9 + Math.sin(i / 636.6) * 0.01).toFixed(9)}`,
    );
    const polygon = `POLYGON((${[...ring, ring[0]].join(',')}))`;
    expect(polygon.length).toBeGreaterThan(POLYGON_INLINE_MAX_CHARS);
    const field: Field = {
      id: 3,
      uuid: 'u',
      farmId: 2,
      ownerId: 1,
      name: 'Lote',
      country: null,
      shape: {
        polygon,
        centroid: 'POINT(-60.5 -33.9)',
        areaHa: 314.1,
        bbox: 'POLYGON EMPTY',
        bounds: [-60.51, -33.91, -60.49, -33.89],
        startDate: '2026-01-01',
      },
      shapeCampaigns: [2025, 2024],
      hectaresCharged: 320,
      createdAt: '2026-01-01T00:00:00Z',
      createdBy: 1,
    };
    const item = Field.toItem(field);
    expect(item).toMatchObject({
      kind: 'field',
      area_ha: 314.1,
      start_date: '2026-01-01',
      shape_campaigns: [2025, 2024],
    });
    expect(item.polygon).toBeUndefined();
    expect(item.polygon_packed).toBeInstanceOf(Uint8Array);
    expect(Field.fromItem(item)).toEqual({ ...field, shapeCampaigns: [2024, 2025] });
    const { hectares_charged: _dropped, ...older } = item;
    expect(Field.fromItem(older).hectaresCharged).toBe(314.1);
  });
});
