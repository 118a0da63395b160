// A route is the one declaration of an endpoint: method, paths, request and response schemas, how
// the caller authenticates, the claims it needs, the dialect its errors use, the Lambda handler
// that serves it and what that handler touches. schemas/<area>.ts declares routes; the handler
// factory validates against them, scripts/openapi.ts documents them and the serverless plugin
// (scripts/serverless/surco-plugin.cjs) generates each function, its events and its
// least-privilege role from them. Nothing about a route is written anywhere else.
import type * as z from 'zod/mini';
import type { Claim } from '../auth/claims';
import type { RecordKind } from '../db/revision';
import type { DomainError } from '../errors';
import type { Dialect } from './dialects';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Auth = 'bearer' | 'internal' | 'none';
export type BodyType = 'json' | 'form' | 'multipart';

// --- what a function touches (its IAM role is generated from this) -----------------------------

/** Queues of the platform (owned by the platform service, docs/adr/0006-services.md). */
export type QueueName =
  | 'events'
  | 'sensorBulk'
  | 'imagery'
  | 'imageryUrgent'
  | 'imageryBulk'
  | 'webhooks'
  | 'webhooksDeadLetter'
  | 'changesDeadLetter';
/** Bucket prefixes, each a kind of file. */
export type FilePrefix = 'spots/' | 'storage/' | 'sensor-bulk/' | 'imagery/' | 'uploads/';
export type FileAction = 'get' | 'put' | 'delete';
/** Secrets Manager secrets (given directly in the environment locally). */
export type SecretName = 'signingSeed' | 'internalKey';

export interface Touches {
  /** The main table: 'write' includes reading. Bearer authentication implies 'read'. */
  table?: 'read' | 'write';
  /** Queues it sends messages to. */
  sends?: readonly QueueName[];
  /** What it does with objects under each prefix of the files bucket (presigning counts). */
  files?: Partial<Record<FilePrefix, readonly FileAction[]>>;
  /** Secrets it reads. Internal-key authentication implies 'internalKey'. */
  secrets?: readonly SecretName[];
}

export interface LambdaSettings {
  /** Seconds (default 10). */
  timeout?: number;
  /** MB (default 512). */
  memorySize?: number;
}

/** Where a function's code is: `functions/<area>/<file>.<export>`. */
export type HandlerRef = `functions/${string}.${string}`;

export interface ResponseDoc {
  description: string;
  schema?: z.ZodMiniType;
  /** Defaults to application/json; several for a file served in one of several formats. */
  contentType?: string | readonly string[];
}

/** A route's documented responses, by status. */
export type Responses = Record<number, ResponseDoc>;

/**
 * What a route's handler answers when it succeeds: the value its 200 response's schema describes
 * (the handler factory types the handler's return with it: a compile error where the two differ).
 * A route whose 200 has no schema (a file, a stream) answers what its Reply says.
 */
export type SuccessBody<R> = R extends { 200: { schema: infer S } }
  ? S extends z.ZodMiniType
    ? z.output<S>
    : unknown
  : unknown;

export interface RouteDef<
  Q extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  B extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  P extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  R extends Responses = Responses,
> {
  operationId: string;
  method: Method | 'any';
  /** Paths as API Gateway declares them (`/api/rotations/{rotation_uuid}`); all serve the route. */
  paths: readonly string[];
  summary: string;
  description?: string;
  tags: readonly string[];
  auth: Auth;
  /** Claims the caller's token must carry (after intersecting with the user's plan). */
  claims?: readonly Claim[];
  /** The area's error for a missing claim (the dialect's forbidden code otherwise). */
  missingClaim?: () => DomainError;
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
    /**
     * 'handler': a body that cannot be read (not JSON, not well-formed Unicode) reaches the handler
     * as an {@link UnreadableBody} instead of answering 400 (an endpoint that answers 200 whatever it
     * is sent, POST /nc-internal/events). Only with validateBody: false.
     */
    unreadableBody?: 'handler';
  };
  responses: R;
  /** Largest accepted request body, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** The Lambda handler that serves every path of the route. */
  handler: HandlerRef;
  /** What the handler reads and writes besides what its authentication implies. */
  touches?: Touches;
  lambda?: LambdaSettings;
  /** The response is streamed (API Gateway transfer mode STREAM; the local gateway serves it); the handler returns a StreamReply. */
  stream?: boolean;
  /** Also accept the bearer token as `?access_token=` (browsers' EventSource cannot send headers). */
  tokenInQuery?: boolean;
  /**
   * The kind of record the route reads or writes (lib/http/conditional.ts): a GET that
   * answers one such record carries its `ETag`; PATCH, PUT and DELETE honour `If-Match`, creates by
   * client uuid `If-None-Match: *` (412 in the route's dialect).
   */
  record?: RecordKind;
  /** Left out of the OpenAPI document (the catch-all of unknown routes). */
  undocumented?: boolean;
}

/**
 * A route whose answer grows with the account and that the contract does not page: streamed, so
 * that it answers at any size (docs/deploy.md, "Large answers"); spread into its definition.
 */
export const growingList = { stream: true } as const;

export const defineRoute = <
  Q extends z.ZodMiniType | undefined = undefined,
  B extends z.ZodMiniType | undefined = undefined,
  P extends z.ZodMiniType | undefined = undefined,
  const R extends Responses = Responses,
>(
  route: RouteDef<Q, B, P, R>,
): RouteDef<Q, B, P, R> => route;

/** A queue consumer (a function fed by an SQS event source mapping) or a scheduled function. */
export interface WorkerDef {
  name: string;
  summary: string;
  handler: HandlerRef;
  /** The queue it consumes; absent for a scheduled function and a stream consumer. */
  queue?: QueueName;
  /**
   * The main table's change stream it consumes (DynamoDB Streams): the items of these partitions
   * (pk prefixes; the event source's filter), batches bisected on error and, past the retries,
   * recorded on the dead-letter queue.
   */
  tableStream?: { partitions: readonly string[]; deadLetter: QueueName; retries: number };
  /** EventBridge schedule expression of a scheduled function, e.g. `rate(1 day)`. */
  schedule?: string;
  /** Messages per invocation (queue consumers). */
  batchSize?: number;
  /** Most invocations at once (the event source's maximum concurrency, at least 2; locally, as many pollers). */
  concurrency?: number;
  /** Seconds the event source waits to fill a batch (default 0). */
  maximumBatchingWindow?: number;
  touches: Touches;
  lambda?: LambdaSettings;
}

export const defineWorker = (worker: WorkerDef): WorkerDef => worker;

/**
 * The API's Lambda authorizer: called by API Gateway before every bearer route, it names
 * the caller's usage-plan key (fair use per extension, lib/platform/fair-use.ts).
 */
export interface AuthorizerDef {
  name: string;
  summary: string;
  handler: HandlerRef;
  touches: Touches;
  lambda?: LambdaSettings;
}

/** A deployable service (one CloudFormation stack): its routes and workers. */
export interface ServiceDef {
  /** The API's authorizer (the platform service holds it; every service's bearer routes use it). */
  authorizer?: AuthorizerDef;
  /** `serverless.<name>.yml` deploys it (the platform service: serverless.yml). */
  name: string;
  summary: string;
  routes: readonly RouteDef[];
  workers: readonly WorkerDef[];
}
