// GET /console: the web console, built with this function from console/ (deploy/pages.cjs;
// docs/console.md). The deployment's basemap, if it has one, is written into the page and allowed
// by its Content-Security-Policy; everything else the page loads is this API's.
import files from 'surco-pages:console';
import { config } from '../../lib/config';
import { endpoint } from '../../lib/http/endpoint';
import { attributeText, pageServer } from '../../lib/http/pages';
import { webConsoleRoute } from '../../schemas/system';

/** Where the built page takes the deployment's settings. */
const SETTINGS = '<!--settings-->';

let serve: ReturnType<typeof pageServer> | undefined;

function server(): ReturnType<typeof pageServer> {
  const { basemap, basemapAttribution } = config().console;
  // the tile server's origin: its tiles are fetched (MapLibre) and drawn as images
  const tiles = basemap ? ` ${new URL(basemap.replace(/\{[^}]*\}/g, '0')).origin}` : '';
  serve ??= pageServer(files, {
    contentSecurityPolicy: [
      "default-src 'none'",
      "script-src 'self'",
      // MapLibre's worker is a module of this page; it may wrap it in a blob: URL
      "worker-src 'self' blob:",
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob:${tiles}`,
      "font-src 'self'",
      `connect-src 'self'${tiles}`,
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    html: (built) =>
      built.replace(
        SETTINGS,
        `<meta name="surco-basemap" content="${attributeText(basemap ?? '')}">` +
          `<meta name="surco-basemap-attribution" content="${attributeText(basemapAttribution)}">`,
      ),
  });
  return serve;
}

export const get = endpoint(webConsoleRoute, {
  handler: async ({ path, headers }) => server()(path.asset, headers),
});
