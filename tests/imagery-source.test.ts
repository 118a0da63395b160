// The production scene source (docs/imagery.md): the STAC search as Earth Search answers it (POST,
// pages through `next` links) and the window read of a real Cloud-Optimized GeoTIFF (tiled, DEFLATE,
// written by GDAL's COG driver, compiled to WebAssembly: tests/helpers/gdal.ts) over HTTP range requests, against a loopback server. No stack.
import { createServer, type Server } from 'node:http';
import { writeArrayBuffer } from 'geotiff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBand, readBandOnGrids } from '../lib/imagery/cog';
import { searchScenes } from '../lib/imagery/stac';
import { gdalTranslate } from './helpers/gdal';

const SIDE = 2048; // 20.48 km at 10 m: a fifth of a Sentinel-2 tile
const X0 = 600_000;
const Y1 = 6_250_000;
const value = (col: number, row: number) => 1 + ((col * 7 + row * 13) % 5000);

let server: Server;
let base = '';
let cog: Buffer = Buffer.alloc(0);
const searches: any[] = [];
const ranges: string[] = [];
let bytesServed = 0;

beforeAll(async () => {
  const data = new Uint16Array(SIDE * SIDE);
  for (let row = 0; row < SIDE; row++) for (let col = 0; col < SIDE; col++) data[row * SIDE + col] = value(col, row);
  const plain = Buffer.from(
    writeArrayBuffer(data, {
      width: SIDE,
      height: SIDE,
      ModelPixelScale: [10, 10, 0],
      ModelTiepoint: [0, 0, 0, X0, Y1, 0],
      GTModelTypeGeoKey: 1,
      GTRasterTypeGeoKey: 1,
      ProjectedCSTypeGeoKey: 32720,
      BitsPerSample: [16],
      SampleFormat: [1],
    }),
  );
  cog = await gdalTranslate(plain, 'tif', ['-q', '-of', 'COG', '-co', 'COMPRESS=DEFLATE', '-co', 'BLOCKSIZE=256']);
  server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/v1/search')) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString());
      searches.push(body);
      const page = body.next === 'page2' ? 2 : 1;
      const item = (day: string) => ({
        type: 'Feature',
        stac_version: '1.0.0',
        id: `S2B_20HNH_${day.replaceAll('-', '')}_0_L2A`,
        collection: 'sentinel-2-l2a',
        bbox: [-62, -35, -61, -34],
        geometry: null,
        properties: {
          datetime: `${day}T14:03:11.024000Z`,
          'proj:code': 'EPSG:32720',
          'eo:cloud_cover': 3.2,
          'earthsearch:boa_offset_applied': true,
        },
        assets: Object.fromEntries(
          ['red', 'green', 'blue', 'nir', 'rededge1', 'scl'].map((band) => [
            band,
            {
              href: `${base}/cog.tif`,
              type: 'image/tiff; application=geotiff; profile=cloud-optimized',
              'raster:bands': [{ scale: 0.0001, offset: -0.1 }],
            },
          ]),
        ),
      });
      res.writeHead(200, { 'content-type': 'application/geo+json' });
      res.end(
        JSON.stringify({
          type: 'FeatureCollection',
          features: [item(page === 1 ? '2026-11-10' : '2026-11-05')],
          links:
            page === 1 ? [{ rel: 'next', href: `${base}/v1/search`, method: 'POST', body: { next: 'page2' } }] : [],
        }),
      );
      return;
    }
    if (req.url === '/cog.tif') {
      const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (!match) {
        res.writeHead(200, { 'content-length': cog.length });
        bytesServed += cog.length;
        return res.end(cog);
      }
      ranges.push(req.headers.range!);
      const start = Number(match[1]);
      const end = Math.min(Number(match[2]), cog.length - 1);
      bytesServed += end - start + 1;
      res.writeHead(206, {
        'content-range': `bytes ${start}-${end}/${cog.length}`,
        'content-length': end - start + 1,
        'accept-ranges': 'bytes',
      });
      return res.end(cog.subarray(start, end + 1));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  // the server is not there when the set-up failed: the failure to see is the set-up's
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the production scene source', () => {
  it('searches sentinel-2-l2a over the bounds and period, following next links', async () => {
    const scenes = await searchScenes({
      stacUrl: `${base}/v1`,
      bounds: [-61.6, -34.6, -61.59, -34.59],
      from: new Date('2026-10-21T00:00:00Z'),
      to: new Date('2026-11-20T00:00:00Z'),
    });
    expect(searches[0]).toMatchObject({
      collections: ['sentinel-2-l2a'],
      bbox: [-61.6, -34.6, -61.59, -34.59],
      datetime: '2026-10-21T00:00:00.000Z/2026-11-20T00:00:00.000Z',
    });
    expect(searches[1]).toMatchObject({ next: 'page2', collections: ['sentinel-2-l2a'] });
    expect(scenes.map((s) => [s.day, s.datetime, s.epsg])).toEqual([
      ['2026-11-10', '2026-11-10T14:03:11Z', 32720],
      ['2026-11-05', '2026-11-05T14:03:11Z', 32720],
    ]);
    // the item says the offset is applied: reflectance is DN x 0.0001
    expect(scenes[0]!.radiometry).toEqual({ scale: 0.0001, offset: 0 });
  });

  it('reads only the window over a field from a tiled COG, with range requests', async () => {
    // a 94 x 66 grid at 10 m, 5 km into the image
    const grid = { epsg: 32720, x0: X0 + 5_000, y0: Y1 - 5_000, pixel: 10, width: 94, height: 66 };
    const values = await readBand(`${base}/cog.tif`, grid, { epsg: 32720 });
    expect(values.length).toBe(94 * 66);
    for (const [col, row] of [
      [0, 0],
      [93, 0],
      [50, 33],
      [93, 65],
    ] as const) {
      expect(values[row * 94 + col]).toBe(value(500 + col, 500 + row));
    }
    expect(ranges.length).toBeGreaterThan(0);
    // the header, then the few 256 x 256 tiles under the window (one request each)
    expect(ranges.length).toBeLessThanOrEqual(16);
    expect(bytesServed).toBeLessThan(cog.length / 4);
  });

  it('resamples a 20 m band to the 10 m grid by nearest neighbour', async () => {
    // the same COG read as if the grid were at 5 m: every source pixel serves 2 x 2 grid pixels
    const grid = { epsg: 32720, x0: X0 + 5_000, y0: Y1 - 5_000, pixel: 5, width: 4, height: 4 };
    const values = await readBand(`${base}/cog.tif`, grid, { epsg: 32720 });
    expect([...values.slice(0, 4)]).toEqual([value(500, 500), value(500, 500), value(501, 500), value(501, 500)]);
  });

  it('reads each block once for several fields: two fields over the same blocks cost what one does', async () => {
    // two 94 x 66 grids 300 m apart: the first across four 256 x 256 blocks, the second inside one of them
    const a = { epsg: 32720, x0: X0 + 5_000, y0: Y1 - 5_000, pixel: 10, width: 94, height: 66 };
    const b = { ...a, x0: a.x0 + 300, y0: a.y0 - 200 };
    const take = async (read: () => Promise<unknown>) => {
      ranges.length = 0;
      bytesServed = 0;
      await read();
      return { requests: ranges.length, bytes: bytesServed, ranges: [...ranges] };
    };
    const alone = await take(() => readBand(`${base}/cog.tif`, a, { epsg: 32720 }));
    let both: Uint16Array[] = [];
    const shared = await take(async () => {
      both = await readBandOnGrids(`${base}/cog.tif`, [a, b], { epsg: 32720 });
    });
    // no byte range asked twice, and no more requests or bytes than the one field alone
    expect(new Set(shared.ranges).size).toBe(shared.ranges.length);
    expect(shared.requests).toBeLessThanOrEqual(alone.requests);
    expect(shared.bytes).toBeLessThanOrEqual(alone.bytes);
    // each field's pixels are those it reads alone
    expect([...both[0]!]).toEqual([...(await readBand(`${base}/cog.tif`, a, { epsg: 32720 }))]);
    expect([...both[1]!]).toEqual([...(await readBand(`${base}/cog.tif`, b, { epsg: 32720 }))]);
    expect(both[1]![0]).toBe(value(530, 520));
  });
});
