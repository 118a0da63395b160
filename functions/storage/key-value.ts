// POST /api/mktplace/storage/{users|fields|farms}?operation=PUT|PATCH|GET|DELETE, and POST
// /api/mktplace/storage with the scope in the query or the body (spec 3, Key-value storage:
// "gives access to the scopes").

import type { Principal } from '../../lib/auth/principal';
import { endpoint } from '../../lib/http/endpoint';
import { type Scope, storageCaller } from '../../lib/storage/access';
import { objectSent, parseStorageBody } from '../../lib/storage/input';
import { keyValues } from '../../lib/storage/repository';
import {
  KvDeleteBody,
  KvGetBody,
  KvPatchBody,
  KvPutBody,
  kvStorageRoute,
  kvStorageScopesRoute,
  type Operation,
} from '../../schemas/storage';

const done = { info: { code: 0 as const } };

/** Each operation: its body's schema (checked after the caller, so that code 4 comes first) and what it does. */
async function run(principal: Principal, scope: Scope, operation: Operation, body: unknown) {
  const caller = storageCaller(principal);
  switch (operation) {
    case 'PUT': {
      const input = parseStorageBody(KvPutBody, body);
      await keyValues.putValue(caller, scope, {
        id: input.id,
        key: input.key,
        data: objectSent(input),
        overwrite: input.overwrite ?? false,
      });
      return done;
    }
    case 'PATCH': {
      const input = parseStorageBody(KvPatchBody, body);
      await keyValues.patchValue(caller, scope, {
        id: input.id,
        key: input.key,
        data: objectSent(input),
        append: input.append ?? false,
        create: input.create ?? false,
      });
      return done;
    }
    case 'GET': {
      const input = parseStorageBody(KvGetBody, body);
      return {
        info: {
          code: 0 as const,
          objects: await keyValues.getValues(caller, scope, { ids: input.ids, keys: input.keys }),
        },
      };
    }
    case 'DELETE': {
      const input = parseStorageBody(KvDeleteBody, body);
      await keyValues.deleteValues(caller, scope, { id: input.id, keys: input.keys });
      return done;
    }
  }
}

export const handler = endpoint(kvStorageRoute, {
  handler: async ({ path: { scope }, query: { operation }, body, principal }) => run(principal, scope, operation, body),
});

export const scopes = endpoint(kvStorageScopesRoute, {
  handler: async ({ query: { scope, operation }, body, principal }) => run(principal, scope, operation, body),
});
