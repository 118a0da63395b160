// npm run reset: wipes the local platform's data (tables, files, keys) and logs.
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
for (const folder of ['data', 'logs']) rmSync(join(root, '.surco', folder), { recursive: true, force: true });
rmSync(join(root, '.surco', 'demo.env'), { force: true });
console.log('Local data removed (.surco/data, .surco/logs). The next npm start begins empty.');
