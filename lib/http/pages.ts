// Serving a web page the platform builds with its functions (deploy/pages.cjs; docs/console.md): its
// HTML at the page's path (`/docs`, `/console`), what the HTML loads at `<page>/<name>`. The files lie
// beside the function's bundle; each is read, and gzipped, when first asked for, then kept for the
// life of the function instance. A file's name carries a hash of its content, so it is cached by
// browsers for a year; the HTML is revalidated (ETag) at every load.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { NotFound } from '../errors';
import { Reply } from './reply';

/** A file of a page, as the build lists it (`import files from 'surco-pages:<page>'`). */
export interface PageFile {
  /** Its name in the page's URLs; the HTML is `index.html`. */
  name: string;
  type: string;
  /** Where the file lies (a file: URL beside the bundle). */
  url: string;
}

export interface PageOptions {
  /** The HTML's Content-Security-Policy. */
  contentSecurityPolicy: string;
  /** The HTML as served (the deployment's settings written into it), from the HTML as built. */
  html?: (built: string) => string;
}

interface Loaded {
  body: Buffer;
  gzipped?: Buffer;
  etag: string;
}

const HTML = 'index.html';
const YEAR_SECONDS = 365 * 24 * 3600;
const compressible = (type: string) => /^(text\/|application\/json|image\/svg)/.test(type);

/** Whether a request's Accept-Encoding takes gzip (a `q=0` refuses it). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** The answer to `GET <page>` (asset undefined) and `GET <page>/<asset>`. */
export function pageServer(files: readonly PageFile[], options: PageOptions) {
  const byName = new Map(files.map((file) => [file.name, file]));
  const loaded = new Map<string, Promise<Loaded>>();

  const load = (file: PageFile): Promise<Loaded> => {
    let entry = loaded.get(file.name);
    if (!entry) {
      entry = readFile(fileURLToPath(file.url)).then((bytes) => {
        const body = file.name === HTML && options.html ? Buffer.from(options.html(bytes.toString('utf8'))) : bytes;
        return {
          body,
          gzipped: compressible(file.type) && body.length > 1024 ? gzipSync(body) : undefined,
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
        };
      });
      entry.catch(() => loaded.delete(file.name));
      loaded.set(file.name, entry);
    }
    return entry;
  };

  return async (asset: string | undefined, headers: Record<string, string | undefined>): Promise<Reply> => {
    // the HTML only at the page's own path, so that its relative URLs resolve under it
    const file = asset === undefined ? byName.get(HTML) : asset === HTML ? undefined : byName.get(asset);
    if (!file) throw new NotFound(`no such file: ${asset}`);
    const { body, gzipped, etag } = await load(file);
    const page = file.name === HTML;
    const common: Record<string, string> = {
      'content-type': file.type,
      'cache-control': page ? 'no-cache' : `public, max-age=${YEAR_SECONDS}, immutable`,
      etag,
      vary: 'accept-encoding',
      ...(page
        ? {
            'content-security-policy': options.contentSecurityPolicy,
            'x-frame-options': 'DENY',
            'referrer-policy': 'no-referrer',
          }
        : {}),
    };
    if (headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) {
      return Reply.empty(304, common);
    }
    if (gzipped && acceptsGzip(headers['accept-encoding'])) {
      return new Reply(200, gzipped, { ...common, 'content-encoding': 'gzip' });
    }
    return new Reply(200, body, common);
  };
}

/** Text for an HTML attribute's value. */
export const attributeText = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
