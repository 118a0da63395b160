// A route is the contract of one endpoint: method, paths, request and response schemas, how the
// caller authenticates and the dialect its errors use. schemas/<area>.ts declares routes; the
// handler factory validates against them and scripts/openapi.ts documents them.
import type { z } from 'zod';
import type { Dialect } from './dialects';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Auth = 'bearer' | 'internal' | 'none';
export type BodyType = 'json' | 'form' | 'multipart';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface RouteDef<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
> {
  operationId: string;
  method: Method;
  /** Paths as API Gateway declares them (`/api/rotations/{rotation_uuid}`); all serve the route. */
  paths: readonly string[];
  summary: string;
  description?: string;
  tags: readonly string[];
  auth: Auth;
  dialect: Dialect;
  request?: {
    query?: Q;
    body?: B;
    path?: P;
    bodyType?: BodyType;
    /** 'query-or-body': parameters may also come in the body (the query wins). */
    params?: 'query' | 'query-or-body';
    /** false: the body schema documents the contract but the service validates it (large bodies). */
    validateBody?: boolean;
  };
  responses: Record<number, ResponseDoc>;
  /** Largest accepted request body, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
}

export const defineRoute = <
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(
  route: RouteDef<Q, B, P>,
): RouteDef<Q, B, P> => route;
