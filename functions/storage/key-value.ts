// POST /api/mktplace/storage/{users|fields|farms}?operation=PUT|PATCH|GET|DELETE (spec 3, Key-value storage)
import { endpoint } from '../../lib/http/endpoint';
import { storageExtension } from '../../lib/storage/access';
import { objectSent, parseStorageBody } from '../../lib/storage/input';
import { deleteValues, getValues, patchValue, putValue } from '../../lib/storage/kv';
import { KvDeleteBody, KvGetBody, KvPatchBody, KvPutBody, kvStorageRoute } from '../../schemas/storage';

export const handler = endpoint(kvStorageRoute, {
  handler: async ({ path: { scope }, query: { operation }, body, principal }) => {
    storageExtension(principal);
    switch (operation) {
      case 'PUT': {
        const input = parseStorageBody(KvPutBody, body);
        await putValue(principal, scope, { id: input.id, key: input.key, data: objectSent(input), overwrite: input.overwrite ?? false });
        return { info: { code: 0 } };
      }
      case 'PATCH': {
        const input = parseStorageBody(KvPatchBody, body);
        const data = objectSent(input);
        await patchValue(principal, scope, { id: input.id, key: input.key, data, append: input.append ?? false, create: input.create ?? false });
        return { info: { code: 0 } };
      }
      case 'GET': {
        const input = parseStorageBody(KvGetBody, body);
        return { info: { code: 0, objects: await getValues(principal, scope, { ids: input.ids, keys: input.keys }) } };
      }
      case 'DELETE': {
        const input = parseStorageBody(KvDeleteBody, body);
        await deleteValues(principal, scope, { id: input.id, keys: input.keys });
        return { info: { code: 0 } };
      }
    }
  },
});
