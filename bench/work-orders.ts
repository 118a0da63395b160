// npm run bench -- work-orders
// A work order at its documented maximum (50 labours of 40 inputs, the longest texts: names of 200
// characters, observations of 1,000, 20 recommendations of 500, notes of 5,000) rendered as a PDF by
// the function's own writer (lib/work-orders/pdf.ts), bundled as the function is (its fonts as
// bytes) and run in a plain Node process, as Lambda runs it. The download function's timeout is
// 20 s; the figure to keep is at most half of it on a busy machine.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { deployBuildOptions } from '../scripts/esbuild-options';

const RUNS = 5;
const root = join(import.meta.dirname, '..');

const entry = `
import { workOrderPdf } from ${JSON.stringify(join(root, 'lib/work-orders/pdf.ts'))};
import { DOCUMENT_TEXTS } from ${JSON.stringify(join(root, 'lib/work-orders/document.ts'))};
const long = (n, words) => (words + ' ').repeat(Math.ceil(n / (words.length + 1))).slice(0, n);
const labours = Array.from({ length: 50 }, (_, i) => ({
  type: 'Aplicación', status: 'Planificada', date: '27/11/2026', farm: long(200, 'Estancia San José'),
  field: long(200, 'Lote Ñandú ' + i), crop: 'Soja', surfaceHa: 98.76,
  observations: long(1000, 'Aplicar con viento calmo, revisar picos y caudal antes de empezar'),
  details: [{ label: 'Tipo de aplicación', value: 'Terrestre' }],
  inputs: Array.from({ length: 40 }, (_, j) => ({ name: long(200, j + ' Glifosato 66,2% sal potásica'), dose: 1.25 + j, unit: 'L/ha', total: 123.456 * j, totalUnit: 'L' })),
}));
const doc = {
  locale: 'es', texts: DOCUMENT_TEXTS.es, title: long(200, 'Orden de trabajo: aplicación de presiembra'), date: '27/11/2026', campaign: '2026',
  farms: ['Estancia San José'], fields: labours.map((l) => l.field), labours,
  recommendations: Array.from({ length: 20 }, (_, i) => ({ label: 'Temperatura', value: long(500, 'Recomendación ' + i) })),
  notes: long(5000, 'Notas para el operario: ñandú, acentos, 25 °C, 15 km/h'),
};
const times = [];
let bytes = 0;
for (let i = 0; i < ${RUNS}; i++) {
  const started = performance.now();
  bytes = (await workOrderPdf(doc)).length;
  times.push(performance.now() - started);
}
console.log(JSON.stringify({ times, bytes, heapMb: process.memoryUsage().rss / 1048576 }));
`;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'surco-bench-wo-'));
  try {
    writeFileSync(join(dir, 'entry.ts'), entry);
    // the functions' own build (deploy/esbuild.yml: fonts as bytes, the same aliases and plugins)
    await build({ ...deployBuildOptions(), entryPoints: [join(dir, 'entry.ts')], outdir: dir });
    const child = spawnSync(process.execPath, [join(dir, 'entry.mjs')], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    const { times, bytes, heapMb } = JSON.parse(child.stdout) as { times: number[]; bytes: number; heapMb: number };
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          suite: 'work-orders',
          pdfAtMaximum: {
            runs: RUNS,
            firstMs: Math.round(times[0]!),
            p50Ms: Math.round(sorted[Math.floor(RUNS / 2)]!),
            maxMs: Math.round(sorted[RUNS - 1]!),
            bytes,
            rssMb: Math.round(heapMb),
            timeoutMs: 20_000,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
