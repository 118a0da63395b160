// npm run deploy / npm run remove: every service, in order (docs/deploy.md). Deploys the platform
// first (the others import its exports) and removes it last. Needs AWS credentials.
//   npm run deploy -- --stage prod --region eu-west-1 [--param name=value ...]
//   npm run remove -- --stage prod --region eu-west-1
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { services } from '../schemas/index';
import { runBackfills } from './backfill';
import { configFile, withOslsLock, withScratchTmp } from './package';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { stage: { type: 'string' }, region: { type: 'string' }, param: { type: 'string', multiple: true } },
});
const command = positionals[0];
if ((command !== 'deploy' && command !== 'remove') || !values.stage) {
  console.error('usage: npm run deploy|remove -- --stage <stage> [--region <region>] [--param name=value ...]');
  process.exit(2);
}
const order = services.map((s) => s.name);
if (command === 'remove') order.reverse();
// the whole run holds the checkout's osls lock (a packaging or another deploy waits for it)
const failed = await withOslsLock(async () => {
  for (const service of order) {
    const args = [
      join(root, 'node_modules/osls/bin/serverless.js'),
      command,
      '--config',
      configFile(service),
      '--stage',
      values.stage!,
      ...(values.region ? ['--region', values.region] : []),
      ...(values.param ?? []).flatMap((p) => ['--param', p]),
    ];
    console.log(`\n== ${command} ${service} (${configFile(service)})`);
    const result = await withScratchTmp(process.env, (env) =>
      spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env }),
    );
    if (result.status !== 0) return { service, status: result.status ?? 1 };
  }
  return undefined;
});
if (failed) {
  console.error(`${command} of ${failed.service} failed; the services after it were not touched`);
  process.exit(failed.status);
}
if (command === 'deploy') {
  // the functions now write the index attributes: add them to the items written before (scripts/backfill.ts)
  const table = `surco-${values.stage}-main`;
  const client = new DynamoDBClient(values.region ? { region: values.region } : {});
  console.log(`\n== backfills of ${table}:`, await runBackfills(client, table));
  client.destroy();
}
