// The spec's areas answer errors in different body shapes. Each shape is modelled once here as a
// named dialect; the handler factory renders every DomainError through the route's dialect.
import * as z from 'zod/mini';
import { type DomainError, type ErrorCode, type ErrorKind, GENERAL_CODES, STATUS_BY_KIND } from '../errors';

export { GENERAL_CODES };

export interface RenderedError {
  status: number;
  body: unknown;
}

export interface Dialect {
  name: string;
  /**
   * Body schema of this dialect's errors, for the OpenAPI document only: built when that document
   * is, never at a function's cold start (the dialects' ~85 zod schemas were built in every one).
   */
  errorSchema: () => z.ZodMiniType;
  render(error: DomainError, requestId: string): RenderedError;
}

export const GENERIC_FAILURE = 'The requested action failed to execute';

export interface DialectSpec {
  name: string;
  errorSchema: () => z.ZodMiniType;
  defaults: Record<ErrorKind, ErrorCode>;
  body(code: ErrorCode, info: string, error: DomainError, requestId: string): unknown;
}

/** A dialect from its body and the codes of each kind of error (an area's own: lib/maps/dialect.ts). */
export function defineDialect(spec: DialectSpec): Dialect {
  return {
    name: spec.name,
    errorSchema: spec.errorSchema,
    render(error, requestId) {
      const status = error.status ?? STATUS_BY_KIND[error.kind];
      const code = error.code ?? spec.defaults[error.kind];
      const info = error.kind === 'internal' && !error.publicMessage ? GENERIC_FAILURE : error.message;
      const body = spec.body(code, info, error, requestId);
      return { status, body: error.extra ? { ...(body as object), ...error.extra } : body };
    },
  };
}

export const generalDefaults: Record<ErrorKind, ErrorCode> = {
  invalid: GENERAL_CODES.WRONG_FORMAT,
  unauthenticated: GENERAL_CODES.INVALID_TOKEN,
  invalid_token: GENERAL_CODES.INVALID_TOKEN,
  expired_token: GENERAL_CODES.EXPIRED_TOKEN,
  forbidden: GENERAL_CODES.GENERAL,
  not_found: GENERAL_CODES.GENERAL,
  conflict: GENERAL_CODES.GENERAL,
  precondition_failed: GENERAL_CODES.GENERAL,
  rate_limited: GENERAL_CODES.GENERAL,
  too_large: GENERAL_CODES.WRONG_FORMAT,
  unsupported: GENERAL_CODES.WRONG_FORMAT,
  internal: GENERAL_CODES.GENERAL,
};

/** The request id, in the body of an internal error only. */
export const withRequestId = (error: DomainError, requestId: string) =>
  error.kind === 'internal' ? { request_id: requestId } : {};

/** General API (fields and farms, ...): `{res:'error', code, info}`. */
export const generalDialect = defineDialect({
  name: 'general',
  errorSchema: () => z.object({ res: z.literal('error'), code: z.number().check(z.int()), info: z.string() }),
  defaults: generalDefaults,
  body: (code, info, error, requestId) => ({ res: 'error', code, info, ...withRequestId(error, requestId) }),
});

/** Internal API: `{code, info}` (docs/internal-api.md). */
export const internalDialect = defineDialect({
  name: 'internal',
  errorSchema: () => z.object({ code: z.number().check(z.int()), info: z.string() }),
  defaults: { ...generalDefaults, not_found: 1, conflict: 2 },
  body: (code, info, error, requestId) => ({ code, info, ...withRequestId(error, requestId) }),
});

/** String codes in the manner of the sensors table (spec 1), shared by livestock and sensors. */
const stringCodeDefaults: Record<ErrorKind, ErrorCode> = {
  invalid: 'PARAMETER_ERROR',
  unauthenticated: 'UNAUTHORIZED_USER',
  invalid_token: 'INVALID_AUTH',
  expired_token: 'EXPIRED_AUTHENTICATION',
  forbidden: 'PERMISSION_ERROR',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  precondition_failed: 'PRECONDITION_FAILED',
  rate_limited: 'TOO_MANY_REQUESTS',
  too_large: 'PARAMETER_ERROR',
  unsupported: 'PARAMETER_ERROR',
  internal: 'GENERAL_ERROR',
};

/** Sensors error table (spec 1): every code has a fixed INFO. */
export const SENSOR_INFO: Record<string, string> = {
  GENERAL_ERROR: 'The requested action failed to execute',
  EXPIRED_AUTHENTICATION: 'Expired Authentication token',
  INVALID_AUTH: 'Invalid Authentication token',
  PARAMETER_ERROR: 'Parameters error',
  UNAUTHORIZED_EXTENSION: 'Unauthorized attempt to access an Extensions resource',
  UNAUTHORIZED_USER: 'Unauthorized attempt to access a protected endpoint',
  ACCESS_ERROR: 'The User does not have access to the requested resource',
  PERMISSION_ERROR: 'The User is not allowed to execute the specified action over the requested resource',
  VARIABLEGROUP_NOT_FOUND: 'Variable group could not be found',
  VARIABLEGROUP_CREATE_ERROR: 'Variable group could not be created',
  VARIABLEGROUP_UPDATE_ERROR: 'Variable group could not be updated',
  VARIABLEGROUP_DELETE_ERROR: 'Variable group could not be deleted',
  VARIABLE_NOT_FOUND: 'Variable could not be found',
  VARIABLE_CREATE_ERROR: 'Variable could not be created',
  VARIABLE_UPDATE_ERROR: 'Variable could not be updated',
  VARIABLE_DELETE_ERROR: 'Variable could not be deleted',
};

/** Sensors (spec 1): `{res:'error', code, info}` with the table's INFO, and `detail` when there is more. */
export const sensorsDialect = defineDialect({
  name: 'sensors',
  errorSchema: () =>
    z.object({ res: z.literal('error'), code: z.string(), info: z.string(), detail: z.optional(z.string()) }),
  defaults: { ...stringCodeDefaults, not_found: 'NOT_FOUND' },
  body: (code, info, error, requestId) => {
    const fixed = SENSOR_INFO[String(code)];
    return {
      res: 'error',
      code,
      info: fixed ?? info,
      ...(fixed && fixed !== info && error.kind !== 'internal' ? { detail: info } : {}),
      ...withRequestId(error, requestId),
    };
  },
});

/** Livestock (spec 1; errors not shown there): `{res:'error', code, info}` with string codes. */
export const livestockDialect = defineDialect({
  name: 'livestock',
  errorSchema: () => z.object({ res: z.literal('error'), code: z.string(), info: z.string() }),
  defaults: { ...stringCodeDefaults, invalid: 'INVALID_PARAMETERS' },
  body: (code, info, error, requestId) => ({ res: 'error', code, info, ...withRequestId(error, requestId) }),
});

/** Spots (spec 1): `{code, info}` (numeric codes 51-55, 12, 404; `detail` when there is more). */
export const spotsDialect = defineDialect({
  name: 'spots',
  errorSchema: () => z.object({ code: z.number().check(z.int()), info: z.string(), detail: z.optional(z.string()) }),
  defaults: { ...generalDefaults, forbidden: 12, not_found: 404 },
  body: (code, info, error, requestId) => ({ code, info, ...withRequestId(error, requestId) }),
});

/** Farm tags (spec 2): `{info, res:'err', code}`, info in Spanish. */
export const farmTagsDialect = defineDialect({
  name: 'farm tags',
  errorSchema: () => z.object({ info: z.string(), res: z.literal('err'), code: z.number().check(z.int()) }),
  defaults: { ...generalDefaults, invalid: 1, not_found: 3, conflict: 3, forbidden: 3 },
  body: (code, info, error, requestId) => ({
    info: error.kind === 'internal' ? 'No se pudo ejecutar la acción solicitada' : spanish(error.kind, info),
    res: 'err',
    code,
    ...withRequestId(error, requestId),
  }),
});

/** Auth messages in Spanish for the farm tags dialect; other messages are already Spanish. */
function spanish(kind: ErrorKind, info: string): string {
  switch (kind) {
    case 'unauthenticated':
      return 'Falta la autenticación en la solicitud';
    case 'invalid_token':
      return 'Token de autenticación inválido';
    case 'expired_token':
      return 'Token de autenticación vencido';
    case 'too_large':
      return 'La solicitud es demasiado grande';
    case 'precondition_failed':
      return 'El registro cambió desde la versión indicada (If-Match)';
    case 'rate_limited':
      return 'Demasiadas solicitudes: reintente más tarde';
    default:
      return info;
  }
}

/** Field tags (spec 2): HTTP 400/401/403 with `{CODE, info}` (success carries `CODE: 'OK'`). */
export const fieldTagsDialect = defineDialect({
  name: 'field tags',
  errorSchema: () => z.object({ CODE: z.string(), info: z.string() }),
  defaults: {
    invalid: 'BAD_REQUEST',
    unauthenticated: 'UNAUTHORIZED',
    invalid_token: 'UNAUTHORIZED',
    expired_token: 'UNAUTHORIZED',
    forbidden: 'FORBIDDEN',
    not_found: 'FORBIDDEN',
    conflict: 'BAD_REQUEST',
    precondition_failed: 'PRECONDITION_FAILED',
    rate_limited: 'TOO_MANY_REQUESTS',
    too_large: 'BAD_REQUEST',
    unsupported: 'BAD_REQUEST',
    internal: 'ERROR',
  },
  body: (code, info, error, requestId) => ({ CODE: code, info, ...withRequestId(error, requestId) }),
});

/** Farm metadata (spec 3): `{info}`; 400 'Error could not update metadata', 401, 403 access denied. */
export const metadataDialect = defineDialect({
  name: 'farm metadata',
  errorSchema: () => z.object({ info: z.string(), detail: z.optional(z.string()) }),
  defaults: generalDefaults,
  body: (_code, info, error, requestId) => {
    const fixed: Partial<Record<ErrorKind, string>> = {
      unauthenticated: 'unauthorized',
      invalid_token: 'unauthorized',
      expired_token: 'unauthorized',
      forbidden: 'access denied',
      not_found: 'access denied',
    };
    const text = fixed[error.kind];
    return {
      info: text ?? info,
      ...(text && text !== info ? { detail: info } : {}),
      ...withRequestId(error, requestId),
    };
  },
});

/** Season shapes (spec 2): `{code, msg}` with the spec's string codes. */
export const SHAPE_MESSAGES: Record<string, string> = {
  REPROCESSING: 'The previous shape is still being processed',
  INVALID_GEOMETRY: 'The provided geometry is invalid',
  NOT_ENOUGH_QUOTA: 'User has exceeded the assigned quota',
  NOT_ENOUGH_QUOTA_WORKSPACE: 'Workspace has exceeded the assigned quota',
  MAX_SHAPE_AREA_EXCEEDED: 'The requested Shape exceeds area limits',
  SHAPE_EXPANSION_LIMIT: 'The provided shape exceeds the defined expansion limits',
};

/** Samplings: `{code, msg}` (spec 3: insufficient permissions are code -11, msg 'insufficient permissions'). */
export const samplingDialect = defineDialect({
  name: 'samplings',
  errorSchema: () => z.object({ code: z.number().check(z.int()), msg: z.string(), request_id: z.optional(z.string()) }),
  defaults: generalDefaults,
  body: (code, info, error, requestId) => ({ code, msg: info, ...withRequestId(error, requestId) }),
});

export const shapesDialect = defineDialect({
  name: 'season shapes',
  errorSchema: () => z.object({ code: z.string(), msg: z.string(), detail: z.optional(z.string()) }),
  defaults: {
    invalid: 'INVALID_PARAMETERS',
    unauthenticated: 'INVALID_TOKEN',
    invalid_token: 'INVALID_TOKEN',
    expired_token: 'EXPIRED_TOKEN',
    forbidden: 'PERMISSION_DENIED',
    not_found: 'FIELD_NOT_FOUND',
    conflict: 'REPROCESSING',
    precondition_failed: 'PRECONDITION_FAILED',
    rate_limited: 'TOO_MANY_REQUESTS',
    too_large: 'INVALID_PARAMETERS',
    unsupported: 'INVALID_PARAMETERS',
    internal: 'GENERAL_ERROR',
  },
  body: (code, info, error, requestId) => {
    const fixed = SHAPE_MESSAGES[String(code)];
    return {
      code,
      msg: fixed ?? info,
      ...(fixed && fixed !== info && error.kind !== 'internal' ? { detail: info } : {}),
      ...withRequestId(error, requestId),
    };
  },
});

/** Storage codes below 0 are the general ones; the others are the storage tables' (spec 3). */
const storageDefaults: Record<ErrorKind, ErrorCode> = {
  ...generalDefaults,
  forbidden: 3,
  not_found: 3,
  conflict: 5,
  internal: 6,
};

const storageInfo = (code: ErrorCode, info: string, error: DomainError, requestId: string) => ({
  code,
  message: info,
  ...withRequestId(error, requestId),
});

/** Key-value storage (spec 3): every answer is `{info:{code, ...}}`; errors add `message`. */
export const storageDialect = defineDialect({
  name: 'storage',
  errorSchema: () => z.object({ info: z.object({ code: z.number().check(z.int()), message: z.string() }) }),
  defaults: storageDefaults,
  body: (code, info, error, requestId) => ({ info: storageInfo(code, info, error, requestId) }),
});

/**
 * File storage (spec 3): the error table gives a top-level `code`; the same code and a message
 * are also under `info`, as key-value storage answers, so one client parser reads both.
 */
export const fileStorageDialect = defineDialect({
  name: 'file storage',
  errorSchema: () =>
    z.object({
      code: z.number().check(z.int()),
      info: z.object({ code: z.number().check(z.int()), message: z.string() }),
    }),
  defaults: storageDefaults,
  body: (code, info, error, requestId) => ({ code, info: storageInfo(code, info, error, requestId) }),
});

/** Imagery layers (spec 2, Layers: `{error_code}`): `{error_code, info}` with the string codes of the sensors table. */
export const imageryDialect = defineDialect({
  name: 'imagery',
  errorSchema: () => z.object({ error_code: z.string(), info: z.string(), request_id: z.optional(z.string()) }),
  defaults: stringCodeDefaults,
  body: (code, info, error, requestId) => ({ error_code: String(code), info, ...withRequestId(error, requestId) }),
});

/** Webhooks (ours, docs/integrations.md): the string codes of the imagery and sensors areas. */
export const webhooksDialect = defineDialect({
  name: 'webhooks',
  errorSchema: () => z.object({ error_code: z.string(), info: z.string(), request_id: z.optional(z.string()) }),
  defaults: stringCodeDefaults,
  body: (code, info, error, requestId) => ({ error_code: String(code), info, ...withRequestId(error, requestId) }),
});
