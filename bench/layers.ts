// npm run bench -- layers
// Layers from files (docs/imagery.md, "Layers from files"): ordinary kriging of 1,000 points onto a
// 200 x 200 grid in this process (variogram fit and estimates), and a 20,000-point yield file end to
// end through the local stack: POST /files, POST /raster (kriging), the layer listed by dates v3,
// then rendered as a PNG. The worker's own time comes from the local runtime's REPORT lines.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { estimatorFor, interpolateGrid, type Sample } from '../lib/imagery/kriging';
import { seededRandom as random } from '../tests/helpers/random';
import { benchStack, benchUser, createBenchField, json, root, round, stats, timed } from './lib';

const RUNS = 5;

function kriging() {
  const next = random(1);
  const points: Sample[] = Array.from({ length: 1000 }, () => {
    const x = next() * 2000;
    const y = next() * 2000;
    return { x, y, value: 8000 + 2000 * Math.sin(x / 300) + 1500 * Math.cos(y / 250) + next() * 300 };
  });
  const grid = { x0: 0, y0: 2000, pixel: 10, width: 200, height: 200 };
  const fit: number[] = [];
  const predict: number[] = [];
  let model = '';
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const estimator = estimatorFor(points, 'kriging');
    const t1 = performance.now();
    interpolateGrid(estimator.estimate, grid);
    predict.push(performance.now() - t1);
    fit.push(t1 - t0);
    model = estimator.variogram?.model ?? estimator.method;
  }
  const total = fit.map((f, i) => f + predict[i]!);
  return {
    points: 1000,
    cells: 200 * 200,
    model,
    variogramFitMs: stats(fit),
    estimatesMs: stats(predict),
    totalMs: stats(total),
  };
}

async function endToEnd() {
  const stack = await benchStack();
  try {
    const logFile = join(root, '.surco', 'bench-logs', 'api.log');
    const logStart = existsSync(logFile) ? readFileSync(logFile, 'utf8').length : 0;
    const { headers } = await benchUser(stack, 'bench-layers');
    // about 97 ha (as the imagery bench)
    const [lon, lat] = [-61.3, -34.2];
    const shape = `POLYGON((${lon} ${lat},${lon + 0.0105} ${lat},${lon + 0.0105} ${lat + 0.009},${lon} ${lat + 0.009},${lon} ${lat}))`;
    const fieldId = await createBenchField(stack, headers, 'bench-layers', shape);
    // a combine's passes: a point a second along rows 10 m apart, 20,000 points
    const next = random(2);
    const rows = ['Latitude,Longitude,Yield,Moisture,Speed'];
    for (let i = 0; i < 20_000; i++) {
      const pass = Math.floor(i / 200);
      const along = (i % 200) / 200;
      const x = lon + 0.0003 + (pass % 2 ? 1 - along : along) * 0.0099;
      const y = lat + 0.0003 + pass * 0.000085;
      const yieldKg = 9000 + 2500 * Math.sin((x - lon) * 700) * Math.cos((y - lat) * 500) + next() * 400;
      rows.push(
        `${y.toFixed(7)},${x.toFixed(7)},${yieldKg.toFixed(1)},${(14 + next()).toFixed(2)},${(6 + next()).toFixed(1)}`,
      );
    }
    const archive = new JSZip();
    archive.file('cosecha.csv', rows.join('\n'));
    const zip = await archive.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const date = '2026-04-15 00:00:00';
    const start = performance.now();
    const form = new FormData();
    form.set('file', new Blob([zip]), 'cosecha.zip');
    const [uploadMs, uploaded] = await timed(() =>
      fetch(`${stack.baseUrl}/files`, { method: 'POST', headers, body: form }).then(json),
    );
    const [rasterMs] = await timed(() =>
      fetch(`${stack.baseUrl}/raster`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          redis_id: uploaded.data.redis_id,
          date,
          lote_id: fieldId,
          data: { Yield: { id_layer: 5, mean: null, min: 1000, max: 20000, meta: {}, interpolation_type: 'kriging' } },
        }),
      }).then(json),
    );
    let listed: { date: string } | undefined;
    while (!listed && performance.now() - start < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const response = await fetch(`${stack.baseUrl}/api/layers/dates/v3?field_id=${fieldId}`, { headers }).then(json);
      listed = response.layers?.rinde?.dates?.[0];
    }
    const listedMs = performance.now() - start;
    const [pngMs, png] = await timed(async () => {
      const response = await fetch(
        `${stack.baseUrl}/api/geoserver/v2?field_id=${fieldId}&layer_name=rinde&operation=rinde&date=2026-04-15T00:00:00Z&transparent=true`,
        { headers },
      );
      if (!response.ok) throw new Error(`${response.status}`);
      return (await response.arrayBuffer()).byteLength;
    });
    const log = readFileSync(logFile, 'utf8').slice(logStart);
    const workerMs = [
      ...log.matchAll(/REPORT imagery(?:Urgent|Bulk)?Worker RequestId: \S+ Duration: ([\d.]+) ms/g),
    ].map((m) => Number(m[1]));
    return {
      points: 20_000,
      zipBytes: zip.length,
      fieldHa: 97,
      uploadMs: round(uploadMs),
      rasterMs: round(rasterMs),
      workerJobsMs: workerMs,
      layerListedMs: round(listedMs),
      pngMs: round(pngMs),
      pngBytes: png,
      endToEndMs: round(performance.now() - start),
    };
  } finally {
    await stack.dispose();
  }
}

export async function run() {
  const results = { kriging: kriging(), yieldFile: await endToEnd() };
  console.log(JSON.stringify({ suite: 'layers', ...results }, null, 2));
}
