// The web pages the platform serves (docs/console.md): each page is built with the function that
// serves it (deploy/pages.cjs, the `pages` plugin), its files written beside the function's bundle
// (so its zip takes them) and not into it; the function answers the HTML at the page's path with its
// Content-Security-Policy, each file at <page>/<name> with a year's caching, gzipped when asked,
// 304 to a matching ETag and 404 to any other name. Built as deployed (deploy/esbuild.yml).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, attributeText } from '../../lib/http/pages';
import { deployBuildOptions } from '../../scripts/esbuild-options';

const root = join(import.meta.dirname, '..', '..');
const budgets = JSON.parse(readFileSync(join(root, 'bench', 'bundle-budgets.json'), 'utf8')) as { defaultKb: number };
const dir = mkdtempSync(join(root, '.surco', 'pages-test-'));
type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const handlers: Record<string, Handler> = {};
const ENV = {
  SURCO_TABLE: 'table',
  SURCO_BUCKET: 'bucket',
  SURCO_EVENTS_QUEUE_URL: 'http://queue',
  SURCO_LOG_LEVEL: 'silent',
  SURCO_CONSOLE_BASEMAP: 'https://tiles.example.org/{z}/{x}/{y}.png',
  SURCO_CONSOLE_BASEMAP_ATTRIBUTION: '© "Example" & co',
};
const saved = Object.fromEntries(Object.keys(ENV).map((key) => [key, process.env[key]]));

/** A function's directory, as `npm run package` builds it: its entry re-exports the route's handler. */
async function buildFunction(name: string, handler: string): Promise<string> {
  const out = join(dir, name);
  const entry = join(dir, `${name}.ts`);
  const dot = handler.lastIndexOf('.');
  writeFileSync(
    entry,
    `export { ${handler.slice(dot + 1)} as handler } from '${join(root, handler.slice(0, dot))}';\n`,
  );
  await build({ ...deployBuildOptions(), entryPoints: { index: entry }, outdir: out });
  return out;
}

beforeAll(async () => {
  Object.assign(process.env, ENV);
  for (const [name, handler] of [
    ['docs', 'functions/system/docs.get'],
    ['console', 'functions/system/console.get'],
  ] as const) {
    const out = await buildFunction(name, handler);
    handlers[name] = ((await import(pathToFileURL(join(out, 'index.mjs')).href)) as { handler: Handler }).handler;
  }
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const context = { awsRequestId: 'req', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
function get(page: string, asset?: string, headers: Record<string, string> = {}) {
  return handlers[page]!(
    {
      httpMethod: 'GET',
      path: asset ? `/${page}/${asset}` : `/${page}`,
      resource: asset ? `/${page}/{asset}` : `/${page}`,
      headers,
      queryStringParameters: null,
      pathParameters: asset ? { asset } : null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'req' },
    } as unknown as APIGatewayProxyEvent,
    context,
  );
}
const bodyOf = (result: APIGatewayProxyResult): Buffer =>
  Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
/** The files a page's HTML loads from beside it (`<page>/<name>`). */
const loads = (page: string, html: string) =>
  [...html.matchAll(new RegExp(`(?:src|href)="${page}/([^"]+)"`, 'g'))].map((m) => m[1]!);

describe('the pages (GET /docs, GET /console)', () => {
  it('writes each page beside its function and keeps it out of the bundle', () => {
    for (const [page, expected] of [
      ['docs', [/^index-\w+\.html$/, /^docs-\w+-\w+\.js$/, /^docs-\w+-\w+\.css$/]],
      [
        'console',
        [/^index-\w+\.html$/, /^console-\w+-\w+\.js$/, /^console-\w+-\w+\.css$/, /^maplibre-gl-worker-\w+-\w+\.js$/],
      ],
    ] as const) {
      const files = readdirSync(join(dir, page));
      // (the page's script is what carries them)
      const script = files.find((file) => new RegExp(`^${page}-\\w+-\\w+\\.js$`).test(file))!;
      expect(readFileSync(join(dir, page, script), 'utf8')).toContain(
        page === 'docs' ? 'swagger-ui' : 'MAX_PARALLEL_IMAGE_REQUESTS',
      );
      for (const pattern of expected)
        expect(
          files.some((file) => pattern.test(file)),
          `${page}: ${pattern}`,
        ).toBe(true);
      // the function's code, its module and chunks, is within the default budget of any function
      // (bench/bundle-budgets.json): the page (Swagger UI or MapLibre, over 1 MB each) is not in it
      const code = files.filter((file) => file.endsWith('.mjs'));
      const bytes = code.reduce((sum, file) => sum + statSync(join(dir, page, file)).size, 0);
      expect(bytes, page).toBeLessThan(budgets.defaultKb * 1024);
      for (const file of code) {
        const text = readFileSync(join(dir, page, file), 'utf8');
        expect(text.includes('opblock-summary') || text.includes('MAX_PARALLEL_IMAGE_REQUESTS'), file).toBe(false);
      }
    }
  });

  it('answers the HTML at the page path, with its security headers, revalidated; what it loads, cached for a year', async () => {
    for (const page of ['docs', 'console']) {
      const result = await get(page);
      expect(result.statusCode).toBe(200);
      expect(result.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      });
      const csp = String(result.headers!['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      const html = bodyOf(result).toString();
      const files = loads(page, html);
      expect(files.some((file) => file.endsWith('.js'))).toBe(true);
      expect(files.some((file) => file.endsWith('.css'))).toBe(true);
      for (const file of files) {
        const asset = await get(page, file);
        expect(asset.statusCode, file).toBe(200);
        expect(asset.headers!['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(asset.headers!['content-type']).toMatch(file.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
        expect(bodyOf(asset).length).toBeGreaterThan(1000);
      }
    }
  });

  it("writes the deployment's basemap into the console and allows its origin, nothing else", async () => {
    const result = await get('console');
    const html = bodyOf(result).toString();
    expect(html).toContain('<meta name="surco-basemap" content="https://tiles.example.org/{z}/{x}/{y}.png">');
    expect(html).toContain('<meta name="surco-basemap-attribution" content="© &#34;Example&#34; &#38; co">');
    const csp = String(result.headers!['content-security-policy']);
    expect(csp).toContain("img-src 'self' data: blob: https://tiles.example.org");
    expect(csp).toContain("connect-src 'self' https://tiles.example.org");
    expect(String((await get('docs')).headers!['content-security-policy'])).toContain("connect-src 'self';");
  });

  it('gzips for a client that takes gzip, 304 for a matching ETag', async () => {
    const html = bodyOf(await get('console')).toString();
    const script = loads('console', html).find((file) => file.endsWith('.js'))!;
    const plain = await get('console', script);
    const zipped = await get('console', script, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers!['content-encoding']).toBe('gzip');
    expect(gunzipSync(bodyOf(zipped)).equals(bodyOf(plain))).toBe(true);
    expect(bodyOf(zipped).length).toBeLessThan(bodyOf(plain).length / 2);
    expect(plain.headers!['content-encoding']).toBeUndefined();
    const again = await get('console', script, { 'if-none-match': String(plain.headers!.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers 404 to a name the page has not, and to its HTML by name', async () => {
    for (const asset of ['nothing.js', 'index.html', '..%2Fdocs', 'console.js']) {
      const result = await get('console', asset);
      expect(result.statusCode, asset).toBe(404);
    }
  });

  it('reads Accept-Encoding and escapes attribute text', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('br, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(attributeText(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});
