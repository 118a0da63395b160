// What handlers return when 200-with-JSON is not enough: another status, no body, a file, a
// stream.

import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { jsonPieces } from '../util/json-pieces';
import { encodeRfc5987 } from '../util/text';
import { responseCorsHeaders } from './cors';

export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}

  /** Whether the body goes out as JSON (toResult serialises it): not absent, not bytes, not text of a given type. */
  get isJson(): boolean {
    return (
      this.body !== undefined &&
      !Buffer.isBuffer(this.body) &&
      !(typeof this.body === 'string' && this.headers['content-type'])
    );
  }

  static json(body: unknown, status = 200): Reply {
    return new Reply(status, body);
  }

  /** JSON already serialised (a document served as it is), sent without parsing it again. */
  static jsonText(text: string, status = 200): Reply {
    return new Reply(status, text, { 'content-type': 'application/json; charset=utf-8' });
  }

  static empty(status = 204, headers: Record<string, string> = {}): Reply {
    return new Reply(status, undefined, headers);
  }

  /** A file download: binary content sent base64-encoded through API Gateway. */
  static file(content: Buffer, contentType: string, fileName?: string): Reply {
    return new Reply(200, content, {
      'content-type': contentType,
      ...(fileName ? { 'content-disposition': contentDisposition(fileName) } : {}),
    });
  }
}

/**
 * A streamed answer (routes with `stream: true`): status 200 and `contentType` are sent at once,
 * then `write` writes to the response until it resolves or the client leaves (`out` closes).
 */
export class StreamReply {
  constructor(
    readonly contentType: string,
    readonly write: (out: Writable) => Promise<void>,
    readonly options: {
      /** Headers over the stream's defaults (an event stream's no-cache, no-transform). */
      headers?: Record<string, string>;
      /** Compressed with gzip when the client accepts it (API Gateway compresses no stream itself). */
      compress?: boolean;
    } = {},
  ) {}
}

/** Writes to a response stream, waiting for the client to take what is buffered when it is full. */
export async function writeInTurn(out: Writable, chunk: string | Uint8Array): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Characters of serialised JSON (or bytes of a file) written at a time to a stream (it waits for the client in between). */
const JSON_CHUNK = 256 * 1024;

/**
 * A JSON body written to a response stream, gzip-compressed for a client that accepts it: what a
 * route declared with `stream: true` answers when its handler returns a plain body, so that an
 * answer which grows with the account is never held to Lambda's 6 MB buffered limit. It is written
 * in slices of about 256 KB as it is serialised (jsonPieces), never as one string.
 */
export function streamedJson(body: unknown, headers: Record<string, string> = {}): StreamReply {
  return new StreamReply(
    'application/json; charset=utf-8',
    async (out) => {
      let pending = '';
      for (const piece of jsonPieces(body)) {
        pending += piece;
        if (pending.length >= JSON_CHUNK) {
          await writeInTurn(out, pending);
          pending = '';
        }
      }
      if (pending) await writeInTurn(out, pending);
    },
    { headers: { 'cache-control': 'no-store', ...headers }, compress: true },
  );
}

/**
 * A file written to a response stream (routes with `stream: true` whose file grows with the
 * account, as a spot sheet does): no 6 MB bound on it. `compress` for a text file (a zip-based
 * file, as xlsx is, is compressed already).
 */
export function streamedFile(
  content: Buffer,
  contentType: string,
  fileName: string,
  { compress = false }: { compress?: boolean } = {},
): StreamReply {
  return new StreamReply(
    contentType,
    async (out) => {
      for (let at = 0; at < content.length; at += JSON_CHUNK)
        await writeInTurn(out, content.subarray(at, at + JSON_CHUNK));
    },
    { headers: { 'content-disposition': contentDisposition(fileName) }, compress },
  );
}

/** Whether an Accept-Encoding header accepts gzip (listed, and not with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** Headers of every answer, buffered or streamed. */
export function baseHeaders(requestId: string, origin?: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...responseCorsHeaders(origin),
    'x-request-id': requestId,
  };
}

/** The response of a request sent from `origin` (its CORS headers follow the deployment's policy). */
export function toResult(reply: Reply, requestId: string, origin?: string): APIGatewayProxyResult {
  const headers: Record<string, string> = { ...baseHeaders(requestId, origin), ...reply.headers };
  if (reply.body === undefined) {
    return { statusCode: reply.status, headers, body: '' };
  }
  if (Buffer.isBuffer(reply.body)) {
    return {
      statusCode: reply.status,
      headers: { 'content-type': 'application/octet-stream', ...headers },
      body: reply.body.toString('base64'),
      isBase64Encoded: true,
    };
  }
  if (!reply.isJson) return { statusCode: reply.status, headers, body: reply.body as string };
  return {
    statusCode: reply.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(reply.body),
  };
}

/** An attachment's name: an ASCII fallback, and the name itself in UTF-8 (RFC 6266, RFC 5987). */
export function contentDisposition(fileName: string): string {
  const ascii =
    fileName
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '')
      .trim() || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}
