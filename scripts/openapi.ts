// npm run openapi: writes docs/openapi.json from the zod route definitions, and the typed client's
// types from it (clients/typescript/schema.d.ts).
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../schemas/index';
import { clientTypes } from './client-types';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(openApiDocument(), null, 2)}\n`);
writeFileSync(new URL('../clients/typescript/schema.d.ts', import.meta.url), await clientTypes());
console.log('docs/openapi.json and clients/typescript/schema.d.ts written');
