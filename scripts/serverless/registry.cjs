'use strict';
// Reads the route registry (schemas/index.ts, TypeScript) from the serverless plugin (CommonJS):
// esbuild bundles it in memory, packages left external, and the result is evaluated once. What
// comes back is plain data: the services, their routes and workers, and the CORS policy.

const path = require('node:path');
const Module = require('node:module');

let cached;

/**
 * @param {string} root the repository root
 * @returns {{
 *   services: Array<{ name: string, summary: string, routes: Route[], workers: Worker[] }>,
 *   cors: { allowHeaders: string[], exposeHeaders: string[], maxAgeSeconds: number },
 * }}
 * @typedef {{ operationId: string, method: string, paths: string[], auth: string, handler: string,
 *   touches: object, lambda: object, stream: boolean }} Route
 * @typedef {{ name: string, handler: string, queue?: string, schedule?: string, batchSize?: number,
 *   maximumBatchingWindow?: number, tableStream?: { partitions: string[], deadLetter: string, retries: number },
 *   touches: object, lambda: object }} Worker
 */
function loadRegistry(root) {
  if (cached && cached.root === root) return cached.registry;
  const entry = path.join(root, 'scripts', 'serverless', 'registry-entry.ts');
  const { outputFiles } = require('esbuild').buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  const file = path.join(root, 'scripts', 'serverless', 'registry-entry.cjs');
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(root);
  mod._compile(outputFiles[0].text, file);
  const { services, cors, fairUseTiers } = mod.exports;
  const pickRoute = (route) => ({
    operationId: route.operationId,
    method: route.method,
    paths: [...route.paths],
    auth: route.auth,
    handler: route.handler,
    touches: route.touches || {},
    lambda: route.lambda || {},
    stream: Boolean(route.stream),
  });
  const pickWorker = (worker) => ({
    name: worker.name,
    handler: worker.handler,
    queue: worker.queue,
    batchSize: worker.batchSize,
    schedule: worker.schedule,
    concurrency: worker.concurrency,
    maximumBatchingWindow: worker.maximumBatchingWindow,
    tableStream: worker.tableStream
      ? { ...worker.tableStream, partitions: [...worker.tableStream.partitions] }
      : undefined,
    touches: worker.touches || {},
    lambda: worker.lambda || {},
  });
  const registry = {
    services: services.map((service) => ({
      name: service.name,
      summary: service.summary,
      routes: service.routes.map(pickRoute),
      workers: service.workers.map(pickWorker),
      ...(service.authorizer
        ? {
            authorizer: {
              name: service.authorizer.name,
              handler: service.authorizer.handler,
              touches: service.authorizer.touches || {},
              lambda: service.authorizer.lambda || {},
            },
          }
        : {}),
    })),
    // the documented tiers (lib/platform/fair-use.ts); the unmetered one has no usage plan
    fairUseTiers: Object.fromEntries(Object.entries(fairUseTiers).filter(([, t]) => Number.isFinite(t.rate))),
    cors: {
      allowHeaders: [...cors.allowHeaders],
      exposeHeaders: [...cors.exposeHeaders],
      maxAgeSeconds: cors.maxAgeSeconds,
    },
  };
  cached = { root, registry };
  return registry;
}

module.exports = { loadRegistry };
