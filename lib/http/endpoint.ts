// The one handler factory. Every HTTP function is `endpoint(route, spec)`: the same middy chain
// of header and event normalizers, request context and logging, authentication and the route's
// claims, body parsing, zod validation, the handler, response serialisation, and error mapping in
// the route's dialect. The caller is authenticated before its body is read, so that an anonymous
// request never reaches a parser. Handlers stay glue: they receive validated input and call a
// service. A route with `stream: true` runs the same chain under middy's streamed responses (Lambda
// response streaming; the local gateway provides the same runtime): its handler returns a
// StreamReply, or a plain JSON body that is then written to the stream (streamedJson: the lists
// that grow with the account, docs/deploy.md "Large answers"); an error before the stream starts
// is answered in the dialect like any other.

import { PassThrough } from 'node:stream';
import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { checkInternalKey } from '../auth/internal-key';
import { hasClaims, type Principal, principalFromToken, principalFromVerdict } from '../auth/principal';
import { DomainError, Forbidden, Invalid, TooLarge, Unauthenticated, Unsupported } from '../errors';
import { createLogger, type Logger } from '../log';
import { preload } from '../util/first-use';
import { describeIssues } from '../util/issues';
import { illFormedText } from '../util/text';
import { DEFAULT_MAX_BODY_BYTES, parseBody, rawBody, UnreadableBody } from './body';
import { runConditional, scopeOf } from './conditional';
import { acceptsGzip, baseHeaders, Reply, StreamReply, streamedJson, toResult } from './reply';
import type { RouteDef, SuccessBody } from './route';

type Infer<T> = T extends z.ZodMiniType ? z.output<T> : undefined;

/** How long before its timeout a function stops waiting for its work and answers 503 (docs/reliability.md). */
export const TIMEOUT_MARGIN_MS = 1_000;
export const TIMED_OUT =
  'The request did not finish in time; send it again (creates with a client uuid and transactions with a transaction_uuid are safe to repeat)';

export interface HandlerContext<Q, B, P> {
  query: Q;
  body: B;
  path: P;
  /** The authenticated caller; only on routes with `auth: 'bearer'`. */
  principal: Principal;
  headers: Record<string, string | undefined>;
  requestId: string;
  log: Logger;
  event: APIGatewayProxyEvent;
}

export interface EndpointSpec<Q, B, P, Out = unknown> {
  /** Maps validation issues to the area's error (the dialect's wrong-format code otherwise). */
  invalid?: (issues: readonly z.core.$ZodIssue[], message: string) => DomainError;
  /** Answers the route's documented success body (its 200 response's schema), or a Reply or StreamReply. */
  handler: (ctx: HandlerContext<Q, B, P>) => Promise<Out | Reply | StreamReply>;
  /**
   * Kits loaded on first use (lib/util/first-use.ts) that every answered request of the route needs:
   * each authenticated, valid request starts loading them before its handler runs, so that their
   * import overlaps the handler's first reads (ADR 0008). A kit only some requests need is preloaded
   * by the code that knows (`preload(kit)`), not here.
   */
  preload?: ReadonlyArray<() => Promise<unknown>>;
}

/** Per-request state the middlewares build up; it travels on the event to the handler. */
interface State {
  started: number;
  log: Logger;
  requestId: string;
  principal?: Principal;
  input?: { query: unknown; body: unknown; path: unknown };
}

const STATE = Symbol('surco.request');
type Event = APIGatewayProxyEvent & { [STATE]?: State; parsedBody?: unknown };
type Request = middy.Request<Event, APIGatewayProxyResult, Error, Context>;

const originOf = (event: Event | undefined): string | undefined =>
  (event?.headers as Record<string, string | undefined> | undefined)?.origin;

const stateOf = (event: Event): State => {
  const state = event[STATE];
  if (!state) throw new Error('request state missing');
  return state;
};

/** The caller of an `Authorization: Bearer <token>` header (401 in the area's dialect otherwise). */
export async function bearerPrincipal(authorization: string | undefined): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new Unauthenticated();
  return principalFromToken(match[1]!);
}

/** Whether the Lambda runtime's response streaming (`awslambda.streamifyResponse`) is available. */
const streamingRuntimePresent = (): boolean =>
  typeof (globalThis as { awslambda?: { streamifyResponse?: unknown } }).awslambda?.streamifyResponse === 'function';

/** Turns a thrown value into a DomainError (unknown errors become `internal`). */
export function asDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const status = (error as { statusCode?: number } | null)?.statusCode;
  const message = (error as Error | null)?.message ?? 'error';
  if (status === 413) return new TooLarge('the request body is too large');
  if (status === 415) return new Unsupported('unsupported content type');
  if (status === 422 || status === 400) return new Invalid(`malformed request body: ${message}`);
  return new DomainError('internal', message);
}

/**
 * The spec of a route's handler: its validated inputs, and its answer typed by the route's documented
 * success body. (A conditional type over the whole route, so that TypeScript fixes the route before
 * it types the handler: a literal such as `res: 'ok'` then keeps its literal type.)
 */
export type SpecFor<T> =
  T extends RouteDef<infer Q, infer B, infer P, infer R>
    ? EndpointSpec<Infer<Q>, Infer<B>, Infer<P>, SuccessBody<R>>
    : never;

export function endpoint<T extends RouteDef>(route: T, typed: SpecFor<T>) {
  // the types above are the handler's contract; the chain below handles any route alike
  const spec = typed as unknown as EndpointSpec<unknown, unknown, unknown>;
  const maxBodyBytes = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const context = {
    before: (request: Request) => {
      const requestId = request.context?.awsRequestId ?? request.event.requestContext?.requestId ?? 'local';
      request.event[STATE] = {
        started: Date.now(),
        requestId,
        // apiRequestId joins this function's log lines to API Gateway's access log (docs/deploy.md)
        log: createLogger({
          requestId,
          apiRequestId: request.event.requestContext?.requestId,
          route: route.operationId,
        }),
      };
    },
  };

  const body = {
    before: async (request: Request) => {
      const event = request.event;
      const headers = event.headers as Record<string, string | undefined>;
      try {
        event.parsedBody = await parseBody(rawBody(event, maxBodyBytes), headers, maxBodyBytes);
        if (route.request?.unreadableBody === 'handler' && illFormedText(event.parsedBody))
          event.parsedBody = new UnreadableBody('a text of the body is not well-formed Unicode (a lone surrogate)');
      } catch (error) {
        const domain = asDomainError(error);
        // the handler decides what an unreadable body means (answered 200, POST /nc-internal/events)
        if (route.request?.unreadableBody === 'handler' && domain.kind !== 'internal') {
          event.parsedBody = new UnreadableBody(domain.message);
          return;
        }
        // An unreadable body is invalid input too: the area's own invalid-input error, if it has one.
        if (domain.kind === 'invalid' && spec.invalid) throw spec.invalid([], domain.message);
        throw domain;
      }
    },
  };

  const authenticate = {
    before: async (request: Request) => {
      const headers = request.event.headers as Record<string, string | undefined>;
      if (route.auth === 'internal') {
        await checkInternalKey(headers['x-internal-key']);
        return;
      }
      if (route.auth !== 'bearer') return;
      const queryToken = route.tokenInQuery ? request.event.queryStringParameters?.access_token : undefined;
      // the authorizer verified the token (its context): the caller is taken from it, not verified again
      const principal = await (principalFromVerdict(request.event.requestContext?.authorizer) ??
        bearerPrincipal(headers.authorization ?? (queryToken ? `Bearer ${queryToken}` : undefined)));
      const state = stateOf(request.event);
      state.principal = principal;
      state.log = state.log.child({
        userId: principal.user.id,
        ...(principal.extensionId ? { extension: principal.extensionId } : {}),
      });
      if (route.claims && !hasClaims(principal, route.claims)) {
        throw route.missingClaim?.() ?? new Forbidden(`the extension lacks the claim(s) ${route.claims.join(', ')}`);
      }
    },
  };

  const validate = {
    before: (request: Request) => {
      const event = request.event;
      const bodyObject = event.parsedBody;
      const bodyParams =
        route.request?.params === 'query-or-body' &&
        bodyObject &&
        typeof bodyObject === 'object' &&
        !Array.isArray(bodyObject)
          ? (bodyObject as Record<string, unknown>)
          : {};
      const rawInput = {
        query: { ...bodyParams, ...presentQuery(event.queryStringParameters) },
        body: bodyObject,
        path: event.pathParameters ?? {},
      };
      // every text a request carries is well-formed Unicode before any schema or service sees it:
      // one check for every route, so that nothing stores a lone surrogate (docs/decisions.md, General)
      const illFormed = illFormedText(rawInput);
      if (illFormed) {
        const message = `${illFormed.join('.')}: not well-formed Unicode (a lone surrogate)`;
        const issue = { code: 'custom', path: illFormed, message, input: undefined } as z.core.$ZodIssue;
        throw spec.invalid?.([issue], message) ?? new Invalid(message);
      }
      const parsed: { query: unknown; body: unknown; path: unknown } = { ...rawInput };
      const issues: z.core.$ZodIssue[] = [];
      for (const part of ['path', 'query', 'body'] as const) {
        const schema = route.request?.[part];
        if (!schema || (part === 'body' && route.request?.validateBody === false)) continue;
        const result = schema.safeParse(rawInput[part], { reportInput: true });
        if (result.success) parsed[part] = result.data;
        else issues.push(...result.error.issues.map((issue) => ({ ...issue, path: [part, ...issue.path] })));
      }
      if (issues.length) {
        const message = describeIssues(issues);
        throw spec.invalid?.(issues, message) ?? new Invalid(message);
      }
      stateOf(event).input = parsed;
    },
  };

  const logRequest = (event: Event, state: State, status: number) => {
    state.log.info('request', {
      method: event.httpMethod,
      path: event.path,
      status,
      duration_ms: Date.now() - state.started,
    });
  };

  const errors = {
    onError: (request: Request) => {
      const error = asDomainError(request.error);
      const state =
        request.event?.[STATE] ??
        ({
          started: Date.now(),
          requestId: 'unknown',
          log: createLogger({ route: route.operationId }),
        } satisfies State);
      if (error.kind === 'internal') state.log.error('unhandled error', { error: request.error });
      request.response = errorResult(route, error, state.requestId, request.event);
      logRequest(request.event, state, request.response.statusCode);
    },
  };

  const run = async (event: Event): Promise<APIGatewayProxyResult> => {
    for (const kit of spec.preload ?? []) preload(kit);
    const state = stateOf(event);
    const input = state.input!;
    const headers = event.headers as Record<string, string | undefined>;
    const call = () =>
      spec.handler({
        query: input.query,
        body: input.body,
        path: input.path,
        get principal(): Principal {
          if (!state.principal) throw new Error(`route ${route.operationId} is not authenticated by bearer`);
          return state.principal;
        },
        headers,
        requestId: state.requestId,
        log: state.log,
        event,
      });
    // a route of a record kind runs in a revision scope: ETag, If-Match, If-None-Match
    const { out, etag } = route.record
      ? await runConditional(scopeOf(route.record, event.httpMethod, headers), call)
      : { out: await call(), etag: undefined };
    if (out instanceof StreamReply) return stream(event, state, out);
    const reply = out instanceof Reply ? out : new Reply(200, out);
    // a streamed route's JSON body goes to the stream (an empty, binary or text body is answered as it is)
    if (route.stream && reply.status === 200 && reply.isJson) {
      return stream(event, state, streamedJson(reply.body, { ...reply.headers, ...(etag ? { etag } : {}) }));
    }
    const result = toResult(
      etag && reply.status < 300 ? new Reply(reply.status, reply.body, { etag, ...reply.headers }) : reply,
      state.requestId,
      originOf(event),
    );
    logRequest(event, state, result.statusCode);
    return result;
  };

  /** Starts a streamed answer: middy pipes `body` to the response while `reply.write` fills it. */
  const stream = async (event: Event, state: State, reply: StreamReply): Promise<APIGatewayProxyResult> => {
    if (!route.stream)
      throw new Error(`route ${route.operationId} returned a stream but is not declared with stream: true`);
    const out = new PassThrough();
    const gzip = reply.options.compress && acceptsGzip(event.headers?.['accept-encoding']);
    // node:zlib only for the answers that compress
    const body = gzip ? out.pipe((await import('node:zlib')).createGzip()) : out;
    logRequest(event, state, 200);
    void reply
      .write(out)
      .catch((error: unknown) => state.log.error('stream failed', { error }))
      .finally(() => {
        if (!out.writableEnded && !out.destroyed) out.end();
        state.log.info('stream closed', { duration_ms: Date.now() - state.started });
      });
    const headers = {
      ...baseHeaders(state.requestId, originOf(event)),
      'content-type': reply.contentType,
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
      ...reply.options.headers,
    };
    return { statusCode: 200, headers, body } as unknown as APIGatewayProxyResult;
  };

  // Streamed routes need the runtime's streaming wrapper (Lambda's, or the local gateway's); where
  // there is none (serverless-offline cannot stream) the function explains itself instead.
  if (route.stream && !streamingRuntimePresent()) {
    const unavailable = async () => {
      throw new Error(`${route.operationId} streams its response: run it in Lambda or under scripts/local/gateway.ts`);
    };
    return Object.assign(unavailable, { route });
  }
  // middy's onError handlers run from the last registered to the first: the error mapper is
  // registered first so that it runs last, after any other middleware's onError.
  // middy's own early timeout covers the handler only; answerInTime() below covers the whole chain
  // (authentication reads the table too)
  const handler = middy<Event, APIGatewayProxyResult, Error, Context>({
    streamifyResponse: Boolean(route.stream),
    timeoutEarlyInMillis: 0,
  })
    .use(errors)
    .use(httpHeaderNormalizer() as middy.MiddlewareObj<Event, APIGatewayProxyResult, Error, Context>)
    .use(httpEventNormalizer() as middy.MiddlewareObj<Event, APIGatewayProxyResult, Error, Context>)
    .use(context)
    .use(authenticate)
    .use(body)
    .use(validate)
    .handler(run);
  // the route it serves, for the registry's checks (tests/infrastructure.test.ts)
  return Object.assign(route.stream ? handler : answerInTime(route, handler), { route });
}

/** An error answered in the route's dialect, with the base headers. */
function errorResult(
  route: RouteDef,
  error: DomainError,
  requestId: string,
  event: Event | undefined,
): APIGatewayProxyResult {
  const rendered = route.dialect.render(error, requestId);
  return toResult(new Reply(rendered.status, rendered.body), requestId, originOf(event));
}

/**
 * A request whose work (authentication included) has not finished TIMEOUT_MARGIN_MS before the
 * function's timeout is answered 503 in the route's dialect with its request id, instead of the
 * gateway's timeout without a body. Streams run to their end.
 */
function answerInTime(route: RouteDef, handler: (event: Event, context: Context) => Promise<APIGatewayProxyResult>) {
  return async (event: Event, context: Context): Promise<APIGatewayProxyResult> => {
    const remaining = context?.getRemainingTimeInMillis?.();
    if (!remaining) return handler(event, context);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<APIGatewayProxyResult>((resolve) => {
      timer = setTimeout(
        () => {
          const requestId = context.awsRequestId ?? event?.requestContext?.requestId ?? 'local';
          createLogger({ requestId, route: route.operationId }).error(
            'answered 503: the function is about to time out',
          );
          resolve(
            errorResult(
              route,
              new DomainError('internal', TIMED_OUT, { status: 503, publicMessage: true }),
              requestId,
              event,
            ),
          );
        },
        Math.max(0, remaining - TIMEOUT_MARGIN_MS),
      );
    });
    try {
      return await Promise.race([handler(event, context), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Query parameters sent with a value: `?fields_id=` is absent, in every area (docs/decisions.md, General). */
function presentQuery(query: Record<string, string | undefined> | null | undefined): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== '') present[name] = value;
  return present;
}
