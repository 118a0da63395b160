// POST /api/mktplace/filestorage/{users|fields|farms}?operation=PUT|PATCH|GET|DELETE (spec 3, File storage)
import { Invalid } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { type Scope, storageCaller } from '../../lib/storage/access';
import { STORAGE_CODES } from '../../lib/storage/codes';
import { parseSizeKb } from '../../lib/storage/files';
import { parseStorageBody } from '../../lib/storage/input';
import { fileStorage } from '../../lib/storage/repository';
import { FileDeleteBody, FileGetBody, FilePatchBody, FilePutBody, fileStorageRoute } from '../../schemas/storage';

/** The member that names the resource in each scope (`id` is accepted in all of them). */
const REF_MEMBER: Record<Scope, 'user' | 'field' | 'farm'> = { users: 'user', fields: 'field', farms: 'farm' };

function resourceRef(scope: Scope, body: { user?: unknown; field?: unknown; farm?: unknown; id?: unknown }): unknown {
  const member = REF_MEMBER[scope];
  const ref = body[member] ?? body.id;
  if (ref === undefined || ref === '')
    throw new Invalid(`${member} is required in the ${scope} scope`, { code: STORAGE_CODES.DATA_MISSING });
  return ref;
}

type Declared = {
  key: string;
  original_file_name: string;
  md5: string;
  file_size_kb: unknown;
  user?: unknown;
  field?: unknown;
  farm?: unknown;
};

const declaration = (scope: Scope, input: Declared, body: unknown) => ({
  ref: resourceRef(scope, { ...input, id: (body as { id?: unknown }).id }),
  key: input.key,
  fileName: input.original_file_name,
  md5: input.md5,
  sizeKb: parseSizeKb(input.file_size_kb),
});

export const handler = endpoint(fileStorageRoute, {
  handler: async ({ path: { scope }, query: { operation }, body, principal }) => {
    const caller = storageCaller(principal);
    switch (operation) {
      case 'PUT': {
        const input = parseStorageBody(FilePutBody, body);
        return {
          data: await fileStorage.putFile(caller, scope, {
            ...declaration(scope, input, body),
            overwrite: input.overwrite ?? false,
          }),
        };
      }
      case 'PATCH': {
        const input = parseStorageBody(FilePatchBody, body);
        return {
          data: await fileStorage.patchFile(caller, scope, {
            ...declaration(scope, input, body),
            create: input.create ?? false,
          }),
        };
      }
      case 'GET': {
        const input = parseStorageBody(FileGetBody, body);
        return {
          objects: await fileStorage.listFiles(caller, scope, {
            keys: input.keys,
            ids: input.ids,
            getUrl: input.get_url ?? false,
          }),
        };
      }
      case 'DELETE': {
        const input = parseStorageBody(FileDeleteBody, body);
        const deleted = await fileStorage.deleteFiles(caller, scope, {
          ref: resourceRef(scope, { ...input, id: (body as { id?: unknown }).id }),
          keys: input.keys,
        });
        return { data: { deleted } };
      }
    }
  },
});
