// npm start: the whole platform locally on its embedded default (README, "Run it locally").
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken, seedDemo } from './local/seed';
import { PORT_VARIABLES, StackError, type StackPorts, startStack, stopOnSignals } from './local/stack';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_PORTS: StackPorts = {
  api: 3000,
  lambda: 3002,
  dynamodb: 8000,
  s3: 4569,
  sqs: 9324,
  stac: 3006,
};

function portsFromEnv(): StackPorts {
  const ports = { ...DEFAULT_PORTS };
  for (const [name, variable] of Object.entries(PORT_VARIABLES) as Array<[keyof StackPorts, string]>) {
    const value = process.env[variable];
    if (value === undefined || value === '') continue;
    const port = Number(value);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new StackError(`${variable}=${value} is not a port number`);
    }
    ports[name] = port;
  }
  return ports;
}

/** Keys generated once and kept with the data, so that tokens survive restarts. */
function localSecrets(dataDir: string): { internalKey: string; signingSeed: string } {
  const file = join(dataDir, 'secrets.json');
  let saved: { internalKey?: string; signingSeed?: string } = {};
  if (existsSync(file)) saved = JSON.parse(readFileSync(file, 'utf8'));
  const secrets = {
    internalKey: process.env.SURCO_INTERNAL_KEY || saved.internalKey || randomBytes(24).toString('base64url'),
    signingSeed: saved.signingSeed || randomBytes(32).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({ ...saved, ...secrets, internalKey: saved.internalKey ?? secrets.internalKey }, null, 2),
    { mode: 0o600 },
  );
  return secrets;
}

async function main() {
  const dataDir = join(root, '.surco', 'data');
  const ports = portsFromEnv();
  const { internalKey, signingSeed } = localSecrets(dataDir);
  console.log('Starting Surco locally (DynamoDB Local, S3, SQS, API, workers)...');
  const started = Date.now();
  const stack = await startStack({
    root,
    dataDir,
    ports,
    host: process.env.SURCO_HOST ?? '127.0.0.1',
    internalKey,
    signingSeed,
    logDir: join(root, '.surco', 'logs'),
    watch: process.env.SURCO_WATCH === '1',
    say: (message) => console.log(message),
  });
  // Ctrl-C, SIGTERM and SIGHUP stop everything; if this process is killed outright, its children
  // end by themselves (scripts/local/stack.ts, startChild)
  stopOnSignals(async () => {
    console.log('\nStopping...');
    await stack.stop();
  });

  const demo = await seedDemo(stack);
  const { access_token, expires_at } = await mintToken(stack, demo.admin.id);
  writeFileSync(
    join(root, '.surco', 'demo.env'),
    `BASE_URL=${stack.baseUrl}\nINTERNAL_KEY=${internalKey}\nTOKEN=${access_token}\n`,
    { mode: 0o600 },
  );
  console.log(`
Surco is running (stage local), ready in ${((Date.now() - started) / 1000).toFixed(1)} s

  API           ${stack.baseUrl}
  OpenAPI       ${stack.baseUrl}/openapi.json
  reference     ${stack.baseUrl}/docs   (the API reference: "try it" with a token)
  console       ${stack.baseUrl}/console   (fields, imagery, NDVI, spots, labours: with a token)
  internal key  ${internalKey}   (header x-internal-key)
  demo user     ${demo.admin.user_name} (user ${demo.admin.id}, farm ${demo.farmId}, fields ${demo.fieldIds.join(', ')})
  token         valid until ${expires_at}, all claims, extension demo-extension 1.0.0:

${access_token}

The console as the demo user (the token rides in the URL's fragment, which a browser never sends; the
console's link to the reference takes it along in the same tab):
  ${stack.baseUrl}/console#token=${access_token}

Try it:
  source .surco/demo.env
  curl -s "$BASE_URL/api/getfields" -H "Authorization: Bearer $TOKEN"

Local services: DynamoDB Local :${ports.dynamodb}, S3 (s3rver, presigned POST policies enforced) :${ports.s3}, SQS (local-aws-sqs) :${ports.sqs},
  satellite scenes (a STAC catalogue, docs/imagery.md) :${ports.stac}
Data is kept in .surco/data (npm run reset wipes it); logs in .surco/logs. Ctrl-C stops everything.
`);
}

main().catch((error) => {
  if (error instanceof StackError) {
    console.error(`\nCannot start Surco: ${error.message}`);
  } else {
    console.error('\nCannot start Surco:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
