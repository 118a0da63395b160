import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

const { jsonTextModule } = createRequire(import.meta.url)('./deploy/esbuild-plugins.cjs') as {
  jsonTextModule: (file: string) => Promise<string>;
};

/** `import text from './x.json?text'` as the functions' build has it (deploy/esbuild-plugins.cjs, json-parse). */
const jsonText: Plugin = {
  name: 'json-text',
  enforce: 'pre',
  // an id that does not end in .json, which Vite's own JSON plugin would take as JSON to parse
  resolveId: (source, importer) =>
    /\.json\?text$/.test(source) && importer
      ? `\0${resolve(dirname(importer), source.replace(/\?text$/, ''))}.text.js`
      : null,
  load: (id) =>
    id.startsWith('\0') && id.endsWith('.json.text.js') ? jsonTextModule(id.slice(1, -'.text.js'.length)) : null,
};

const { writtenPageModule } = createRequire(import.meta.url)('./deploy/pages.cjs') as {
  writtenPageModule: (root: string, page: string) => Promise<string>;
};

/** `import files from 'surco-pages:<page>'` (the web pages' handlers) as the functions' build has it (deploy/pages.cjs). */
const pages: Plugin = {
  name: 'surco-pages',
  enforce: 'pre',
  resolveId: (source) => (source.startsWith('surco-pages:') ? `\0${source}` : null),
  load: (id) =>
    id.startsWith('\0surco-pages:') ? writtenPageModule(import.meta.dirname, id.slice('\0surco-pages:'.length)) : null,
};

const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', SURCO_LOG_LEVEL: 'silent' };

/**
 * Files that load the stack heavily (docs/security.md; concurrent writers, tests/contention.test.ts;
 * a backfill of 2,900 jobs, tests/imagery-lanes.test.ts, which empties the backfill lane after it).
 */
const HEAVY = [
  'tests/cross-tenant.test.ts',
  'tests/fuzz.test.ts',
  'tests/contention.test.ts',
  'tests/imagery-lanes.test.ts',
];
/** The pages in a real headless Chromium (docs/console.md): npx vitest run --project browser. */
const BROWSER = ['tests/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    // Four projects: `unit` runs in seconds without anything else (npx vitest run --project unit);
    // `stack`, then `stack-heavy`, then `browser` talk to one local stack (DynamoDB Local, S3, SQS,
    // the local API) started once for the run.
    projects: [
      {
        plugins: [jsonText, pages],
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          // the unit files share a worker's modules instead of importing them again each (a fifth
          // of the project's CPU); what a test stubs in the environment is undone after it
          isolate: false,
          unstubEnvs: true,
          testTimeout: 20_000,
          env,
        },
      },
      {
        plugins: [jsonText, pages],
        test: {
          name: 'stack',
          sequence: { groupOrder: 1 },
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/unit/**', ...HEAVY, ...BROWSER],
          globalSetup: ['tests/setup/stack.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          // Black-box tests write under their own users and ids, so files run in parallel; most of
          // their time is spent waiting on the stack (queues, retries, streams), so more files run
          // at once than there are cores.
          fileParallelism: true,
          maxWorkers: 3,
          env,
        },
      },
      {
        // The matrix and the fuzz send thousands of requests each, the lanes test queues thousands of
        // jobs: they run after the other files, one at a time, against the same stack, so that their
        // load does not time out the others.
        plugins: [jsonText, pages],
        test: {
          name: 'stack-heavy',
          sequence: { groupOrder: 2 },
          include: HEAVY,
          globalSetup: ['tests/setup/stack.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          env,
        },
      },
      {
        // A browser (and WebGL on the CPU) beside the stack: after the other files, one at a time.
        plugins: [jsonText, pages],
        test: {
          name: 'browser',
          sequence: { groupOrder: 3 },
          include: BROWSER,
          globalSetup: ['tests/setup/stack.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          env,
        },
      },
    ],
  },
});
