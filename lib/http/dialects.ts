// The spec's areas answer errors in different body shapes. Each shape is modelled once here as a
// named dialect; the handler factory renders every DomainError through the route's dialect.
import { z } from 'zod';
import { STATUS_BY_KIND, type DomainError, type ErrorCode, type ErrorKind } from '../errors';

export interface RenderedError {
  status: number;
  body: unknown;
}

export interface Dialect {
  name: string;
  /** Body schema of this dialect's errors, for the OpenAPI document. */
  errorSchema: z.ZodType;
  render(error: DomainError, requestId: string): RenderedError;
}

export const GENERIC_FAILURE = 'The requested action failed to execute';

interface DialectSpec {
  name: string;
  errorSchema: z.ZodType;
  defaults: Record<ErrorKind, ErrorCode>;
  body(code: ErrorCode, info: string, error: DomainError, requestId: string): unknown;
}

function defineDialect(spec: DialectSpec): Dialect {
  return {
    name: spec.name,
    errorSchema: spec.errorSchema,
    render(error, requestId) {
      const status = error.status ?? STATUS_BY_KIND[error.kind];
      const code = error.code ?? spec.defaults[error.kind];
      const info = error.kind === 'internal' ? GENERIC_FAILURE : error.message;
      const body = spec.body(code, info, error, requestId);
      return { status, body: error.extra ? { ...(body as object), ...error.extra } : body };
    },
  };
}

/** Shared negative codes of the general API: -1 general, -2 expired, -3 invalid token, -4 format. */
export const GENERAL_CODES = { GENERAL: -1, EXPIRED_TOKEN: -2, INVALID_TOKEN: -3, WRONG_FORMAT: -4 } as const;

const generalDefaults: Record<ErrorKind, ErrorCode> = {
  invalid: GENERAL_CODES.WRONG_FORMAT,
  unauthenticated: GENERAL_CODES.INVALID_TOKEN,
  invalid_token: GENERAL_CODES.INVALID_TOKEN,
  expired_token: GENERAL_CODES.EXPIRED_TOKEN,
  forbidden: GENERAL_CODES.GENERAL,
  not_found: GENERAL_CODES.GENERAL,
  conflict: GENERAL_CODES.GENERAL,
  too_large: GENERAL_CODES.WRONG_FORMAT,
  unsupported: GENERAL_CODES.WRONG_FORMAT,
  internal: GENERAL_CODES.GENERAL,
};

const withRequestId = (error: DomainError, requestId: string) =>
  error.kind === 'internal' ? { request_id: requestId } : {};

/** General API (fields and farms, ...): `{res:'error', code, info}`. */
export const generalDialect = defineDialect({
  name: 'general',
  errorSchema: z.object({ res: z.literal('error'), code: z.number().int(), info: z.string() }),
  defaults: generalDefaults,
  body: (code, info, error, requestId) => ({ res: 'error', code, info, ...withRequestId(error, requestId) }),
});

/** Internal API: `{code, info}` (docs/internal-api.md). */
export const internalDialect = defineDialect({
  name: 'internal',
  errorSchema: z.object({ code: z.number().int(), info: z.string() }),
  defaults: { ...generalDefaults, not_found: 1, conflict: 2 },
  body: (code, info, error, requestId) => ({ code, info, ...withRequestId(error, requestId) }),
});

export const dialects = { general: generalDialect, internal: internalDialect };
export type DialectName = keyof typeof dialects;
