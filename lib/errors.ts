// Typed domain errors. Services throw them with the spec's code for their area; the handler
// factory (lib/http) maps kind -> HTTP status and renders the body in the area's dialect.

export type ErrorKind =
  | 'invalid' // 400: wrong or missing input
  | 'unauthenticated' // 401: no credentials
  | 'invalid_token' // 401: credentials that do not verify
  | 'expired_token' // 401
  | 'forbidden' // 403: authenticated, but not allowed (claim, permission, quota)
  | 'not_found' // 404
  | 'conflict' // 409: duplicate or state conflict
  | 'precondition_failed' // 412: If-Match / If-None-Match not met
  | 'rate_limited' // 429: over the extension's rate or quota
  | 'too_large' // 413
  | 'unsupported' // 415
  | 'internal'; // 500

export type ErrorCode = string | number;

export interface ErrorOptions {
  /** The spec's code for this error in the area's dialect (e.g. 4, 'VARIABLE_NOT_FOUND'). */
  code?: ErrorCode;
  /** Extra members some dialects put in the body. */
  extra?: Record<string, unknown>;
  /** Override of the status the kind maps to, where the spec names another. */
  status?: number;
  /** An internal error whose message the contract names (shown instead of the generic text). */
  publicMessage?: boolean;
}

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly code: ErrorCode | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly status: number | undefined;
  readonly publicMessage: boolean;

  constructor(kind: ErrorKind, message: string, options: ErrorOptions = {}) {
    super(message);
    this.name = new.target.name;
    this.kind = kind;
    this.code = options.code;
    this.extra = options.extra;
    this.status = options.status;
    this.publicMessage = options.publicMessage ?? false;
  }
}

export class Invalid extends DomainError {
  constructor(message: string, options?: ErrorOptions) {
    super('invalid', message, options);
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'Authentication is missing in the request', options?: ErrorOptions) {
    super('unauthenticated', message, options);
  }
}

export class InvalidToken extends DomainError {
  constructor(message = 'Invalid authentication token', options?: ErrorOptions) {
    super('invalid_token', message, options);
  }
}

export class ExpiredToken extends DomainError {
  constructor(message = 'Expired authentication token', options?: ErrorOptions) {
    super('expired_token', message, options);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string, options?: ErrorOptions) {
    super('forbidden', message, options);
  }
}

export class NotFound extends DomainError {
  constructor(message: string, options?: ErrorOptions) {
    super('not_found', message, options);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, options?: ErrorOptions) {
    super('conflict', message, options);
  }
}

export class TooLarge extends DomainError {
  constructor(message: string, options?: ErrorOptions) {
    super('too_large', message, options);
  }
}

export class Unsupported extends DomainError {
  constructor(message: string, options?: ErrorOptions) {
    super('unsupported', message, options);
  }
}

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  invalid_token: 401,
  expired_token: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  rate_limited: 429,
  too_large: 413,
  unsupported: 415,
  internal: 500,
};

/** Shared negative codes of the general API: -1 general, -2 expired, -3 invalid token, -4 format. */
export const GENERAL_CODES = { GENERAL: -1, EXPIRED_TOKEN: -2, INVALID_TOKEN: -3, WRONG_FORMAT: -4 } as const;
