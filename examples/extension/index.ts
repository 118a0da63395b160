// npx tsx examples/extension/index.ts: the example extension against `npm start` (README.md here).
import { existsSync, readFileSync } from 'node:fs';
import { runExample } from './extension';

const secrets = new URL('../../.surco/data/secrets.json', import.meta.url);
const internalKey =
  process.env.SURCO_INTERNAL_KEY ??
  (existsSync(secrets)
    ? (JSON.parse(readFileSync(secrets, 'utf8')) as { internalKey: string }).internalKey
    : undefined);
if (!internalKey) {
  console.error('no internal key: start the platform with npm start first, or set SURCO_INTERNAL_KEY');
  process.exit(2);
}
await runExample({ baseUrl: process.env.SURCO_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`, internalKey });
