// What handlers return when 200-with-JSON is not enough: another status, no body, a file.
import type { APIGatewayProxyResult } from 'aws-lambda';
import { responseCorsHeaders } from './cors';

export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}

  static json(body: unknown, status = 200): Reply {
    return new Reply(status, body);
  }

  static empty(status = 204, headers: Record<string, string> = {}): Reply {
    return new Reply(status, undefined, headers);
  }

  /** A file download: binary content sent base64-encoded through API Gateway. */
  static file(content: Buffer, contentType: string, fileName?: string): Reply {
    return new Reply(200, content, {
      'content-type': contentType,
      ...(fileName ? { 'content-disposition': `attachment; filename="${fileName.replace(/"/g, '')}"` } : {}),
    });
  }
}

const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** The response of a request sent from `origin` (its CORS headers follow the deployment's policy). */
export function toResult(reply: Reply, requestId: string, origin?: string): APIGatewayProxyResult {
  const headers: Record<string, string> = { ...BASE_HEADERS, ...responseCorsHeaders(origin), 'x-request-id': requestId, ...reply.headers };
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
  if (typeof reply.body === 'string' && headers['content-type']) {
    return { statusCode: reply.status, headers, body: reply.body };
  }
  return {
    statusCode: reply.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(reply.body),
  };
}
