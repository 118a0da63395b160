// The dialect of user maps (spec 2, Errors, Maps): `{res:'Error', info}` with the spec's infos
// (./codes.ts); `detail` says more when the info is a category. The HTTP layer renders it (its
// routes name it, schemas/maps.ts) without knowing the area's infos.
import * as z from 'zod/mini';
import type { ErrorKind } from '../errors';
import { defineDialect, generalDefaults, withRequestId } from '../http/dialects';
import { MAP_INFOS } from './codes';

/** User maps: `{res:'Error', info}` with the spec's infos; `detail` says more when the info is a category. */
export const mapsDialect = defineDialect({
  name: 'maps',
  errorSchema: () =>
    z.object({
      res: z.literal('Error'),
      info: z.string(),
      detail: z.optional(z.string()),
      request_id: z.optional(z.string()),
    }),
  defaults: generalDefaults,
  body: (_code, info, error, requestId) => {
    const spec = (Object.values(MAP_INFOS) as string[]).includes(info);
    const byKind: Partial<Record<ErrorKind, string>> = {
      invalid: MAP_INFOS.INVALID_PARAMETERS,
      too_large: MAP_INFOS.INVALID_PARAMETERS,
      unsupported: MAP_INFOS.INVALID_PARAMETERS,
      not_found: MAP_INFOS.NOT_FOUND,
      forbidden: MAP_INFOS.NO_PERMISSION,
      conflict: MAP_INFOS.NAME_TAKEN,
      unauthenticated: 'Unauthorized',
      invalid_token: 'Unauthorized',
      expired_token: 'Unauthorized',
    };
    const text = spec ? info : (byKind[error.kind] ?? info);
    return { res: 'Error', info: text, ...(text !== info ? { detail: info } : {}), ...withRequestId(error, requestId) };
  },
});
