// The factory of streaming handlers (docs/adr/0005-notification-stream.md). Lambda streams a
// response when the handler is wrapped by the runtime's `awslambda.streamifyResponse`; API
// Gateway (REST, integration transfer mode STREAM) passes the bytes on as they are written. The
// same handler runs locally under scripts/local/gateway.ts, which provides the same `awslambda`
// global over a plain HTTP response. Authentication, validation and errors are those of
// `endpoint`: errors before the stream starts are answered in the route's dialect, as JSON.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import { Invalid } from '../errors';
import { createLogger, type Logger } from '../log';
import type { Principal } from '../auth/principal';
import { asDomainError, bearerPrincipal } from './endpoint';
import { describeIssues } from '../util/issues';
import { responseCorsHeaders } from './cors';
import type { RouteDef } from './route';

export interface ResponseMetadata {
  statusCode: number;
  headers: Record<string, string>;
}

/** What the Lambda runtime (or the local gateway) provides to streaming handlers. */
export interface StreamingRuntime {
  streamifyResponse(handler: StreamingHandler): unknown;
  HttpResponseStream: { from(stream: Writable, metadata: ResponseMetadata): Writable };
}

export type StreamingHandler = (event: APIGatewayProxyEvent, responseStream: Writable, context: Context) => Promise<void>;

/** The runtime's `awslambda` global (absent outside Lambda and the local gateway). */
export const streamingRuntime = (): StreamingRuntime | undefined => {
  const runtime = (globalThis as unknown as { awslambda?: Partial<StreamingRuntime> }).awslambda;
  return typeof runtime?.streamifyResponse === 'function' ? (runtime as StreamingRuntime) : undefined;
};

export interface StreamContext<Q> {
  query: Q;
  principal: Principal;
  headers: Record<string, string | undefined>;
  requestId: string;
  log: Logger;
  /** The response, already started with status 200 and the route's content type. */
  out: Writable;
}

export interface StreamSpec<Q> {
  contentType: string;
  /** Also accept the token as `?access_token=` (browsers' EventSource cannot send headers). */
  tokenInQuery?: boolean;
  handler: (ctx: StreamContext<Q>) => Promise<void>;
}

const lowerCase = (headers: Record<string, string | undefined> | null) =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));

export function streamEndpoint<QS extends z.ZodType>(route: RouteDef<QS>, spec: StreamSpec<z.output<QS>>) {
  const handle: StreamingHandler = async (event, responseStream, context) => {
    const runtime = streamingRuntime()!;
    const requestId = context?.awsRequestId ?? event.requestContext?.requestId ?? 'local';
    const log = createLogger({ requestId, route: route.operationId });
    const started = Date.now();
    const headers = lowerCase(event.headers);
    let out: Writable | undefined;
    try {
      const rawQuery = event.queryStringParameters ?? {};
      const token = spec.tokenInQuery && !headers.authorization && rawQuery.access_token ? `Bearer ${rawQuery.access_token}` : headers.authorization;
      const principal = await bearerPrincipal(token);
      const parsed = route.request?.query ? route.request.query.safeParse(rawQuery) : { success: true as const, data: {} };
      if (!parsed.success) throw new Invalid(describeIssues(parsed.error.issues));
      out = runtime.HttpResponseStream.from(responseStream, {
        statusCode: 200,
        headers: {
          'content-type': spec.contentType,
          'cache-control': 'no-cache, no-transform',
          'x-accel-buffering': 'no',
          ...responseCorsHeaders(headers.origin),
          'x-request-id': requestId,
        },
      });
      log.info('stream opened', { userId: principal.user.id });
      await spec.handler({ query: parsed.data as z.output<QS>, principal, headers, requestId, log, out });
      log.info('stream closed', { duration_ms: Date.now() - started });
    } catch (error) {
      const domain = asDomainError(error);
      if (domain.kind === 'internal') log.error('unhandled error', { error });
      if (!out) {
        const rendered = route.dialect.render(domain, requestId);
        out = runtime.HttpResponseStream.from(responseStream, {
          statusCode: rendered.status,
          headers: { 'content-type': 'application/json', ...responseCorsHeaders(headers.origin), 'x-request-id': requestId },
        });
        out.write(JSON.stringify(rendered.body));
        log.info('request', { method: event.httpMethod, path: event.path, status: rendered.status, duration_ms: Date.now() - started });
      }
    } finally {
      if (out && !out.writableEnded && !out.destroyed) out.end();
    }
  };
  const runtime = streamingRuntime();
  // Not under Lambda nor the local gateway (e.g. serverless-offline, which cannot stream).
  const handler = runtime
    ? (runtime.streamifyResponse(handle) as object)
    : async () => {
        throw new Error(`${route.operationId} streams its response: run it in Lambda or under scripts/local/gateway.ts`);
      };
  return Object.assign(handler, { route });
}
