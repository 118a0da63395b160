// npm run openapi: writes docs/openapi.json from the zod route definitions.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../schemas/index';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('docs/openapi.json written');
