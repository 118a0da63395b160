// lib/authz/by-farm.ts against a gate in memory: which fields of the farms an index answers the
// caller reads, known from its grants and the farms (their fields being deleted), without reading a field.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { accessFrom } from '../../lib/authz/access';
import { farmReach } from '../../lib/authz/by-farm';
import type { Farm } from '../../lib/platform/model';
import { memoryFarm, memoryField, memoryGate } from './helpers/memory-gate';

const caller = { user: { id: 9 } } as Principal;

describe('a reach by farm', () => {
  it('knows the fields the caller reads from its grants, the farms and their memberships; it reads no field', async () => {
    const farm8: Farm = { ...memoryFarm, id: 8, uuid: 'f7a1e000-0000-4000-8000-000000000008' };
    const gate = memoryGate();
    // farm 7 read whole (1-3 readable, 4 not; 2 being deleted), farm 8 through field 30 shared alone
    gate.scope = async () => [
      {
        farm: { ...memoryFarm, deletingFieldIds: [2] },
        fieldIds: 'all',
        accessTo: (id) => accessFrom(id <= 3 ? ['read'] : []),
      },
      { farm: farm8, fieldIds: [30], accessTo: (id) => accessFrom(id === 30 ? ['read'] : []) },
    ];
    const memberships: number[] = [];
    gate.fieldIdsOfFarm = async (farmId) => {
      memberships.push(farmId);
      return farmId === 7 ? [4, 3, 2, 1] : [30, 31];
    };
    let profiles = 0;
    gate.fieldsById = async (ids) => {
      profiles += ids.length;
      return new Map(ids.map((id) => [id, memoryField(id, { farmId: id >= 30 ? 8 : 7 })]));
    };
    const reach = await farmReach(gate, caller);
    expect(await reach.readableFieldIds()).toEqual([1, 3, 30]);
    expect(await reach.fieldIdsIn(8)).toEqual([30]);
    expect(await reach.fieldIdsIn(9)).toEqual([]);
    // only the farm read whole asks its membership
    expect(memberships).toEqual([7]);
    expect(reach.listedFarm(30, 8)?.id).toBe(8);
    expect(reach.listedFarm(31, 8)).toBeUndefined();
    expect(reach.listedFarm(2, 7)).toBeUndefined();
    expect(reach.listedFarm(3, 8)).toBeUndefined(); // not a field of that farm's index
    expect(profiles).toBe(0);
    // the profiles, when a listing needs them (the labours' older items): the same verdicts
    expect([...(await reach.readable([1, 2, 3, 4, 30, 31])).keys()]).toEqual([1, 3, 30]);
    expect(profiles).toBe(6);
  });
});
