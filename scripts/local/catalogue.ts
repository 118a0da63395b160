// The local stack's satellite catalogue (docs/imagery.md, "Local scenes"): a STAC API answering
// POST /v1/search as Earth Search does for the collection sentinel-2-l2a, with one item per
// Sentinel-2-like tile (lib/imagery/tiles.ts: a 100 km square of the UTM grid and 9.8 km beyond it
// east and south) and acquisition, whatever the search's bounds, so that every search over a place
// finds the same items. Its assets are tiled GeoTIFFs (uint16, 10 m and 20 m, one band each) served
// by this server with HTTP range requests: a block is computed when a request first covers it
// (scripts/local/scenes.ts), so a tile of 10,980 x 10,980 pixels costs only the blocks read. The
// functions read them through the same code as Earth Search's COGs (lib/imagery/cog.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type Point, transformer, utmEpsg } from '../../lib/imagery/crs';
import { tiledHeader } from '../../lib/imagery/geotiff-writer';
import { type Grid, ringBounds } from '../../lib/imagery/grid';
import { BANDS, type BandName, COLLECTION } from '../../lib/imagery/stac';
import { TILE_SIDE_M, TILE_SQUARE_M, type TileExtent, tileExtent } from '../../lib/imagery/tiles';
import { acquisitions, acquisitionTime, groundPixelOf, seasonVigour, skyOf, toDn, xTerms, yTerms } from './scenes';

/** Blocks of the local files, in pixels (Earth Search's COGs use 1024: a bench can ask for that). */
const LOCAL_BLOCK = 128;
/** A search over more than this, across, is refused (a tile job's bounds are about a tile). */
const MAX_SIDE_M = 250_000;
const TEN_M_BANDS: readonly BandName[] = ['red', 'green', 'blue', 'nir'];
const bandSize = (band: BandName) => (TEN_M_BANDS.includes(band) ? 10 : 20);

/** A search's bounds in the UTM zone of its centre. */
export async function utmBoundsOf([minLon, minLat, maxLon, maxLat]: number[]) {
  const epsg = utmEpsg((minLon! + maxLon!) / 2, (minLat! + maxLat!) / 2);
  const toUtm = await transformer(4326, epsg);
  const points: Point[] = [];
  for (let i = 0; i <= 8; i++) {
    const t = i / 8;
    const lon = minLon! + t * (maxLon! - minLon!);
    const lat = minLat! + t * (maxLat! - minLat!);
    points.push(toUtm([lon, minLat!]), toUtm([lon, maxLat!]), toUtm([minLon!, lat]), toUtm([maxLon!, lat]));
  }
  const [minX, minY, maxX, maxY] = ringBounds([points]);
  return { epsg, minX, minY, maxX, maxY };
}

/** The tiles of the zone whose extent meets the bounds. */
export function tilesOver(b: Awaited<ReturnType<typeof utmBoundsOf>>): string[] {
  const tiles: string[] = [];
  for (let e = Math.ceil((b.minX - TILE_SIDE_M) / TILE_SQUARE_M); e * TILE_SQUARE_M <= b.maxX; e++) {
    for (let n = Math.ceil(b.minY / TILE_SQUARE_M) - 1; (n + 1) * TILE_SQUARE_M - TILE_SIDE_M <= b.maxY; n++) {
      tiles.push(`${b.epsg}:${e}:${n}`);
    }
  }
  return tiles;
}

const dayOf = (index: number) => new Date(acquisitionTime(index)).toISOString().slice(0, 10).replaceAll('-', '');
const itemId = (t: TileExtent, index: number): string => `S2L_${t.epsg}_${t.e}_${t.n}_${dayOf(index)}_L2A`;
const ITEM_ID = /^S2L_(\d+)_(-?\d+)_(-?\d+)_(\d{8})_L2A$/;

/**
 * The WGS84 box inside the tile: an item's bbox is what ingestion checks a field against (a field
 * inside it is inside the tile), so it must not reach past the tile as the box around it would.
 */
export async function innerLonLatBox(t: TileExtent): Promise<[number, number, number, number]> {
  const toLonLat = await transformer(t.epsg, 4326);
  const west = [0, 0.25, 0.5, 0.75, 1].map((f) => toLonLat([t.x0, t.y0 + f * (t.y1 - t.y0)]));
  const east = [0, 0.25, 0.5, 0.75, 1].map((f) => toLonLat([t.x1, t.y0 + f * (t.y1 - t.y0)]));
  const south = [0, 0.25, 0.5, 0.75, 1].map((f) => toLonLat([t.x0 + f * (t.x1 - t.x0), t.y0]));
  const north = [0, 0.25, 0.5, 0.75, 1].map((f) => toLonLat([t.x0 + f * (t.x1 - t.x0), t.y1]));
  return [
    Math.max(...west.map((p) => p[0])),
    Math.max(...south.map((p) => p[1])),
    Math.min(...east.map((p) => p[0])),
    Math.min(...north.map((p) => p[1])),
  ];
}

/**
 * Band files' layouts made so far, by tile, pixel size and block (every range request of a file
 * asks for its layout).
 */
const files = new Map<string, ReturnType<typeof tiledHeader> & { grid: Grid }>();

/** A band's file of a tile: its grid, header and block layout (the same for every scene of the tile). */
function fileOf(t: TileExtent, band: BandName, block: number) {
  const size = bandSize(band);
  const key = `${t.epsg}:${t.x0}:${t.y1}:${size}:${block}`;
  let file = files.get(key);
  if (!file) {
    const side = Math.round(TILE_SIDE_M / size);
    const grid = { epsg: t.epsg, x0: t.x0, y0: t.y1, pixel: size, width: side, height: side };
    file = { grid, ...tiledHeader({ grid, block, noData: '0' }) };
    files.set(key, file);
  }
  return file;
}

/** The pixels of one block of every band of a size (10 or 20 m): row-major uint16, 0 past the image's edge. */
export function blockPixels(
  t: TileExtent,
  size: number,
  index: number,
  block: number,
  bx: number,
  by: number,
): Partial<Record<BandName, Uint16Array>> {
  const names: readonly BandName[] = size === 10 ? TEN_M_BANDS : ['rededge1', 'scl'];
  const side = Math.round(TILE_SIDE_M / size);
  const south = t.epsg >= 32700;
  const out = Object.fromEntries(names.map((name) => [name, new Uint16Array(block * block)]));
  const season = seasonVigour(acquisitionTime(index), south);
  const xs = Array.from({ length: block }, (_, col) => t.x0 + (bx * block + col + 0.5) * size);
  const columns = xs.map((x) => xTerms(x, index));
  for (let row = 0; row < block; row++) {
    const r = by * block + row;
    if (r >= side) break;
    const y = t.y1 - (r + 0.5) * size;
    const terms = yTerms(y, index);
    for (let col = 0; col < block; col++) {
      const c = bx * block + col;
      if (c >= side) break;
      const pixel = groundPixelOf(xs[col]!, y, columns[col]!, terms, index, season);
      for (const name of names) out[name]![row * block + col] = name === 'scl' ? pixel.scl : toDn(pixel[name]);
    }
  }
  return out;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString() || '{}');
}

function boundsOfSearch(body: Record<string, any>): number[] | undefined {
  if (Array.isArray(body.bbox) && body.bbox.length === 4) return body.bbox.map(Number);
  const coordinates: Point[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value) && typeof value[0] === 'number') coordinates.push(value as Point);
    else if (Array.isArray(value)) value.forEach(walk);
  };
  walk(body.intersects?.coordinates);
  return coordinates.length ? ringBounds([coordinates]) : undefined;
}

export interface CatalogueOptions {
  host: string;
  port: number;
  /**
   * Where the catalogue has scenes, as WGS84 boxes [west, south, east, north]: a search over no box
   * finds none (as the real catalogue finds none over the open sea). Everywhere when absent.
   */
  coverage?: ReadonlyArray<readonly [number, number, number, number]>;
  /** Block side of the files, in pixels (LOCAL_BLOCK by default). */
  block?: number;
  /** Bytes of computed blocks kept (64 MB by default). */
  cacheBytes?: number;
  say?: (message: string) => void;
}

/** What the catalogue was asked: searches, range requests of assets and the bytes they carried (bench/imagery-scale.ts). */
export interface CatalogueStats {
  searches: number;
  rangeRequests: number;
  bytes: number;
  /** Blocks computed (each once while cached), and the milliseconds spent computing them. */
  blocks: number;
  blockMs: number;
}

/** Whether two WGS84 boxes [west, south, east, north] overlap. */
const overlaps = (a: readonly number[], b: readonly number[]) =>
  a[0]! <= b[2]! && b[0]! <= a[2]! && a[1]! <= b[3]! && b[1]! <= a[3]!;

export async function startCatalogue(
  options: CatalogueOptions,
): Promise<{ url: string; server: Server; stats: CatalogueStats }> {
  const block = options.block ?? LOCAL_BLOCK;
  // computed blocks kept, by bytes (a block is asked once per band of its size, about together)
  const cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
  const stats: CatalogueStats = { searches: 0, rangeRequests: 0, bytes: 0, blocks: 0, blockMs: 0 };
  const url = `http://${options.host}:${options.port}/v1`;
  const cache = new Map<string, Partial<Record<BandName, Uint16Array>>>();
  let cached = 0;

  const blockOf = (t: TileExtent, size: number, index: number, bx: number, by: number) => {
    const key = `${t.epsg}:${t.e}:${t.n}:${size}:${index}:${bx}:${by}`;
    let pixels = cache.get(key);
    if (pixels) {
      cache.delete(key);
      cache.set(key, pixels); // most recent last
      return pixels;
    }
    const started = performance.now();
    pixels = blockPixels(t, size, index, block, bx, by);
    stats.blockMs += performance.now() - started;
    stats.blocks++;
    cache.set(key, pixels);
    cached += Object.keys(pixels).length * block * block * 2;
    for (const [oldest, value] of cache) {
      if (cached <= cacheBytes) break;
      cache.delete(oldest);
      cached -= Object.keys(value).length * block * block * 2;
    }
    return pixels;
  };

  /** GET /v1/assets/<item>/<band>.tif with a Range header: the bytes of the header and blocks it covers. */
  const serveAsset = (req: IncomingMessage, res: ServerResponse, id: string, band: BandName) => {
    const match = ITEM_ID.exec(id);
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!match) return void res.writeHead(404).end();
    const t = tileExtent(`${match[1]}:${match[2]}:${match[3]}`);
    const day = match[4]!;
    const index = Math.round(
      (Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6, 8))) +
        14 * 3600_000 -
        acquisitionTime(0)) /
        (acquisitionTime(1) - acquisitionTime(0)),
    );
    const file = fileOf(t, band, block);
    if (!range) {
      res.writeHead(416, { 'content-range': `bytes */${file.size}` });
      return void res.end();
    }
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : file.size - 1, file.size - 1);
    if (start > end) {
      res.writeHead(416, { 'content-range': `bytes */${file.size}` });
      return void res.end();
    }
    const out = Buffer.alloc(end - start + 1);
    const headerLength = file.header.length;
    if (start < headerLength) file.header.copy(out, 0, start, Math.min(end + 1, headerLength));
    const first = Math.max(0, Math.floor((start - headerLength) / file.blockBytes));
    const last = Math.floor((end - headerLength) / file.blockBytes);
    for (let i = first; i <= last && end >= headerLength; i++) {
      const at = headerLength + i * file.blockBytes;
      const pixels = blockOf(t, file.grid.pixel, index, i % file.blocksAcross, Math.floor(i / file.blocksAcross))[
        band
      ]!;
      const bytes = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
      const from = Math.max(start, at);
      const to = Math.min(end + 1, at + file.blockBytes);
      bytes.copy(out, from - start, from - at, to - at);
    }
    stats.rangeRequests++;
    stats.bytes += out.length;
    res.writeHead(206, {
      'content-type': 'image/tiff',
      'content-range': `bytes ${start}-${end}/${file.size}`,
      'content-length': out.length,
      'accept-ranges': 'bytes',
    });
    res.end(out);
  };

  const item = async (tile: string, index: number) => {
    const t = tileExtent(tile);
    const id = itemId(t, index);
    const sky = skyOf(index);
    const assets: Record<string, unknown> = {};
    for (const band of BANDS) {
      assets[band] = {
        href: `${url}/assets/${id}/${band}.tif`,
        type: 'image/tiff; application=geotiff; profile=cloud-optimized',
        roles: band === 'scl' ? ['data'] : ['data', 'reflectance'],
        ...(band === 'scl'
          ? {}
          : { 'raster:bands': [{ nodata: 0, data_type: 'uint16', scale: 0.0001, offset: -0.1 }] }),
      };
    }
    const bbox = await innerLonLatBox(t);
    return {
      type: 'Feature',
      stac_version: '1.0.0',
      id,
      collection: COLLECTION,
      bbox,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [bbox[0], bbox[1]],
            [bbox[2], bbox[1]],
            [bbox[2], bbox[3]],
            [bbox[0], bbox[3]],
            [bbox[0], bbox[1]],
          ],
        ],
      },
      properties: {
        datetime: new Date(acquisitionTime(index)).toISOString(),
        platform: 'sentinel-2b',
        'proj:epsg': t.epsg,
        'grid:code': `UTM-${tile.replaceAll(':', '-')}`,
        'eo:cloud_cover': sky === 'cloudy' ? 50 : sky === 'cirrus' ? 2 : 0,
        's2:processing_baseline': '05.10',
        'earthsearch:boa_offset_applied': false,
      },
      assets,
      links: [],
    };
  };

  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': status === 200 ? 'application/geo+json' : 'application/json' });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      const asset = /^\/v1\/assets\/([^/]+)\/([a-z0-9]+)\.tif$/.exec(path);
      if (req.method === 'GET' && asset && (BANDS as readonly string[]).includes(asset[2]!))
        return serveAsset(req, res, asset[1]!, asset[2] as BandName);
      if (req.method !== 'POST' || path !== '/v1/search')
        return answer(404, {
          code: 'NotFound',
          description: 'POST /v1/search and GET /v1/assets/<item>/<band>.tif only',
        });
      const body = (await readJson(req)) as Record<string, any>;
      const bounds = boundsOfSearch(body);
      const [from, to] = String(body.datetime ?? '')
        .split('/')
        .map((part) => (part && part !== '..' ? Date.parse(part) : NaN));
      if (!bounds || bounds.some((n) => !Number.isFinite(n)) || !Number.isFinite(from) || !Number.isFinite(to)) {
        return answer(400, {
          code: 'BadRequest',
          description: 'bbox or intersects, and a closed datetime interval, are required',
        });
      }
      stats.searches++;
      const covered = !options.coverage || options.coverage.some((box) => overlaps(box, bounds));
      if (!covered || (Array.isArray(body.collections) && !body.collections.includes(COLLECTION)))
        return answer(200, { type: 'FeatureCollection', features: [], links: [] });
      const utm = await utmBoundsOf(bounds);
      if (utm.maxX - utm.minX > MAX_SIDE_M || utm.maxY - utm.minY > MAX_SIDE_M) {
        return answer(400, {
          code: 'BadRequest',
          description: 'the local catalogue answers searches up to 250 km across',
        });
      }
      const indices = acquisitions(from!, to!).reverse();
      const features = [];
      for (const index of indices) for (const tile of tilesOver(utm)) features.push(await item(tile, index));
      answer(200, { type: 'FeatureCollection', features, numberReturned: features.length, links: [] });
    })().catch((error: Error) => {
      options.say?.(`local catalogue: ${error.message}`);
      if (!res.headersSent) answer(500, { code: 'InternalServerError', description: error.message });
    });
  });
  // clients keep connections open between range requests: never close one under them
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { url, server, stats };
}
