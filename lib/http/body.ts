// Request bodies of every content type the spec uses: JSON, form-urlencoded, multipart, text.
// API Gateway hands them base64-encoded (binaryMediaTypes '*/*'). Every failure to read a body,
// however it is cut or malformed, is an Invalid (or TooLarge/Unsupported) error: never a crash.
import type { Busboy as BusboyParser } from '@fastify/busboy';
import { Invalid, TooLarge, Unsupported } from '../errors';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Parts a multipart body may carry (files and fields together). */
export const MAX_MULTIPART_PARTS = 50;
const MAX_MULTIPART_FILES = 20;

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

/** The multipart content types read: a boundary of RFC 2046 characters, without spaces. */
const MULTIPART_TYPE =
  /^multipart\/form-data;\s*boundary=("?)[0-9A-Za-z'()+_,\-./:=?]{1,70}\1(\s*;\s*charset=[\w-]+)?\s*$/i;

/** A file part of a multipart body. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  content: Buffer;
}

export type MultipartValue = string | UploadedFile | Array<string | UploadedFile>;

const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).content);

/** The first file sent under `name` in a parsed multipart body, if any. */
export function fileField(body: unknown, name: string): UploadedFile | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value.find(isUploadedFile) : value;
  return isUploadedFile(first) ? first : undefined;
}

/**
 * Parses a whole multipart/form-data body held in memory. A body cut short (inside a part, or
 * without its closing boundary), a part over `maxFileBytes` or more parts than allowed is
 * refused as invalid; the stream errors of the parser are all listened to.
 */
export async function parseMultipart(
  buffer: Buffer,
  contentType: string,
  maxFileBytes: number,
): Promise<Record<string, MultipartValue>> {
  if (!MULTIPART_TYPE.test(contentType)) {
    throw new Unsupported("multipart/form-data needs a boundary of 1 to 70 letters, digits and -_.'()+,/:=?");
  }
  // loaded on the first multipart request, not at every cold start of every function
  const { default: Busboy } = await import('@fastify/busboy');
  return new Promise((resolve, reject) => {
    const out: Record<string, MultipartValue> = {};
    const add = (name: string, value: string | UploadedFile) => {
      const current = out[name];
      out[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
    };
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      reject(error);
    };
    let parser: BusboyParser;
    try {
      parser = Busboy({
        headers: { 'content-type': contentType },
        limits: {
          fileSize: maxFileBytes,
          files: MAX_MULTIPART_FILES,
          parts: MAX_MULTIPART_PARTS,
          fieldSize: maxFileBytes,
        },
      });
    } catch (error) {
      reject(new Unsupported(`unreadable multipart content type: ${(error as Error).message}`));
      return;
    }
    const pending: Array<Promise<void>> = [];
    parser.on('file', (name, stream, filename, _encoding, mimetype) => {
      const chunks: Buffer[] = [];
      pending.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('limit', () => fail(new TooLarge(`the file ${name} is larger than ${maxFileBytes} bytes`)));
          stream.on('error', (error: Error) => {
            fail(new Invalid(`malformed multipart body: ${error.message}`));
            done();
          });
          stream.on('end', () => {
            add(name, {
              filename: filename ?? '',
              mimetype: mimetype ?? 'application/octet-stream',
              content: Buffer.concat(chunks),
            });
            done();
          });
        }),
      );
    });
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) fail(new TooLarge(`the field ${name} is too large`));
      else add(name, value);
    });
    parser.on('partsLimit', () => fail(new Invalid(`a multipart body may have at most ${MAX_MULTIPART_PARTS} parts`)));
    parser.on('filesLimit', () => fail(new Invalid(`a multipart body may have at most ${MAX_MULTIPART_FILES} files`)));
    parser.on('fieldsLimit', () => fail(new Invalid('too many fields in the multipart body')));
    parser.on('error', (error: Error) => fail(new Invalid(`malformed multipart body: ${error.message}`)));
    parser.on('finish', () => {
      Promise.all(pending).then(() => (failed ? undefined : resolve(out)), fail);
    });
    try {
      parser.end(buffer);
    } catch (error) {
      fail(new Invalid(`malformed multipart body: ${(error as Error).message}`));
    }
  });
}

/**
 * A request body the endpoint could not read (not JSON, too large, not well-formed Unicode), handed
 * to a handler whose route takes it (`request.unreadableBody: 'handler'`) instead of a 400.
 */
export class UnreadableBody {
  constructor(readonly reason: string) {}
}

/**
 * Parses JSON, form and multipart bodies (and JSON sent without a content type or as text/plain);
 * other types stay raw.
 */
export async function parseBody(
  buffer: Buffer | undefined,
  headers: Record<string, string | undefined>,
  maxBytes: number,
): Promise<unknown> {
  const type = mediaType(headers);
  if (!buffer) {
    if (type === 'multipart/form-data') throw new Invalid('the multipart body is empty');
    return undefined;
  }
  const text = () => buffer.toString('utf8');
  if (type === 'multipart/form-data') return parseMultipart(buffer, headers['content-type'] ?? '', maxBytes);
  if (type === 'application/json' || type.endsWith('+json')) return parseJson(text());
  if (type === 'application/x-www-form-urlencoded') return parseForm(text());
  if (type === '' || type === 'text/plain') {
    const trimmed = text().trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson(trimmed);
    return type === '' && trimmed.includes('=') && !trimmed.includes(' ') ? parseForm(trimmed) : trimmed;
  }
  return buffer;
}
