// The local API Gateway (docs/adr/0003-local-stack.md): what the deployed REST API does in front of
// the functions, over the local Lambda runtime (scripts/local/runtime.ts).
// - Routes from the registry, matched as API Gateway matches them (scripts/local/routes.ts); a
//   declared path with an undeclared method gets the MISSING_AUTHENTICATION_TOKEN gateway response
//   (404), any other path the catch-all function.
// - Lambda proxy events as the REST API builds them (bodies base64-encoded: the API's binary media
//   types are */*), and the function's result written back (a base64 body decoded).
// - The limits and failures of AWS, answered with the deployed API's gateway responses
//   (deploy/api.yml): a function error, a timeout or a buffered result over Lambda's 6 MB is a 502
//   with DEFAULT_5XX's body; a function still running at the REST API's 29 s integration timeout is
//   a 504 with the same body. Bodies over 10 MB and headers over 10 KB are refused in the area's
//   dialect, as before the function.
// - Streaming routes (transfer mode STREAM) written to the client as the function writes them.
// - CORS preflights (OPTIONS) of every declared path from the policy the deployed preflight is
//   generated from (lib/http/cors.ts).
// - The Lambda authorizer before every bearer route, its answer cached per token as API Gateway
//   caches it, and the usage plans of its tiers (lib/platform/fair-use.ts): an extension (or a user
//   within it) over its rate or quota is answered 429 in the route's dialect with Retry-After, before
//   the function; the authorizer's context reaches the function as `requestContext.authorizer`.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { parse } from 'yaml';
import type { Verdict } from '../../lib/auth/authorizer';
import { DomainError, TooLarge } from '../../lib/errors';
import { corsOrigins, preflightHeaders, responseCorsHeaders } from '../../lib/http/cors';
import type { Dialect } from '../../lib/http/dialects';
import type { RouteDef } from '../../lib/http/route';
import { FairUse, fairUseConfig } from '../../lib/platform/fair-use';
import { routeTable } from './routes';
import type { InvocationError, LambdaRuntime } from './runtime';

/** API Gateway's quotas (REST APIs): payload size, request line plus headers, integration timeout. */
export const GATEWAY_LIMITS = {
  bodyBytes: 10 * 1024 * 1024,
  headerBytes: 10 * 1024,
  integrationTimeoutMs: 29_000,
} as const;
/** How much of a refused body is read (and dropped) before answering; more cuts the connection. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

interface GatewayResponse {
  status: number;
  body: string;
}

/** The deployed API's gateway responses (deploy/api.yml), by response type. */
function gatewayResponses(root: string): Record<string, GatewayResponse> {
  // CloudFormation's short tags (!Ref, !Sub) elsewhere in the file are read as plain values (no
  // warning for each): only the gateway responses, which use none, are read from it
  const text = readFileSync(join(root, 'deploy', 'api.yml'), 'utf8');
  const resources = (parse(text, { logLevel: 'error' }) as { Resources: Record<string, any> }).Resources;
  const out: Record<string, GatewayResponse> = {};
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::ApiGateway::GatewayResponse') continue;
    const { ResponseType, StatusCode, ResponseTemplates } = resource.Properties;
    out[ResponseType] = { status: Number(StatusCode ?? 0), body: ResponseTemplates?.['application/json'] ?? '' };
  }
  return out;
}

export interface GatewayOptions {
  root: string;
  routes: readonly RouteDef[];
  runtime: LambdaRuntime;
  stage: string;
  /** The API's Lambda authorizer (the function's name), called before every bearer route. */
  authorizer?: string;
  /** The fair-use limiter's clock (tests). */
  now?: () => number;
  /** The REST API's integration timeout (29 s; tests shorten it). */
  integrationTimeoutMs?: number;
  log?: (message: string) => void;
}

export function createGateway(options: GatewayOptions): Server {
  const table = routeTable(options.routes);
  const responses = gatewayResponses(options.root);
  const streaming = new Set(options.routes.filter((r) => r.stream).map((r) => r.operationId));
  const log = options.log ?? (() => undefined);
  const integrationTimeoutMs = options.integrationTimeoutMs ?? GATEWAY_LIMITS.integrationTimeoutMs;
  const bearer = new Set(options.routes.filter((r) => r.auth === 'bearer').map((r) => r.operationId));
  const fairUse = new FairUse(fairUseConfig(), options.now);
  // the authorizer's verdicts by token, as API Gateway caches them (SURCO_AUTHORIZER_CACHE_S, 300 s)
  const verdicts = new Map<string, { verdict: Promise<Verdict>; until: number }>();
  const cacheMs = Number(process.env.SURCO_AUTHORIZER_CACHE_S ?? 300) * 1000;

  /** The authorizer's verdict on a request (its cached one, or a new invocation). */
  const authorize = (apiEvent: APIGatewayProxyEvent): Promise<Verdict> => {
    const headers = apiEvent.headers ?? {};
    const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    const identity = `${authorization ?? ''}\n${apiEvent.queryStringParameters?.access_token ?? ''}`;
    const now = Date.now();
    const hit = verdicts.get(identity);
    if (hit && hit.until > now) return hit.verdict;
    const request = {
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:local:000000000000:local/${options.stage}/${apiEvent.httpMethod}${apiEvent.resource}`,
      resource: apiEvent.resource,
      path: apiEvent.path,
      httpMethod: apiEvent.httpMethod,
      headers,
      queryStringParameters: apiEvent.queryStringParameters,
      requestContext: apiEvent.requestContext,
    };
    const verdict = options.runtime.invoke(options.authorizer!, request, randomUUID()).then((result) => {
      const answer = result as { principalId: string; context: Verdict['context']; usageIdentifierKey: string };
      return { principalId: answer.principalId, context: answer.context, usageKey: answer.usageIdentifierKey };
    });
    verdict.catch(() => verdicts.delete(identity));
    if (verdicts.size > 10_000) verdicts.clear();
    verdicts.set(identity, { verdict, until: now + cacheMs });
    return verdict;
  };

  /** A response of API Gateway itself (a gateway response of deploy/api.yml), with the CORS headers it adds. */
  const gatewayAnswer = (
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    status: number,
    errorType: string,
    message = '',
  ) => {
    if (res.headersSent) return void res.destroy();
    const template = responses[type] ?? responses[status >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX'];
    const body = (template?.body ?? '{"message":$context.error.messageString}').replace(
      '$context.error.messageString',
      JSON.stringify(message),
    );
    res.writeHead(template?.status || status, {
      'content-type': 'application/json',
      'x-amzn-errortype': errorType,
      'x-amzn-requestid': randomUUID(),
      ...responseCorsHeaders(req.headers.origin, corsOrigins()),
    });
    res.end(body);
  };

  /** An error of the area, before the function (limits), in the path's dialect. */
  const answerError = (
    req: IncomingMessage,
    res: ServerResponse,
    dialect: Dialect,
    error: DomainError,
    headers: Record<string, string> = {},
  ) => {
    const requestId = randomUUID();
    const rendered = dialect.render(error, requestId);
    const send = () => {
      if (res.headersSent) return;
      res.writeHead(rendered.status, {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': requestId,
        ...responseCorsHeaders(req.headers.origin, corsOrigins()),
        ...headers,
        connection: 'close',
      });
      res.end(JSON.stringify(rendered.body));
    };
    if (req.complete) return send();
    // Read the rest of the body (discarding it) before answering, so that a client still sending
    // receives the answer instead of a reset connection; a body beyond DRAIN_MAX_BYTES is cut off.
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) req.destroy();
    });
    req.once('end', send);
    req.once('error', () => res.destroy());
    req.resume();
  };

  const event = (
    req: IncomingMessage,
    url: URL,
    resource: string,
    params: Record<string, string>,
    body: Buffer,
  ): APIGatewayProxyEvent => {
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const value = req.rawHeaders[i + 1]!;
      headers[name] = value;
      (multiValueHeaders[name] ??= []).push(value);
    }
    const query: Record<string, string> = {};
    const multiValueQuery: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) {
      query[name] = value;
      (multiValueQuery[name] ??= []).push(value);
    }
    const requestId = randomUUID();
    const method = req.method ?? 'GET';
    return {
      resource,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: url.searchParams.size ? query : null,
      multiValueQueryStringParameters: url.searchParams.size ? multiValueQuery : null,
      pathParameters: Object.keys(params).length ? params : null,
      stageVariables: null,
      // the API's binary media types are */*: every body reaches the function base64-encoded
      body: body.length ? body.toString('base64') : null,
      isBase64Encoded: body.length > 0,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        requestId,
        extendedRequestId: requestId,
        httpMethod: method,
        path: `/${options.stage}${url.pathname}`,
        stage: options.stage,
        resourcePath: resource,
        resourceId: 'local',
        protocol: `HTTP/${req.httpVersion}`,
        requestTimeEpoch: Date.now(),
        identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: req.headers['user-agent'] ?? null },
      } as APIGatewayProxyEvent['requestContext'],
    };
  };

  /** Writes a function's buffered result as API Gateway does (a malformed one is the 502 of a function error). */
  const writeResult = (req: IncomingMessage, res: ServerResponse, result: unknown) => {
    const r = result as Partial<APIGatewayProxyResult> & { multiValueHeaders?: Record<string, (string | number)[]> };
    if (!r || typeof r !== 'object' || typeof r.statusCode !== 'number') {
      log(`malformed Lambda proxy response: ${JSON.stringify(result)?.slice(0, 200)}`);
      return gatewayAnswer(req, res, 'DEFAULT_5XX', 502, 'InternalServerErrorException');
    }
    const body =
      typeof r.body === 'string'
        ? r.isBase64Encoded
          ? Buffer.from(r.body, 'base64')
          : Buffer.from(r.body)
        : Buffer.alloc(0);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(r.headers ?? {})) headers[name.toLowerCase()] = String(value);
    for (const [name, values] of Object.entries(r.multiValueHeaders ?? {})) {
      headers[name.toLowerCase()] = values.map(String);
    }
    headers['content-length'] = String(body.length);
    res.writeHead(r.statusCode, headers);
    res.end(body);
  };

  const invoke = (req: IncomingMessage, res: ServerResponse, fn: string, apiEvent: APIGatewayProxyEvent) => {
    const requestId = apiEvent.requestContext.requestId;
    if (streaming.has(fn)) {
      const call = options.runtime.invokeStream(fn, apiEvent, requestId, {
        head: (statusCode, headers) => {
          if (!res.headersSent) res.writeHead(statusCode, headers);
          res.flushHeaders();
        },
        chunk: (data) => void res.write(data),
      });
      res.once('close', () => call.cancel());
      call.done.then(
        () => res.end(),
        (error: InvocationError) => {
          log(`${fn}: ${error.errorType}: ${error.message}`);
          if (!res.headersSent) gatewayAnswer(req, res, 'DEFAULT_5XX', 502, 'InternalServerErrorException');
          else res.destroy();
        },
      );
      return;
    }
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      log(`${fn}: the integration timed out after ${integrationTimeoutMs / 1000} s`);
      gatewayAnswer(req, res, 'INTEGRATION_TIMEOUT', 504, 'IntegrationTimeout');
    }, integrationTimeoutMs);
    options.runtime.invoke(fn, apiEvent, requestId).then(
      (result) => {
        clearTimeout(timer);
        if (!answered) writeResult(req, res, result);
      },
      (error: InvocationError) => {
        clearTimeout(timer);
        if (answered) return;
        log(`${fn}: ${error.errorType}: ${error.message}`);
        gatewayAnswer(req, res, 'DEFAULT_5XX', 502, 'InternalServerErrorException');
      },
    );
  };

  return createServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const dialect = table.dialect(pathname);
    const headerBytes = req.rawHeaders.reduce(
      (sum, part) => sum + Buffer.byteLength(part) + 2,
      Buffer.byteLength(req.url ?? '') + 16,
    );
    if (headerBytes > GATEWAY_LIMITS.headerBytes) {
      return answerError(
        req,
        res,
        dialect,
        new TooLarge(
          `the request headers have ${headerBytes} bytes; at most ${GATEWAY_LIMITS.headerBytes} are accepted`,
          {
            status: 431,
          },
        ),
      );
    }
    if (Number(req.headers['content-length'] ?? 0) > GATEWAY_LIMITS.bodyBytes) {
      return answerError(
        req,
        res,
        dialect,
        new TooLarge(`the request body is larger than ${GATEWAY_LIMITS.bodyBytes} bytes`),
      );
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const declared = table.match(pathname);
    if (declared?.methods.length && method === 'OPTIONS') {
      res.writeHead(200, {
        'content-type': 'application/json',
        ...preflightHeaders(req.headers.origin, declared.methods, corsOrigins()),
      });
      return res.end();
    }
    const fn = declared?.functions[method] ?? (declared?.methods.length ? undefined : declared?.functions.ANY);
    if (!declared || !fn) {
      return gatewayAnswer(req, res, 'MISSING_AUTHENTICATION_TOKEN', 403, 'MissingAuthenticationTokenException');
    }
    // The body is read whole (at most the gateway's limit; a body sent without a length is counted as it arrives).
    const chunks: Buffer[] = [];
    let received = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      received += chunk.length;
      if (received > GATEWAY_LIMITS.bodyBytes && !res.headersSent) {
        refused = true;
        chunks.length = 0;
        answerError(
          req,
          res,
          dialect,
          new TooLarge(`the request body is larger than ${GATEWAY_LIMITS.bodyBytes} bytes`),
        );
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (refused) return;
      const apiEvent = event(req, url, declared.path, declared.params, Buffer.concat(chunks));
      if (!options.authorizer || !bearer.has(fn)) return invoke(req, res, fn, apiEvent);
      authorize(apiEvent).then(
        (verdict) => {
          const { extensionId, userId } = verdict.context;
          const allowed = fairUse.take(extensionId, userId || 'anonymous');
          if (!allowed.ok) {
            const what =
              allowed.limit === 'quota'
                ? "the extension's request quota for the period is used up"
                : allowed.limit === 'rate'
                  ? 'too many requests from the extension'
                  : 'too many requests from this user through the extension';
            return answerError(
              req,
              res,
              dialect,
              new DomainError('rate_limited', `${what}; retry after ${allowed.retryAfterS} s`),
              { 'retry-after': String(allowed.retryAfterS) },
            );
          }
          (apiEvent.requestContext as { authorizer?: unknown }).authorizer = {
            ...verdict.context,
            principalId: verdict.principalId,
          };
          invoke(req, res, fn, apiEvent);
        },
        (error: InvocationError) => {
          // API Gateway answers an authorizer that fails with a 500 gateway response
          log(`${options.authorizer}: ${error.errorType}: ${error.message}`);
          gatewayAnswer(req, res, 'AUTHORIZER_FAILURE', 500, 'AuthorizerConfigurationException');
        },
      );
    });
    req.once('error', () => res.destroy());
  });
}
