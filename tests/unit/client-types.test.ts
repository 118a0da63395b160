// The typed client's types are those of the current routes: regenerated in memory and compared
// with clients/typescript/schema.d.ts (`npm run openapi` writes both it and docs/openapi.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientTypes } from '../../scripts/client-types';

describe('clients/typescript/schema.d.ts', () => {
  it('is generated from the current routes (run npm run openapi when this fails)', async () => {
    const committed = readFileSync(new URL('../../clients/typescript/schema.d.ts', import.meta.url), 'utf8');
    expect(committed === (await clientTypes())).toBe(true);
  });

  it('types binary answers as Blob and every operation of the document', async () => {
    const types = await clientTypes();
    expect(types).toContain('"image/png": Blob');
    expect(types).toContain('"application/zip": Blob');
    const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item)
        .map((op) => op.operationId)
        .filter(Boolean),
    );
    expect(ids.length).toBeGreaterThan(150);
    for (const id of ids) expect(types).toContain(`    ${id}: {`);
    // the webhooks' bodies (OpenAPI webhooks) are typed as well
    const webhooks = Object.keys((document as unknown as { webhooks: Record<string, unknown> }).webhooks);
    expect(webhooks.length).toBe(12);
    for (const name of webhooks) expect(types).toContain(`    "${name}": {`);
  });
});
