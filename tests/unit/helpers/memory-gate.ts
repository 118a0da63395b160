// A field gate in memory for the services' unit tests: the caller writes some fields, reads
// others, and does not see the rest (which answer as absent, as lib/authz/guard.ts does).
import { accessFrom } from '../../../lib/authz/access';
import type { FieldGate } from '../../../lib/authz/gate';
import type { Farm, Field, FieldShape } from '../../../lib/platform/model';

export const SQUARE = 'POLYGON((0 0, 0 0.01, 0.01 0.01, 0.01 0, 0 0))';

export const memoryFarm: Farm = {
  id: 7,
  uuid: 'f7a1e000-0000-4000-8000-000000000007',
  name: 'Farm',
  ownerId: 9,
  createdAt: '2026-01-01T00:00:00Z',
  deletingFieldIds: [],
};

export function memoryField(id: number, overrides: Partial<Field> = {}): Field {
  const shape = { polygon: SQUARE, areaHa: 123.2 } as FieldShape;
  return {
    id,
    uuid: `f1e1d000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    farmId: memoryFarm.id,
    ownerId: 9,
    name: `Field ${id}`,
    country: 'AR',
    shape,
    shapeCampaigns: [],
    hectaresCharged: 123.2,
    createdAt: '2026-01-01T00:00:00Z',
    createdBy: 9,
    ...overrides,
  };
}

export function memoryGate({
  writes = [1, 2],
  reads = [3],
  fields = new Map<number, Field>(),
}: {
  writes?: number[];
  reads?: number[];
  fields?: Map<number, Field>;
} = {}): FieldGate {
  const visible = (id: number) => writes.includes(id) || reads.includes(id);
  // the owner's access to fields it writes, a read share's to the others
  const scope = (id: number) => ({
    field: fields.get(id) ?? memoryField(id),
    farm: memoryFarm,
    access: accessFrom([writes.includes(id) ? 'owner' : 'read']),
  });
  const gate: FieldGate = {
    async field(_principal, fieldId, action, refuse) {
      if (!visible(fieldId)) throw refuse.notFound();
      if (action !== 'read' && !writes.includes(fieldId)) throw refuse.forbidden();
      return scope(fieldId);
    },
    async fieldByUuid(principal, uuid, action, refuse) {
      const id = [...writes, ...reads].find(
        (candidate) => (fields.get(candidate) ?? memoryField(candidate)).uuid === uuid.toLowerCase(),
      );
      return gate.field(principal, id ?? -1, action, refuse);
    },
    async among(principal, fieldIds, action, refuse) {
      const seen = [...new Set(fieldIds)].filter(visible).sort((a, b) => a - b);
      if (!seen.length) throw refuse.notFound();
      const allowed = seen.find((id) => action === 'read' || writes.includes(id));
      if (allowed === undefined) throw refuse.forbidden();
      return gate.field(principal, allowed, action, refuse);
    },
    async farm(_principal, farmId, action, refuse) {
      if (farmId !== memoryFarm.id) throw refuse.notFound();
      return { farm: memoryFarm, access: accessFrom([action === 'read' ? 'read' : 'owner']) };
    },
    readsAny: async (_principal, fieldIds) => fieldIds.some(visible),
    readable: async () => [...writes, ...reads].sort((a, b) => a - b).map(scope),
    readableOf: async (_principal, fieldIds) =>
      [...new Set(fieldIds)]
        .filter(visible)
        .sort((a, b) => a - b)
        .map(scope),
    // one farm, read whole: its fields the caller does not see have no grants
    scope: async (_principal, farmIds) =>
      farmIds && !farmIds.includes(memoryFarm.id)
        ? []
        : [
            {
              farm: memoryFarm,
              fieldIds: 'all',
              accessTo: (id: number) => (visible(id) ? scope(id).access : accessFrom([])),
            },
          ],
    fieldsById: async (fieldIds) => new Map(fieldIds.map((id) => [id, fields.get(id) ?? memoryField(id)])),
    // the farm's fields: those the caller sees and those written in `fields`
    fieldIdsOfFarm: async (farmId) =>
      farmId === memoryFarm.id
        ? [...new Set([...writes, ...reads, ...fields.keys()])].filter(
            (id) => (fields.get(id) ?? memoryField(id)).farmId === farmId,
          )
        : [],
    shape: async (field) => field.shape,
  };
  return gate;
}
