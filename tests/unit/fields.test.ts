// lib/fields/service.ts and lib/season-shapes/service.ts against memory: creating and deleting fields with
// their hectares, and season shapes with their lock and quotas, without DynamoDB (repositories,
// gate, users and publisher are parameters; tests/fields-and-farms.test.ts and
// tests/season-shapes.test.ts run the same rules through the API).

import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { LostRace } from '../../lib/db/retry';
import { DomainError } from '../../lib/errors';
import { FIELD_CODES } from '../../lib/fields/codes';
import type { HectareCharge } from '../../lib/fields/quota';
import { type FieldDeps, type FieldRepository, fieldsService } from '../../lib/fields/service';
import { fieldShapeFrom } from '../../lib/fields/shape';
import * as geometry from '../../lib/geo/wkt';
import type { Farm, Field, FieldShape, Space, User } from '../../lib/platform/model';
import { type ShapeLock, type ShapeRepository, shapesService } from '../../lib/season-shapes/service';
import { memoryField, memoryGate } from './helpers/memory-gate';

// about 123 ha around (0.005, 0.005)
const SQUARE = 'POLYGON((0 0, 0 0.01, 0.01 0.01, 0.01 0, 0 0))';
const BIGGER = 'POLYGON((0 0, 0 0.0105, 0.0105 0.0105, 0.0105 0, 0 0))';
const SMALLER = 'POLYGON((0.001 0.001, 0.001 0.009, 0.009 0.009, 0.009 0.001, 0.001 0.001))';
/** A 7.5 ha sliver whose bounding box is 0.75 degrees a side (a 56-megapixel imagery grid). */
const SLIVER = 'POLYGON((-61 -34, -60.25 -33.25, -60.25 -33.24999, -61 -33.99999, -61 -34))';

/** Hectares used by users and spaces, refusing past a quota as the conditional updates do. */
function ledger(quotas: { user: number | null; space: number | null }, initial = 0) {
  const used = { user: initial, space: initial };
  const apply = (charge: HectareCharge | undefined, refuse: { user: () => Error; space: () => Error }) => {
    if (!charge) return;
    if (charge.userCeiling !== null && used.user > charge.userCeiling) throw refuse.user();
    if (charge.spaceCeiling !== null && used.space > charge.spaceCeiling) throw refuse.space();
    used.user += charge.deltaHa;
    used.space += charge.deltaHa;
  };
  const user = { id: 9, spaceId: 1, hectareQuota: quotas.user } as User;
  const space = { id: 1, hectareQuota: quotas.space } as Space;
  return {
    used,
    apply,
    users: async (id: number) => (id === 9 ? user : undefined),
    spaces: async (id: number) => (id === 1 ? space : undefined),
  };
}

const caller = { user: { id: 9, spaceId: 1, hectareQuota: null } } as unknown as Principal;
const codeOf = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error) => (error instanceof DomainError ? error.code : error),
  );

function fieldsSetup(
  quotas = { user: null as number | null, space: null as number | null },
  more: Partial<FieldDeps> = {},
) {
  const fields = new Map<number, Field>();
  const farms = new Map<number, Farm>();
  const names = new Set<string>();
  const ids = { field: 0, farm: 0 };
  const money = ledger(quotas);
  const published: unknown[] = [];
  const repository: FieldRepository = {
    nextId: async (sequence) => ++ids[sequence],
    farmIdByName: async (ownerId, name) =>
      [...farms.values()].find((f) => f.ownerId === ownerId && f.name.toLowerCase() === name.toLowerCase())?.id,
    farm: async (id) => farms.get(id),
    async create({ field, farm, charge }, nameTaken) {
      if (names.has(`${farm.id}|${field.name.toLowerCase()}`)) throw nameTaken();
      money.apply(charge, {
        user: () => new DomainError('forbidden', 'user', { code: FIELD_CODES.USER_QUOTA }),
        space: () => new DomainError('forbidden', 'space', { code: FIELD_CODES.SPACE_QUOTA }),
      });
      farms.set(farm.id, farm);
      fields.set(field.id, field);
      names.add(`${farm.id}|${field.name.toLowerCase()}`);
    },
    async remove(field, charge) {
      money.apply(charge, { user: () => new Error(), space: () => new Error() });
      fields.delete(field.id);
    },
  };
  const service = fieldsService({
    repository,
    gate: memoryGate({ fields }),
    users: money.users,
    spaces: money.spaces,
    publish: async (...args) => published.push(args),
    maxFieldHectares: () => 10_000,
    ...more,
  });
  return { service, fields, farms, used: money.used, published };
}

describe('field rules (repository in memory)', () => {
  it("creates a field in the caller's farm of a name (made once), charging its hectares to user and workspace", async () => {
    const { service, farms, used } = fieldsSetup();
    const first = await service.createField(caller, { name: 'Lote 1', shape: SQUARE, farmName: 'La Esperanza' });
    const second = await service.createField(caller, { name: 'Lote 2', shape: SQUARE, farmName: 'la esperanza' });
    expect(second.farmId).toBe(first.farmId);
    expect(farms.size).toBe(1);
    expect(used.user).toBeCloseTo(2 * 122.9, 0);
    expect(await codeOf(service.createField(caller, { name: 'lote 1', shape: SQUARE, farmName: 'La Esperanza' }))).toBe(
      FIELD_CODES.NAME_REPEATED,
    );
  });

  it('refuses a sliver, small in area and huge in extent, with code 11 (its imagery grid would pass the bound), charging nothing', async () => {
    const { service, used } = fieldsSetup();
    const refused = service.createField(caller, { name: 'Franja', shape: SLIVER, farmName: 'Farm' });
    await expect(refused).rejects.toMatchObject({ kind: 'forbidden', code: FIELD_CODES.FIELD_TOO_LARGE });
    await expect(service.createField(caller, { name: 'Franja', shape: SLIVER, farmName: 'Farm' })).rejects.toThrow(
      /bounding box is 10\d\.\d km corner to corner: its imagery grid would pass 4000000 pixels/,
    );
    expect(used).toEqual({ user: 0, space: 0 });
    const area = geometry.areaHectares(geometry.readWkt(SLIVER));
    expect(area).toBeGreaterThan(5);
    expect(area).toBeLessThan(10);
  });

  it('refuses a field over the user quota or the workspace quota, charging nothing', async () => {
    // a new farm is the caller's own: its quota counts
    const limited = { user: { ...caller.user, hectareQuota: 100 } } as Principal;
    expect(
      await codeOf(fieldsSetup().service.createField(limited, { name: 'a', shape: SQUARE, farmName: 'Farm' })),
    ).toBe(FIELD_CODES.USER_QUOTA);
    const { service, used } = fieldsSetup({ user: null, space: 200 });
    await service.createField(caller, { name: 'a', shape: SQUARE, farmName: 'Farm' });
    expect(await codeOf(service.createField(caller, { name: 'b', shape: SQUARE, farmName: 'Farm' }))).toBe(
      FIELD_CODES.SPACE_QUOTA,
    );
    expect(used.space).toBeCloseTo(122.9, 0);
  });

  it('deletes a field the caller may delete, gives its hectares back and tells the worker', async () => {
    const { service, fields, used, published } = fieldsSetup();
    const { fieldId, farmId } = await service.createField(caller, { name: 'a', shape: SQUARE, farmName: 'Farm' });
    await service.deleteField(caller, fieldId);
    expect([fields.size, Math.round(used.user)]).toEqual([0, 0]);
    expect(published).toEqual([['FIELD_DELETED.V1', { field_id: fieldId, farm_id: farmId }]]);
  });
});

function shapesSetup(quotas = { user: null as number | null, space: null as number | null }) {
  const field = memoryField(1, {
    shape: fieldShapeFrom(geometry, SQUARE, '2026-01-01') as FieldShape,
    hectaresCharged: 0,
  });
  field.hectaresCharged = field.shape.areaHa;
  const stored = new Map<number, FieldShape>();
  /** Campaigns in which the field has satellite dates. */
  const imagery = new Set([2026]);
  let lock: ShapeLock | undefined;
  let clock = Date.parse('2026-11-23T10:00:00Z');
  let loseNext = false;
  const money = ledger(quotas, field.shape.areaHa);
  const published: unknown[] = [];
  const repository: ShapeRepository = {
    lock: async () => lock,
    shape: async (_fieldId, campaign) => stored.get(campaign),
    hasImagery: async (_fieldId, from, until) =>
      [...imagery].some((c) => c >= from && (until === undefined || c <= until)),
    async save(change, refuse) {
      if (loseNext) {
        loseNext = false;
        throw new LostRace('field changed');
      }
      if (lock && lock.expiresAt >= change.now) throw refuse.reprocessing();
      money.apply(change.charge, { user: refuse.userQuota, space: refuse.spaceQuota });
      stored.set(change.campaign, change.shape);
      field.shapeCampaigns = [...new Set([...field.shapeCampaigns, change.campaign])];
      field.hectaresCharged = change.charged;
      if (change.lock) lock = change.lock;
    },
  };
  const service = shapesService({
    repository,
    gate: memoryGate({ fields: new Map([[1, field]]) }),
    users: money.users,
    spaces: money.spaces,
    publish: async (...args) => published.push(args),
    settings: () => ({ maxFieldHectares: 10_000, shapeLockTimeoutSeconds: 60, shapeReprocessDelaySeconds: 5 }),
    now: () => new Date(clock),
  });
  return {
    service,
    field,
    used: money.used,
    published,
    imagery,
    tick: (ms: number) => (clock += ms),
    loseNext: () => (loseNext = true),
    release: () => (lock = undefined),
  };
}

describe('season shape rules (repository in memory)', () => {
  it('a shape covering new ground takes the lock and hands the job over; a second one waits (REPROCESSING) until the lock expires', async () => {
    const { service, published, tick, field, used, loseNext } = shapesSetup();
    loseNext();
    expect(await service.postShape(caller, { fieldId: 1, campaign: 2026, shape: BIGGER })).toEqual({
      imagesReprocessing: true,
    });
    expect(published).toEqual([
      ['SHAPE_REPROCESS.V1', expect.objectContaining({ field_id: 1, campaign: 2026 }), { delaySeconds: 5 }],
    ]);
    expect(used.user).toBeCloseTo(field.hectaresCharged, 3);
    expect(await codeOf(service.postShape(caller, { fieldId: 1, campaign: 2027, shape: SMALLER }))).toBe(
      'REPROCESSING',
    );
    expect(await codeOf(service.lockState(caller, 1))).toBe('REPROCESSING');
    tick(61_000);
    expect(await service.lockState(caller, 1)).toEqual({ reprocessing: false });
    expect(await service.postShape(caller, { fieldId: 1, campaign: 2027, shape: SMALLER })).toEqual({
      imagesReprocessing: false,
    });
  });

  it('images are reprocessed when the polygon changes for campaigns that have satellite dates, up to the next season shape', async () => {
    const { service, imagery, release } = shapesSetup();
    // a shape inside the old one: the campaign's dates are cut again
    expect(await service.postShape(caller, { fieldId: 1, campaign: 2026, shape: SMALLER })).toEqual({
      imagesReprocessing: true,
    });
    release();
    // the same polygon again: nothing to cut
    expect(await service.postShape(caller, { fieldId: 1, campaign: 2026, shape: SMALLER })).toEqual({
      imagesReprocessing: false,
    });
    // 2025 has no date; its shape applies until 2026's: the 2026 dates keep theirs
    expect(await service.postShape(caller, { fieldId: 1, campaign: 2025, shape: BIGGER })).toEqual({
      imagesReprocessing: false,
    });
    imagery.add(2025);
    expect(await service.postShape(caller, { fieldId: 1, campaign: 2025, shape: SMALLER })).toEqual({
      imagesReprocessing: true,
    });
  });

  it('refuses shapes past the expansion limits, invalid ones, a read-only field, and one that would pass the quota', async () => {
    const { service, field } = shapesSetup({ user: 130, space: null });
    expect(
      await codeOf(
        service.postShape(caller, { fieldId: 1, campaign: 2026, shape: 'POLYGON((0 0, 0 1, 1 1, 1 0, 0 0))' }),
      ),
    ).toBe('MAX_SHAPE_AREA_EXCEEDED');
    expect(
      await codeOf(
        service.postShape(caller, {
          fieldId: 1,
          campaign: 2026,
          shape: 'POLYGON((0 0, 0 0.02, 0.02 0.02, 0.02 0, 0 0))',
        }),
      ),
    ).toBe('SHAPE_EXPANSION_LIMIT');
    expect(await codeOf(service.postShape(caller, { fieldId: 1, campaign: 2026, shape: SLIVER }))).toBe(
      'MAX_SHAPE_AREA_EXCEEDED',
    );
    expect(await codeOf(service.postShape(caller, { fieldId: 1, campaign: 2026, shape: 'POLYGON((0 0, 1 1))' }))).toBe(
      'INVALID_GEOMETRY',
    );
    await expect(service.postShape(caller, { fieldId: 3, campaign: 2026, shape: SQUARE })).rejects.toMatchObject({
      kind: 'forbidden',
    });
    expect(await codeOf(service.postShape(caller, { fieldId: 1, campaign: 2026, shape: BIGGER }))).toBe(
      'NOT_ENOUGH_QUOTA',
    );
    expect(field.shapeCampaigns).toEqual([]);
  });
});
