// Hot keys: the records every request of a tenant touches take concurrent writers: one
// farm's field list and the id counter, one busy herd, one farm's metadata. Each writer is either
// applied (200) or told to try again (409 after the retry budget of lib/db/retry.ts: 10 attempts
// or 4 s); none is lost, none applied twice. Figures at higher counts: docs/benchmarks.md.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, createField, newUser, square } from './helpers/api';

const WRITERS = 12;

const statuses = (responses: Array<{ status: number }>) => responses.map((r) => r.status);
const onlyAppliedOrRetry = (responses: Array<{ status: number }>) =>
  expect(statuses(responses).filter((s) => s !== 200 && s !== 409)).toEqual([]);

describe('hot keys under concurrent writers', () => {
  it('creates the fields sent at once into one farm with distinct ids, each listed once', async () => {
    const owner = await newUser();
    const { farmId, fieldId } = await createField(owner);
    const responses = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        call('POST', '/api/agregarlote', {
          token: owner.token,
          form: {
            nombre: `Hot ${i}`,
            idcampo: farmId,
            shape: square(-61 + (i % 6) * 0.011, -35 + Math.floor(i / 6) * 0.011),
          },
        }),
      ),
    );
    onlyAppliedOrRetry(responses);
    const ids = responses.filter((r) => r.status === 200).map((r) => Number(r.body.id_lote));
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    const listed = (await call('GET', '/api/getfields', { token: owner.token })).body.user.farms[farmId].fields;
    expect(
      Object.keys(listed)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([fieldId, ...ids].sort((a, b) => a - b));
  });

  it('applies each exit of one herd once: heads left = heads - exits applied, one history entry each', async () => {
    const owner = await newUser();
    const { fieldId } = await createField(owner);
    const paddock = (
      await call('POST', '/livestock/paddock', {
        token: owner.token,
        json: { field_id: fieldId, shape: square(-60.499, -33.899, 0.008), date: '2026-05-10T12:00:00Z', name: 'P' },
      })
    ).body.data;
    const herd = (
      await call('POST', '/livestock/herd', {
        token: owner.token,
        json: {
          type_id: 4,
          animal_count: 500,
          paddock_uuid: paddock.paddock_uuid,
          weight: 200_000,
          weight_unit: 'kg',
          herd_name: 'Rodeo',
          field_id: fieldId,
        },
      })
    ).body.data;
    const exit = () =>
      call('POST', '/livestock/transaction/exit', {
        token: owner.token,
        json: {
          destination_type: 4,
          animal_count: 1,
          weight: 400,
          weight_unit: 'kg',
          origin_herd_uuid: herd.herd_uuid,
          destination_herd_uuid: herd.herd_uuid,
          transaction_uuid: randomUUID(),
          transaction_date: '2026-05-11T10:00:00Z',
        },
      });
    const responses = await Promise.all(Array.from({ length: WRITERS }, exit));
    onlyAppliedOrRetry(responses);
    const applied = responses.filter((r) => r.status === 200).length;
    expect(applied).toBeGreaterThan(0);
    const after = ((await call('GET', '/livestock/herd', { token: owner.token })).body.data as any[]).find(
      (h) => h.herd_uuid === herd.herd_uuid,
    );
    expect(after.animal_count).toBe(500 - applied);
    const history = (await call('GET', `/livestock/herd/${herd.herd_uuid}/transactions`, { token: owner.token })).body
      .data as any[];
    expect(history.filter((h) => h.kind === 'exit')).toHaveLength(applied);
  });

  it("keeps every key merged at once into one farm's metadata", async () => {
    const owner = await newUser();
    const { farmId } = await createField(owner);
    const responses = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        call('PATCH', '/api/farms/metadata', {
          token: owner.token,
          json: { farm_id: farmId, metadata: { [`k${i}`]: i } },
        }),
      ),
    );
    onlyAppliedOrRetry(responses);
    const applied = responses.flatMap((r, i) => (r.status === 200 ? [`k${i}`] : []));
    const stored = (
      await call('GET', '/api/farms/metadata', { token: owner.token, query: { farms_id: String(farmId) } })
    ).body.data[farmId].metadata;
    expect(Object.keys(stored).sort()).toEqual(applied.sort());
  });
});
