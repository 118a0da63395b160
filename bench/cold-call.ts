// npm run bench -- cold-call: what a caller waits for when a request lands on a cold function, the
// function's import and its first request, through the production bundles (npm run package) against
// the local stack. `cold-start` times imports alone; a module loaded on first use (a kit, ADR 0008)
// leaves the import and joins the first request that needs it, and `preload` starts it while that
// request waits on its first reads: this suite measures both parts together.
//
// Each sample is a fresh Node process that imports a function's bundle and calls its handler once
// with an API Gateway event, against the stack's DynamoDB Local and S3 (locally each read is a short
// hop: in AWS the first reads of a container also open TLS connections, so a kit's import overlaps
// more of them there than here). COLD_CALL_BEFORE=<package dir> (laid out as .surco/package,
// <service>/<function>.zip) pairs each sample with the same function of that package, the two in
// turn first: the medians of after/before per pair, of the import and of the import with the
// request, are the figures to compare; GET /api/getfields, which loads no kit, is the control.
// COLD_CALL_PAIRS (21) sets the pairs; COLD_CALL_ONLY=<regexp> the cases.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proj4 from 'proj4';
import { v1 as uuidV1 } from 'uuid';
import { packageServices } from '../scripts/package';
import { unpack } from './cold-start';
import {
  type BenchStack,
  benchStack,
  benchUser,
  createBenchField,
  functionEnv,
  gatewayEvent,
  json,
  median,
  root,
  STREAMING_RUNTIME,
  square,
} from './lib';

const PAIRS = Number(process.env.COLD_CALL_PAIRS ?? 21);
const ONLY = process.env.COLD_CALL_ONLY ? new RegExp(process.env.COLD_CALL_ONLY) : undefined;
const SPOTS = 200;

interface Case {
  name: string;
  /** The function (its operationId). */
  fn: string;
  method?: 'GET' | 'POST';
  path: string;
  query: Record<string, string | number>;
}

interface Sample {
  importMs: number;
  callMs: number;
  status: number;
}

/**
 * A fresh process: imports the bundle, calls its handler with the event, prints the two times and the
 * status. Spawned without blocking: the local S3 and SQS servers run in this process and must answer it.
 */
async function coldCall(file: string, event: unknown, env: NodeJS.ProcessEnv): Promise<Sample> {
  const script = [
    STREAMING_RUNTIME,
    'const t0 = performance.now();',
    `const m = await import(${JSON.stringify(`file://${file}`)});`,
    'const t1 = performance.now();',
    `const r = await m.handler(${JSON.stringify(event)}, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 30000 });`,
    'const t2 = performance.now();',
    'console.log(JSON.stringify({ importMs: t1 - t0, callMs: t2 - t0, status: r.statusCode, body: r.statusCode === 200 ? undefined : String(r.body).slice(0, 300) }));',
    // the clients' kept-alive sockets would hold the process open
    'process.exit(0);',
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`calling ${file} failed: ${stderr.slice(0, 500)}`);
  const sample = JSON.parse(stdout.trim().split('\n').pop()!) as Sample & { body?: string };
  if (sample.status !== 200)
    throw new Error(`${file} answered ${sample.status} in ${Math.round(sample.callMs)} ms: ${sample.body}`);
  return sample;
}

/** A user with a field of ~100 ha and its imagery (a month of scenes), and SPOTS spots with five variables each. */
async function seed(stack: BenchStack) {
  const { headers } = await benchUser(stack);
  const fieldId = await createBenchField(
    stack,
    headers,
    'bench',
    'POLYGON((-61.2 -34.1,-61.1895 -34.1,-61.1895 -34.091,-61.2 -34.091,-61.2 -34.1))',
  );
  const postSpot = (spot: Record<string, unknown>) =>
    fetch(`${stack.baseUrl}/spots/spot`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ field_id: fieldId, ...spot }),
    }).then(json);
  for (let i = 0; i < SPOTS; i++) {
    const point = `POINT(${-61.1995 + (i % 20) * 0.0005} ${-34.0995 + Math.floor(i / 20) * 0.0008})`;
    const variables = ['pH', 'P', 'K', 'MO', 'N'].map((name, k) => ({
      name,
      unit_id: k + 1,
      value: Math.round((5 + i * 0.37 + k) * 100) / 100,
    }));
    await postSpot({
      shape: i % 10 ? point : square(-61.199 + (i % 20) * 0.0004, -34.099, 0.0003),
      name: `S${i}`,
      data: { variables },
    });
  }
  // a spot whose text declares an image (for the presigned upload; texts and images have v1 uuids)
  const image = uuidV1();
  await postSpot({
    shape: 'POINT(-61.195 -34.095)',
    texts: [
      {
        uuid: uuidV1(),
        text: 'foto',
        timestamp_usr: '2026-11-20T10:00:00Z',
        imgs: [{ coordinate: 'POINT(-61.195 -34.095)', uuid: image }],
      },
    ],
  });
  const start = Date.now();
  let dates: Array<{ date: string; cloudy: boolean }> = [];
  while (!dates.some((d) => !d.cloudy) && Date.now() - start < 180_000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    dates =
      (await fetch(`${stack.baseUrl}/api/layers/dates/v3?field_id=${fieldId}`, { headers }).then(json)).layers.sentinel2
        ?.dates ?? [];
  }
  const clear = dates.find((d) => !d.cloudy);
  if (!clear) throw new Error('no clear scene for the bench field within 3 minutes');
  return { headers, fieldId, date: clear.date, image };
}

function casesOf(fieldId: number, date: string, image: string): Case[] {
  const layer = { field_id: fieldId, layer_name: 'sentinel2', operation: 'ndvi1', date };
  // a map client's tile over the field: Web Mercator, transparent, 256 x 256
  const [x0, y0] = proj4('EPSG:4326', 'EPSG:3857', [-61.202, -34.102]);
  const [x1, y1] = proj4('EPSG:4326', 'EPSG:3857', [-61.1875, -34.089]);
  return [
    { name: 'GET /api/getfields (control: no kit)', fn: 'getFields', path: '/api/getfields', query: {} },
    {
      name: 'GET /api/geoserver/v2, png (default: the scene grid, no mask)',
      fn: 'renderLayer',
      path: '/api/geoserver/v2',
      query: { ...layer, format: 'image/png' },
    },
    {
      name: 'GET /api/geoserver/v2, a map tile (3857, transparent, 256 x 256)',
      fn: 'renderLayer',
      path: '/api/geoserver/v2',
      query: {
        ...layer,
        format: 'image/png',
        transparent: 'true',
        epsg: 3857,
        bbox: `${x0},${y0},${x1},${y1}`,
        width: 256,
        height: 256,
      },
    },
    {
      name: `GET /api/spots/sheet, xlsx (default; ${SPOTS} spots)`,
      fn: 'exportSpotSheet',
      path: '/api/spots/sheet',
      query: { format: 'xlsx' },
    },
    {
      name: `GET /api/spots/sheet, csv (${SPOTS} spots)`,
      fn: 'exportSpotSheet',
      path: '/api/spots/sheet',
      query: { format: 'csv' },
    },
    {
      name: 'GET /api/fields/v2/shape/limits (geometry and limits kits)',
      fn: 'getSeasonShapeLimits',
      path: '/api/fields/v2/shape/limits',
      query: { field_id: fieldId },
    },
    {
      name: "POST /spots/msgs/imgs/upload (a spot image's presigned POST: the S3 kit)",
      fn: 'presignSpotImage',
      method: 'POST',
      path: '/spots/msgs/imgs/upload',
      query: { uuid: image },
    },
  ];
}

export async function run(): Promise<void> {
  const beforeDir = process.env.COLD_CALL_BEFORE;
  console.error('packaging every service for production ...');
  const packaged = await packageServices(join(root, '.surco', 'bench', 'package'));
  process.env.SURCO_IMAGERY_DAYS = '30';
  const stack = await benchStack();
  const work = mkdtempSync(join(tmpdir(), 'surco-cold-call-'));
  try {
    const { headers, fieldId, date, image } = await seed(stack);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...functionEnv(stack),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      SURCO_STAGE: 'bench',
    };
    const lines = [
      `| request | ${beforeDir ? 'before: import ms | before: import + request ms | ' : ''}import ms | import + request ms |${beforeDir ? ' import after / before (pairs) | import + request after / before (pairs) |' : ''}`,
      `|---|${beforeDir ? '---|---|' : ''}---|---|${beforeDir ? '---|---|' : ''}`,
    ];
    for (const c of casesOf(fieldId, date, image)) {
      if (ONLY && !ONLY.test(c.name)) continue;
      const event = gatewayEvent(c.method ?? 'GET', c.path, headers, c.query);
      // the service that holds the function: its directory in either package
      const service = packaged.find((s) => existsSync(join(s.dir, `${c.fn}.zip`)));
      const now = service && unpack(join(service.dir, `${c.fn}.zip`), join(work, 'after', c.fn));
      if (!service || !now) throw new Error(`no package of ${c.fn}`);
      const before = beforeDir
        ? unpack(join(beforeDir, service.service, `${c.fn}.zip`), join(work, 'before', c.fn))
        : undefined;
      if (beforeDir && !before) throw new Error(`no package of ${c.fn} in ${beforeDir}/${service.service}`);
      const samples: Array<{ after: Sample; before?: Sample }> = [];
      for (let i = 0; i < PAIRS; i++) {
        // which of the two runs first alternates: a process started right after another is not timed alike
        const first = before && i % 2 ? await coldCall(now.file, event, env) : undefined;
        const b = before ? await coldCall(before.file, event, env) : undefined;
        samples.push({ after: first ?? (await coldCall(now.file, event, env)), ...(b ? { before: b } : {}) });
      }
      const of = (pick: (s: { after: Sample; before?: Sample }) => number) => median(samples.map(pick)).toFixed(1);
      const ratio = (key: keyof Sample) => median(samples.map((s) => s.after[key] / s.before![key])).toFixed(3);
      const row = `| ${c.name} | ${before ? `${of((s) => s.before!.importMs)} | ${of((s) => s.before!.callMs)} | ` : ''}${of((s) => s.after.importMs)} | ${of((s) => s.after.callMs)} |${before ? ` ${ratio('importMs')} | ${ratio('callMs')} |` : ''}`;
      console.error(row);
      lines.push(row);
    }
    console.log(lines.join('\n'));
  } finally {
    rmSync(work, { recursive: true, force: true });
    await stack.dispose();
  }
}
