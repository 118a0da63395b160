// The local API's front door (docs/adr/0005-notification-stream.md). It does locally what API
// Gateway does in front of the functions and serverless-offline does not:
// - streaming routes (listed by the serverless plugin in .surco/build/streams.json) run here, in
//   the same built handler modules Lambda runs, under a local `awslambda` runtime that writes the
//   stream to the HTTP response as it is produced;
// - CORS preflights (OPTIONS) of every declared path are answered from the same policy the
//   deployed API's preflight is generated from (lib/http/cors.ts);
// - API Gateway's limits (10 MB bodies, 10 KB of headers) are enforced, answered in the area's
//   dialect rather than serverless-offline's or Node's own shape;
// every other request is passed through to serverless-offline unchanged.
//
//   node --import tsx scripts/local/gateway.ts --port 3000 --host 127.0.0.1 \
//     --upstream http://127.0.0.1:3004 --manifest .surco/build/streams.json
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { type DomainError, TooLarge } from '../../lib/errors';
import { corsOrigins, preflightHeaders, responseCorsHeaders } from '../../lib/http/cors';
import type { Dialect } from '../../lib/http/dialects';
import { allRoutes } from '../../schemas/index';
import { routeTable } from './routes';

/** API Gateway's quotas (REST APIs): payload size, and request line plus headers. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** How much of a refused body is read (and dropped) before answering; more cuts the connection. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const MAX_HEADER_BYTES = 10 * 1024;

interface StreamRoute {
  function: string;
  module: string;
  export: string;
  timeout: number;
  environment: Record<string, string>;
  routes: Array<{ method: string; path: string }>;
}

interface Metadata {
  statusCode?: number;
  headers?: Record<string, string>;
}

type StreamingHandler = (event: APIGatewayProxyEvent, stream: Writable, context: Context) => Promise<void>;

/** The response stream a handler writes to: the HTTP response, started by its metadata. */
class ResponseStream extends Writable {
  private contentType = 'application/octet-stream';

  constructor(private readonly res: ServerResponse) {
    super();
    res.once('close', () => this.destroy());
    this.on('error', () => undefined); // a client that left is not an error of the gateway
  }

  setContentType(type: string): void {
    this.contentType = type;
  }

  start(metadata: Metadata): void {
    if (this.res.headersSent) return;
    this.res.writeHead(metadata.statusCode ?? 200, { 'content-type': this.contentType, ...metadata.headers });
    this.res.flushHeaders();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.start({});
    this.res.write(chunk, (error) => callback(error ?? null));
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.start({});
    this.res.end(() => callback());
  }
}

/** What Lambda's Node.js runtime provides to streaming handlers, over a local HTTP response. */
function installRuntime(): void {
  (globalThis as Record<string, unknown>).awslambda = {
    streamifyResponse: (handler: StreamingHandler) => handler,
    HttpResponseStream: {
      from(stream: ResponseStream, metadata: Metadata) {
        stream.start(metadata);
        return stream;
      },
    },
  };
}

function proxyEvent(req: IncomingMessage, url: URL, resource: string): APIGatewayProxyEvent {
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
  return {
    resource,
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: url.searchParams.size ? query : null,
    multiValueQueryStringParameters: url.searchParams.size ? multiValueQuery : null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId,
      httpMethod: req.method ?? 'GET',
      path: url.pathname,
      stage: 'local',
      resourcePath: resource,
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
    } as APIGatewayProxyEvent['requestContext'],
  };
}

function lambdaContext(fn: StreamRoute, requestId: string): Context {
  const deadline = Date.now() + fn.timeout * 1000;
  return {
    awsRequestId: requestId,
    functionName: fn.function,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${fn.function}`,
    memoryLimitInMB: '1024',
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      upstream: { type: 'string' },
      manifest: { type: 'string' },
    },
  });
  const upstream = new URL(values.upstream!);
  const manifestPath = resolve(values.manifest!);
  const { streams } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { streams: StreamRoute[] };
  // Handlers read their configuration from the environment, as in Lambda.
  for (const fn of streams) Object.assign(process.env, fn.environment);
  installRuntime();
  const routes = new Map<string, { fn: StreamRoute; path: string; handler: StreamingHandler }>();
  for (const fn of streams) {
    const module = (await import(pathToFileURL(join(dirname(manifestPath), fn.module)).href)) as Record<
      string,
      StreamingHandler
    >;
    const handler = module[fn.export];
    if (typeof handler !== 'function') throw new Error(`${fn.module} has no export ${fn.export}`);
    for (const route of fn.routes) routes.set(`${route.method} ${route.path}`, { fn, path: route.path, handler });
  }

  const table = routeTable(allRoutes);
  const answerError = (req: IncomingMessage, res: ServerResponse, dialect: Dialect, error: DomainError) => {
    const requestId = randomUUID();
    const rendered = dialect.render(error, requestId);
    const send = () => {
      if (res.headersSent) return;
      res.writeHead(rendered.status, {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': requestId,
        ...responseCorsHeaders(req.headers.origin, corsOrigins()),
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

  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const passThrough = (req: IncomingMessage, res: ServerResponse, dialect: Dialect) => {
    // serverless-offline answers 200 to any OPTIONS that carries an Origin; API Gateway sends an
    // undeclared path's OPTIONS to the catch-all (404): without the Origin, offline does too
    const headers =
      req.method === 'OPTIONS'
        ? Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'origin'))
        : req.headers;
    // The body is read whole first (at most MAX_BODY_BYTES; a body sent without a length is counted
    // as it arrives), so that a request whose kept-alive connection serverless-offline closed just as
    // it was reused (ECONNRESET on a reused socket: the request never reached it) is sent again once.
    const chunks: Buffer[] = [];
    let received = 0;
    let refused = false;
    const forward = (body: Buffer, retried: boolean) => {
      const forwarded = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
          agent: retried ? false : agent,
        },
        (answer) => {
          // serverless-offline adds this to every response with an Origin; API Gateway does not
          const answered = answer.rawHeaders.filter(
            (_, i, all) => (i % 2 === 0 ? all[i] : all[i - 1])!.toLowerCase() !== 'access-control-allow-credentials',
          );
          if (!res.headersSent) res.writeHead(answer.statusCode ?? 502, answered);
          answer.pipe(res);
        },
      );
      forwarded.on('error', (error: NodeJS.ErrnoException) => {
        if (!retried && forwarded.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent)
          return forward(body, true);
        if (res.headersSent) return void res.destroy();
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ res: 'error', code: -1, info: `the local API is not available: ${error.message}` }));
      });
      forwarded.end(body);
    };
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      received += chunk.length;
      if (received > MAX_BODY_BYTES && !res.headersSent) {
        refused = true;
        chunks.length = 0;
        answerError(req, res, dialect, new TooLarge(`the request body is larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (!refused) forward(Buffer.concat(chunks), false);
    });
    req.once('error', () => res.destroy());
  };

  const server = createServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const dialect = table.dialect(pathname);
    const headerBytes = req.rawHeaders.reduce(
      (sum, part) => sum + Buffer.byteLength(part) + 2,
      Buffer.byteLength(req.url ?? '') + 16,
    );
    if (headerBytes > MAX_HEADER_BYTES) {
      return answerError(
        req,
        res,
        dialect,
        new TooLarge(`the request headers have ${headerBytes} bytes; at most ${MAX_HEADER_BYTES} are accepted`, {
          status: 431,
        }),
      );
    }
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      return answerError(req, res, dialect, new TooLarge(`the request body is larger than ${MAX_BODY_BYTES} bytes`));
    }
    const declared = table.match(pathname);
    if (req.method === 'OPTIONS' && declared) {
      res.writeHead(200, {
        'content-type': 'application/json',
        ...preflightHeaders(req.headers.origin, declared.methods, corsOrigins()),
      });
      return res.end();
    }
    const route = routes.get(`${req.method} ${pathname}`);
    if (!route) return passThrough(req, res, dialect);
    const event = proxyEvent(req, url, route.path);
    const stream = new ResponseStream(res);
    route
      .handler(event, stream, lambdaContext(route.fn, event.requestContext.requestId))
      .catch((error: Error) => {
        console.error(`${route.fn.function}: ${error.stack ?? error.message}`);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ res: 'error', code: -1, info: 'The requested action failed to execute' }));
      })
      .finally(() => {
        if (!stream.writableEnded && !stream.destroyed) stream.end();
      });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(values.port), values.host, () => {
    console.log(
      `gateway: ${routes.size} streaming route(s) on ${values.host}:${values.port}, the rest to ${upstream.origin}`,
    );
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: Error) => {
  console.error(`gateway: ${error.stack ?? error.message}`);
  process.exit(1);
});
