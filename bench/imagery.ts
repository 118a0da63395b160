// npm run bench -- imagery
// Imagery on the local stack (docs/imagery.md): how long a new field waits for its scenes, what one
// scene's ingestion costs in process (search, six window reads, band math, storage), and rendering
// latency through the local API for a field of about 100 ha in each format and for 1000 x 1000.
import proj4 from 'proj4';
import { benchStack, internalApi, json, round, stats, timed } from './lib';

const RUNS = 40;

export async function run() {
  // a month of scenes (about 6) instead of a year: the figure per scene is what matters
  process.env.SURCO_IMAGERY_DAYS = '30';
  const stack = await benchStack();
  try {
    const internal = internalApi(stack);
    const user = (await internal('/internal/users', { user_name: 'bench' })).data;
    const token = (await internal('/internal/tokens', { user_id: user.id, extension_id: 'bench', claims: ['*'] })).data.access_token;
    const headers = { authorization: `Bearer ${token}` };
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
    const datesOf = async () => (await fetch(`${stack.baseUrl}/api/layers/dates/v3?field_id=${fieldId}`, { headers }).then(json)).layers.sentinel2.dates as Array<{ date: string; cloudy: boolean }>;
    const start = Date.now();
    let dates = await datesOf();
    while (dates.length < 6 && Date.now() - start < 180_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      dates = await datesOf();
    }
    const firstScenesMs = Date.now() - start;

    // One scene's ingestion in this process, against the same stack (storage included).
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: stack.region,
      SURCO_TABLE: stack.table,
      SURCO_BUCKET: stack.bucket,
      SURCO_EVENTS_QUEUE_URL: Object.values(stack.queues)[0],
      SURCO_DYNAMODB_ENDPOINT: stack.endpoints.dynamodb,
      SURCO_S3_ENDPOINT: stack.endpoints.s3,
      SURCO_SQS_ENDPOINT: stack.endpoints.sqs,
      SURCO_STAC_URL: stack.endpoints.stac,
      SURCO_LOG_LEVEL: 'warn',
    });
    const { dynamoImageryRepository, earthSearchSource } = await import('../lib/imagery/repository');
    const { imageryIngestion } = await import('../lib/imagery/ingest');
    const { shapeVersion } = await import('../lib/imagery/service');
    const shapeNow = await dynamoImageryRepository.fieldShape(fieldId);
    const scenes = await earthSearchSource.search(shapeNow!.bounds, new Date(Date.now() - 30 * 86_400_000), new Date());
    // the repository as it is, but with no date stored yet (so every run cuts the scene again)
    const ingestion = imageryIngestion({ repository: { ...dynamoImageryRepository, dates: async () => [] }, source: earthSearchSource, settings: () => ({ periodDays: 30 }) });
    const sceneMs: number[] = [];
    for (let i = 0; i < 12; i++) {
      const scene = scenes[i % scenes.length]!;
      sceneMs.push((await timed(() => ingestion.ingestScene({ field_id: fieldId, shape_version: shapeVersion(shapeNow!.polygon), scene })))[0]);
    }

    const clear = dates.find((d) => !d.cloudy)!;
    const render = async (query: Record<string, string | number>) => {
      const url = new URL('/api/geoserver/v2', stack.baseUrl);
      for (const [key, value] of Object.entries({ field_id: fieldId, layer_name: 'sentinel2', operation: 'ndvi1', date: clear.date, ...query })) url.searchParams.set(key, String(value));
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
      oneSceneIngestionMs: stats(sceneMs),
      render: {
        png: await measure({ format: 'image/png' }),
        pngTransparent: await measure({ format: 'image/png', transparent: 'true' }),
        tiff: await measure({ format: 'image/tiff' }),
        encoded: await measure({ format: 'image/encoded' }),
        rgbPng: await measure({ operation: 'rgb1', format: 'image/png' }),
        png1000x1000: await measure({ ...big, format: 'image/png' }),
        tiff1000x1000: await measure({ ...big, format: 'image/tiff' }),
        encoded1000x1000: await measure({ ...big, format: 'image/encoded' }),
      },
    };
    console.log(JSON.stringify({ suite: 'imagery', ...results }, null, 2));
  } finally {
    await stack.dispose();
  }
}
