// lib/authz/by-farm.ts against a gate in memory: which fields of the farms an index answers the
// caller reads, known from its grants and the farms (their fields being deleted), without reading a field.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/principal';
import { accessFrom } from '../../lib/authz/access';
import { farmReach } from '../../lib/authz/by-farm';
import { platformFieldGate } from '../../lib/authz/gate';
import type { Farm } from '../../lib/platform/model';
import { captureDynamoDbCalls } from './helpers/dynamodb-calls';
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
    expect(reach.readableSingleFieldIds).toEqual([30]);
    // the profiles, when a listing needs them (the labours' older items): the same verdicts
    expect([...(await reach.readable([1, 2, 3, 4, 30, 31])).keys()]).toEqual([1, 3, 30]);
    expect(profiles).toBe(6);
    // records that name their field are answered from it, the others' fields read: the same verdicts
    profiles = 0;
    const record = (fieldId: number, named: boolean) => ({
      fieldId,
      farmId: fieldId >= 30 ? 8 : 7,
      fieldUuid: named ? `u${fieldId}` : null,
      fieldName: named ? `Field ${fieldId}` : null,
    });
    const known = await farmReach(gate, caller);
    const fields = await known.fieldsOf([1, 2, 3, 4, 30, 31].map((id) => record(id, id % 2 === 0)));
    expect([...fields.keys()].sort((a, b) => a - b)).toEqual([1, 3, 30]);
    expect(fields.get(30)).toEqual({ field: { id: 30, uuid: 'u30', name: 'Field 30' }, farm: farm8 });
    expect(fields.get(3)?.field).toMatchObject({ id: 3, uuid: memoryField(3).uuid });
    expect(profiles).toBe(3); // 1, 3 and 31 do not name theirs
  });

  it('reads only the farms a filter by farm id names (the platform gate, its DynamoDB calls)', async () => {
    // the caller owns farms 7, 8 and 9
    const capture = captureDynamoDbCalls((call) => {
      if (call.command === 'QueryCommand')
        return {
          Items: JSON.stringify(call.input).includes('ACCESS#')
            ? [7, 8, 9].map((farmId) => ({ target: 'farm', farm_id: farmId, level: 'owner' }))
            : [],
        };
      if (call.command === 'BatchGetItemCommand') {
        const [table, request] = Object.entries(call.input.RequestItems as Record<string, { Keys: any[] }>)[0]!;
        const items = request.Keys.map((key) => ({
          ...key,
          id: Number(String(key.pk).slice('FARM#'.length)),
          uuid: 'f',
          name: 'Farm',
          owner_id: 9,
          created_at: '2026-01-01T00:00:00Z',
        }));
        return { Responses: { [table]: items } };
      }
      return {};
    });
    try {
      const farmKeys = () =>
        capture.calls
          .filter((call) => call.command === 'BatchGetItemCommand')
          .flatMap((call) => Object.values(call.input.RequestItems as Record<string, { Keys: any[] }>)[0]!.Keys)
          .map((key) => key.pk);
      const only = await farmReach(platformFieldGate, caller, undefined, [8]);
      expect(only.wholeFarms.map((farm) => farm.id)).toEqual([8]);
      expect(farmKeys()).toEqual(['FARM#8']);
      capture.calls.length = 0;
      const every = await farmReach(platformFieldGate, caller);
      expect(every.wholeFarms.map((farm) => farm.id)).toEqual([7, 8, 9]);
      expect(farmKeys().sort()).toEqual(['FARM#7', 'FARM#8', 'FARM#9']);
    } finally {
      capture.stop();
    }
  });
});
