// Runs one reader of uploaded files on one file inside a worker thread whose heap is capped
// (tests/unit/helpers/bounded.ts starts it with resourceLimits): it reads a benign file first, so
// that the timing leaves out loading the reader, then the file under test, and reports how long
// that took, what it threw and the heap it left.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';

const { bundle, reader, warm, file } = workerData;
const readers = (await import(bundle)).readers;
const asFile = (f) => ({ filename: f.filename, content: Buffer.from(f.content) });
const outcome = async (f) => {
  try {
    return { ok: true, value: JSON.stringify(await readers[reader](asFile(f))).slice(0, 300) };
  } catch (error) {
    return {
      ok: false,
      error: { name: error?.name, message: String(error?.message), kind: error?.kind, code: error?.code },
    };
  }
};
if (warm) await outcome(warm);
const started = performance.now();
const result = await outcome(file);
const ms = performance.now() - started;
parentPort.postMessage({ ...result, ms, heapMb: getHeapStatistics().total_heap_size / 1024 / 1024 });
