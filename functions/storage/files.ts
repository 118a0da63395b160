// POST /api/mktplace/filestorage/{users|fields|farms}?operation=PUT|PATCH|GET|DELETE (spec 3, File storage)
import { endpoint } from '../../lib/http/endpoint';
import { storageCaller } from '../../lib/storage/access';
import { fileDeclaration, parseStorageBody, resourceRef } from '../../lib/storage/input';
import { fileStorage } from '../../lib/storage/repository';
import { FileDeleteBody, FileGetBody, FilePatchBody, FilePutBody, fileStorageRoute } from '../../schemas/storage';

export const handler = endpoint(fileStorageRoute, {
  handler: async ({ path: { scope }, query: { operation }, body, principal }) => {
    const caller = storageCaller(principal);
    switch (operation) {
      case 'PUT': {
        const input = parseStorageBody(FilePutBody, body);
        return {
          data: await fileStorage.putFile(caller, scope, {
            ...fileDeclaration(scope, input, body),
            overwrite: input.overwrite ?? false,
          }),
        };
      }
      case 'PATCH': {
        const input = parseStorageBody(FilePatchBody, body);
        return {
          data: await fileStorage.patchFile(caller, scope, {
            ...fileDeclaration(scope, input, body),
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
          ref: resourceRef(scope, input, body),
          keys: input.keys,
        });
        return { data: { deleted } };
      }
    }
  },
});
