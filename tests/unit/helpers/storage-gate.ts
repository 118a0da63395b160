// The storage resource gate in memory, for the unit tests of key-value and file storage.
import type { Principal } from '../../../lib/auth/principal';
import { Forbidden } from '../../../lib/errors';
import { STORAGE_CODES } from '../../../lib/storage/codes';
import type { ResourceGate } from '../../../lib/storage/kv';

/** The farm of fields 1, 2 and 3. */
export const FARM = 10;

/** Fields 1 and 2 are readable; only field 1 can be written or deleted from. Field 3, of the same farm, is neither. */
export const resources: ResourceGate = {
  authorise: async (_principal, scope, ref, action) => {
    const id = Number(ref);
    if (scope === 'fields' && (id === 1 || (id === 2 && action === 'read'))) return { id, farmId: FARM };
    throw new Forbidden(`no permission on ${scope} ${ref}`, { code: STORAGE_CODES.NO_PERMISSION });
  },
  fieldsByFarm: async () => ({
    wholeFarmIds: [FARM],
    singleFieldIds: [],
    reads: (fieldId, farmId) => farmId === FARM && (fieldId === 1 || fieldId === 2),
  }),
  readable: async (_principal, _scope, refs) =>
    (refs?.length
      ? refs.map((ref) => ({ label: String(ref), id: Number(ref) }))
      : [
          { label: '1', id: 1 },
          { label: '2', id: 2 },
        ]
    ).filter((r) => r.id === 1 || r.id === 2),
};

export const caller = (extension = 'ext-a') => ({ principal: { user: { id: 7 } } as Principal, extension });
