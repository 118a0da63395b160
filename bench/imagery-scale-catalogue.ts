// The local catalogue of bench/imagery-scale.ts in a thread of its own: computing blocks takes CPU
// that must not count in the worker time measured in the bench's thread.
import { parentPort, workerData } from 'node:worker_threads';
import { startCatalogue } from '../scripts/local/catalogue';

const catalogue = await startCatalogue({
  host: '127.0.0.1',
  port: workerData.port,
  block: workerData.block,
  cacheBytes: workerData.cacheBytes,
});
parentPort!.on('message', (message) => {
  if (message === 'stats') parentPort!.postMessage({ stats: { ...catalogue.stats } });
  if (message === 'stop') catalogue.server.close(() => process.exit(0));
});
parentPort!.postMessage({ url: catalogue.url });
