// Request bodies of every content type the spec uses: JSON, form-urlencoded, multipart, text.
// API Gateway hands them base64-encoded (binaryMediaTypes '*/*').
import { Invalid, TooLarge } from '../errors';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface RawRequest {
  body?: string | null;
  isBase64Encoded?: boolean;
  headers: Record<string, string | undefined>;
}

export function rawBody(event: RawRequest, maxBytes: number): Buffer | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const buffer = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (buffer.length > maxBytes) {
    throw new TooLarge(`the request body has ${buffer.length} bytes; at most ${maxBytes} are accepted`);
  }
  return buffer;
}

export const mediaType = (headers: Record<string, string | undefined>): string =>
  (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Invalid('the request body is not valid JSON');
  }
}

/** Form fields; a repeated key gives an array. */
export function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const current = out[key];
    if (current === undefined) out[key] = value;
    else out[key] = Array.isArray(current) ? [...current, value] : [current, value];
  }
  return out;
}

/**
 * Parses JSON and form bodies (and JSON sent without a content type or as text/plain).
 * Multipart bodies are left to the multipart parser; other types stay raw.
 */
export function parseBody(buffer: Buffer | undefined, type: string): unknown {
  if (!buffer) return undefined;
  const text = () => buffer.toString('utf8');
  if (type === 'application/json' || type.endsWith('+json')) return parseJson(text());
  if (type === 'application/x-www-form-urlencoded') return parseForm(text());
  if (type === '' || type === 'text/plain') {
    const trimmed = text().trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson(trimmed);
    return type === '' && trimmed.includes('=') && !trimmed.includes(' ') ? parseForm(trimmed) : trimmed;
  }
  return buffer;
}
