// The local stack's satellite catalogue (docs/imagery.md, "Local scenes"): a STAC API answering
// POST /v1/search as Earth Search does for the collection sentinel-2-l2a, over scenes it generates
// into the local S3 bucket (scenes/<item>/<band>.tif, uint16 GeoTIFFs in the UTM zone, 10 m and
// 20 m bands, one DEFLATE strip) the first time a search covers a place and date. Assets are presigned S3 URLs: the
// functions read them with range requests, as they read Earth Search's public COGs.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type Point, transformer, utmEpsg } from '../../lib/imagery/crs';
import { writeGeoTiff } from '../../lib/imagery/geotiff-writer';
import { ringBounds } from '../../lib/imagery/grid';
import { BANDS, type BandName, COLLECTION } from '../../lib/imagery/stac';
import { acquisitions, acquisitionTime, groundPixel, skyOf, toDn } from './scenes';

/** Scene footprints snap outward to this grid (metres), with the field's margin inside. */
const CELL_M = 640;
const MARGIN_M = 60;
const MAX_SIDE_M = 30_000;
const TEN_M_BANDS: readonly BandName[] = ['red', 'green', 'blue', 'nir'];

interface Footprint {
  epsg: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

async function footprintOf([minLon, minLat, maxLon, maxLat]: number[]): Promise<Footprint> {
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
  return {
    epsg,
    x0: Math.floor((minX - MARGIN_M) / CELL_M) * CELL_M,
    y0: Math.floor((minY - MARGIN_M) / CELL_M) * CELL_M,
    x1: Math.ceil((maxX + MARGIN_M) / CELL_M) * CELL_M,
    y1: Math.ceil((maxY + MARGIN_M) / CELL_M) * CELL_M,
  };
}

const itemId = (f: Footprint, index: number): string => {
  const day = new Date(acquisitionTime(index)).toISOString().slice(0, 10).replaceAll('-', '');
  return `S2L_${f.epsg}_${f.x0 / CELL_M}_${f.y0 / CELL_M}_${f.x1 / CELL_M}_${f.y1 / CELL_M}_${day}_L2A`;
};

/** The footprint's WGS84 bounding box. */
async function lonLatBounds(f: Footprint): Promise<[number, number, number, number]> {
  const toLonLat = await transformer(f.epsg, 4326);
  return ringBounds([[toLonLat([f.x0, f.y0]), toLonLat([f.x0, f.y1]), toLonLat([f.x1, f.y0]), toLonLat([f.x1, f.y1])]]);
}

/** The six bands of a scene as GeoTIFFs (uint16, NODATA 0). */
export function sceneBands(f: Footprint, index: number): Record<BandName, Buffer> {
  const south = f.epsg >= 32700;
  const out = {} as Record<BandName, Buffer>;
  for (const size of [10, 20]) {
    const width = Math.round((f.x1 - f.x0) / size);
    const height = Math.round((f.y1 - f.y0) / size);
    const names: readonly BandName[] = size === 10 ? TEN_M_BANDS : ['rededge1', 'scl'];
    const data = Object.fromEntries(names.map((name) => [name, new Uint16Array(width * height)])) as Record<
      BandName,
      Uint16Array
    >;
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const pixel = groundPixel(f.x0 + (col + 0.5) * size, f.y1 - (row + 0.5) * size, index, south);
        for (const name of names) data[name][row * width + col] = name === 'scl' ? pixel.scl : toDn(pixel[name]);
      }
    }
    const grid = { epsg: f.epsg, x0: f.x0, y0: f.y1, pixel: size, width, height };
    for (const name of names) out[name] = writeGeoTiff({ grid, data: data[name], samples: 1, noData: '0' });
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
  s3: S3Client;
  bucket: string;
  /**
   * Where the catalogue has scenes, as WGS84 boxes [west, south, east, north]: a search over no box
   * finds none (as the real catalogue finds none over the open sea). Everywhere when absent.
   */
  coverage?: ReadonlyArray<readonly [number, number, number, number]>;
  say?: (message: string) => void;
}

/** Whether two WGS84 boxes [west, south, east, north] overlap. */
const overlaps = (a: readonly number[], b: readonly number[]) =>
  a[0]! <= b[2]! && b[0]! <= a[2]! && a[1]! <= b[3]! && b[1]! <= a[3]!;

export async function startCatalogue(options: CatalogueOptions): Promise<{ url: string; server: Server }> {
  const { s3, bucket } = options;
  const ready = new Map<string, Promise<void>>();
  const objectKey = (id: string, band: BandName) => `scenes/${id}/${band}.tif`;

  /** Generates a scene's bands once (scl last: its presence means the scene is complete). */
  const ensureScene = (f: Footprint, index: number): Promise<void> => {
    const id = itemId(f, index);
    let pending = ready.get(id);
    if (!pending) {
      pending = (async () => {
        const exists = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(id, 'scl') })).then(
          () => true,
          () => false,
        );
        if (exists) return;
        const bands = sceneBands(f, index);
        for (const band of BANDS) {
          await s3.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: objectKey(id, band),
              Body: bands[band],
              ContentType: 'image/tiff',
            }),
          );
        }
      })();
      pending.catch(() => ready.delete(id));
      ready.set(id, pending);
    }
    return pending;
  };

  const item = async (f: Footprint, index: number) => {
    const id = itemId(f, index);
    const sky = skyOf(index);
    const assets: Record<string, unknown> = {};
    for (const band of BANDS) {
      const href = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: objectKey(id, band) }), {
        expiresIn: 7 * 24 * 3600,
      });
      assets[band] = {
        href,
        type: 'image/tiff; application=geotiff',
        roles: band === 'scl' ? ['data'] : ['data', 'reflectance'],
        ...(band === 'scl'
          ? {}
          : { 'raster:bands': [{ nodata: 0, data_type: 'uint16', scale: 0.0001, offset: -0.1 }] }),
      };
    }
    const bbox = await lonLatBounds(f);
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
        'proj:epsg': f.epsg,
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
      const url = new URL(req.url ?? '/', 'http://local');
      if (req.method !== 'POST' || url.pathname !== '/v1/search')
        return answer(404, { code: 'NotFound', description: 'POST /v1/search only' });
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
      const covered = !options.coverage || options.coverage.some((box) => overlaps(box, bounds));
      if (!covered || (Array.isArray(body.collections) && !body.collections.includes(COLLECTION)))
        return answer(200, { type: 'FeatureCollection', features: [], links: [] });
      const footprint = await footprintOf(bounds);
      if (footprint.x1 - footprint.x0 > MAX_SIDE_M || footprint.y1 - footprint.y0 > MAX_SIDE_M) {
        return answer(400, { code: 'BadRequest', description: 'the local catalogue covers areas up to 30 km across' });
      }
      const indices = acquisitions(from!, to!).reverse();
      // one scene after the other, letting the S3 and SQS servers of this process breathe in between
      for (const index of indices) {
        await ensureScene(footprint, index);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const features = await Promise.all(indices.map((index) => item(footprint, index)));
      answer(200, { type: 'FeatureCollection', features, numberReturned: features.length, links: [] });
    })().catch((error: Error) => {
      options.say?.(`local catalogue: ${error.message}`);
      if (!res.headersSent) answer(500, { code: 'InternalServerError', description: error.message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { url: `http://${options.host}:${options.port}/v1`, server };
}
