// npm run bench -- imagery
// Imagery on the local stack (docs/imagery.md): how long a new field waits for its scenes, what one
// scene job costs inside the worker (six window reads, band math, storage), and rendering latency
// through the local API for a field of about 100 ha in each format and for 1000 x 1000.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import proj4 from 'proj4';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import { benchStack, benchUser, json, root, round, stats, timed } from './lib';

const RUNS = 40;

export async function run() {
  // a month of scenes (about 6) instead of a year: the figure per scene is what matters
  process.env.SURCO_IMAGERY_DAYS = '30';
  const stack = await benchStack();
  try {
    const logFile = join(root, '.surco', 'bench-logs', 'api.log');
    const logStart = existsSync(logFile) ? readFileSync(logFile, 'utf8').length : 0;
    const { headers } = await benchUser(stack);
    // 0.0105 deg x 0.009 deg at 34 S: about 970 m x 1000 m, 97 ha
    const shape = 'POLYGON((-61.2 -34.1,-61.1895 -34.1,-61.1895 -34.091,-61.2 -34.091,-61.2 -34.1))';
    const [createMs, created] = await timed(() =>
      fetch(`${stack.baseUrl}/api/agregarlote`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ nombre: 'bench', shape, nombrecampo: 'Bench' }),
      }).then(json),
    );
    const fieldId = Number(created.id_lote);
    const datesOf = async () =>
      (await fetch(`${stack.baseUrl}/api/layers/dates/v3?field_id=${fieldId}`, { headers }).then(json)).layers.sentinel2
        .dates as Array<{ date: string; cloudy: boolean }>;
    const start = Date.now();
    let dates = await datesOf();
    while (dates.length < 6 && Date.now() - start < 180_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      dates = await datesOf();
    }
    const firstScenesMs = Date.now() - start;

    // What each job took inside the worker functions, from the local runtime's REPORT lines
    // ("REPORT imageryUrgentWorker RequestId: … Duration: 123.45 ms"): the first look, then one per job.
    const log = readFileSync(logFile, 'utf8').slice(logStart);
    const durations = [
      ...log.matchAll(/REPORT imagery(?:Urgent|Bulk)?Worker RequestId: \S+ Duration: ([\d.]+) ms/g),
    ].map((m) => Number(m[1]));
    const [fieldJobMs, ...sceneJobMs] = durations;
    // the stored rasters of the field: one object per date (docs/imagery.md, cost)
    const s3 = new S3Client({
      region: stack.region,
      endpoint: stack.endpoints.s3,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
    const objects =
      (await s3.send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `imagery/${fieldId}/` }))).Contents ?? [];
    s3.destroy();
    const objectBytes = objects.map((o) => o.Size ?? 0);

    const clear = dates.find((d) => !d.cloudy)!;
    const render = async (query: Record<string, string | number>) => {
      const url = new URL('/api/geoserver/v2', stack.baseUrl);
      for (const [key, value] of Object.entries({
        field_id: fieldId,
        layer_name: 'sentinel2',
        operation: 'ndvi1',
        date: clear.date,
        ...query,
      }))
        url.searchParams.set(key, String(value));
      const response = await fetch(url, { headers });
      const bytes = (await response.arrayBuffer()).byteLength;
      if (!response.ok) throw new Error(`${response.status}`);
      return bytes;
    };
    const measure = async (query: Record<string, string | number>) => {
      const bytes = await render(query); // warm-up (the function's first request)
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push((await timed(() => render(query)))[0]);
      return { ...stats(samples), bytes };
    };
    // the field and its surroundings in Web Mercator
    const [x0, y0] = proj4('EPSG:4326', 'EPSG:3857', [-61.202, -34.102]);
    const [x1, y1] = proj4('EPSG:4326', 'EPSG:3857', [-61.1875, -34.089]);
    const big = { epsg: 3857, bbox: `${x0},${y0},${x1},${y1}`, width: 1000, height: 1000 };
    const results = {
      field: { id: fieldId, createMs: round(createMs) },
      firstSixScenesMs: firstScenesMs,
      workerFieldJobMs: fieldJobMs,
      workerSceneJobMs: stats(sceneJobMs),
      storedObjects: {
        count: objectBytes.length,
        meanBytes: Math.round(objectBytes.reduce((a, b) => a + b, 0) / Math.max(1, objectBytes.length)),
      },
      render: {
        png: await measure({ format: 'image/png' }),
        pngTransparent: await measure({ format: 'image/png', transparent: 'true' }),
        tiff: await measure({ format: 'image/tiff' }),
        encoded: await measure({ format: 'image/encoded' }),
        rgbPng: await measure({ operation: 'rgb1', format: 'image/png' }),
        png1000x1000: await measure({ ...big, format: 'image/png' }),
        tiff1000x1000: await measure({ ...big, format: 'image/tiff' }),
        encoded1000x1000: await measure({ ...big, format: 'image/encoded' }),
        // the first format measured, again: the difference is the function's warm-up, not the format
        pngAgain: await measure({ format: 'image/png' }),
      },
    };
    console.log(JSON.stringify({ suite: 'imagery', ...results }, null, 2));
  } finally {
    await stack.dispose();
  }
}
