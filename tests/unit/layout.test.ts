// The layout new areas copy (README, "Where things are"): an area's rules live in a service module
// that takes its repositories as parameters, so nothing in it reaches DynamoDB, S3, SQS or HTTP
// itself; the repository module holds those and builds the instance the handlers call.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const lib = join(__dirname, '..', '..', 'lib');
/** Modules of an area that are its storage, queue or worker side (the rest are its rules). */
const ADAPTERS = new Set([
  'repository.ts',
  'instance.ts',
  // an area's part of a field's deletion, run by the events worker (lib/workers/field-deleted.ts)
  'field-deleted.ts',
  // an area's error dialect: its codes as the HTTP layer renders them (lib/http/dialects.ts)
  'dialect.ts',
  'spots/files.ts',
  'spots/sheets.ts',
  'spots/sheet-export.ts',
  'sensors/timeseries.ts',
  'sensors/bulk.ts',
  'season-shapes/reprocess.ts',
  'storage/access.ts',
  'imagery/layers-repository.ts',
  'imagery/lanes-repository.ts',
  'webhooks/emit.ts',
]);
/** The areas built as a service: every module of theirs but the adapters holds rules only. */
const areas = readdirSync(lib, { withFileTypes: true })
  .filter(
    (entry) =>
      entry.isDirectory() && (readdirSync(join(lib, entry.name)).includes('service.ts') || entry.name === 'storage'),
  )
  .map((entry) => entry.name)
  .filter((area) => area !== 'fields'); // fields also holds the platform's readers used by the gate (repository.ts, list.ts, ...)
const services = [
  ...areas.flatMap((area) =>
    readdirSync(join(lib, area))
      .filter((file) => file.endsWith('.ts') && !ADAPTERS.has(file) && !ADAPTERS.has(`${area}/${file}`))
      .map((file) => `${area}/${file}`),
  ),
  'fields/service.ts',
  'fields/rules.ts',
];
/** Imports a service may not have (type-only imports are fine: they vanish). */
const FORBIDDEN = [
  /from '\.\.\/db\/table'/,
  /from '@aws-sdk\//,
  /from '\.\.\/aws\//,
  /from '\.\.\/events\/publish'/,
  /from '\.\.\/http\//,
  /from '\.\/repository'/,
];

describe('services take their repositories as parameters', () => {
  it('finds the services', () => {
    expect(areas.length).toBeGreaterThanOrEqual(15);
    expect(services.length).toBeGreaterThanOrEqual(60);
  });

  it.each(services)('%s imports no storage, queue or HTTP module', (file) => {
    const imports = readFileSync(join(lib, file), 'utf8')
      .split('\n')
      .filter((line) => /^import (?!type )/.test(line));
    expect(imports.filter((line) => FORBIDDEN.some((pattern) => pattern.test(line)))).toEqual([]);
  });
});
