// npm run package: the CloudFormation template of every service (docs/adr/0006-services.md),
// offline, with no credentials, in .surco/package/<service>/, and the resource count of each.
// Services are packaged one after the other: osls and the functions' build work in .serverless/ and
// .surco/package-build/ of the repository, so a packaging or deploy holds the checkout's osls lock
// (withOslsLock) and a second one in the same checkout waits for it.
//   npm run package                          # stage prod
//   npm run package -- --stage staging --param tracing=true
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { services } from '../schemas/index';
import { withCheckoutLock } from './checkout-lock';

/** CloudFormation refuses more than 500; each template keeps room below this for new routes. */
export const RESOURCE_BUDGET = 400;

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The checkout's osls lock: one packaging or deploy at a time (scripts/checkout-lock.ts). */
export const OSLS_LOCK = join(root, '.surco', 'locks', 'osls');

/**
 * Runs `fn` (every osls run of one packaging or deploy) holding the checkout's osls lock: osls and
 * the functions' build work in the repository's .serverless/ and .surco/package-build/, which two packagings at
 * once (`npm run package` while `npm test` packages, the cold-start benchmark) overwrote.
 */
export function withOslsLock<T>(fn: () => Promise<T> | T, lock = OSLS_LOCK): Promise<T> {
  return withCheckoutLock(lock, fn, {
    onWait: (holder) =>
      console.error(
        `Waiting for another packaging or deploy in this checkout to end (${holder ? `pid ${holder}` : 'starting'}; ${lock})...`,
      ),
  });
}

/**
 * The environment of a packaging that must not depend on the machine's AWS settings or home
 * (the tests' packagings): `base` without its AWS_ variables, HOME in `home`.
 */
export const isolatedPackagingEnv = (home: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(base).filter(([key]) => !key.startsWith('AWS_'))),
  HOME: home,
});

/** The serverless configuration that deploys a service. */
export const configFile = (service: string) =>
  service === 'platform' ? 'serverless.yml' : `serverless.${service}.yml`;

export interface PackagedService {
  service: string;
  config: string;
  dir: string;
  template: {
    Resources: Record<string, { Type: string; Properties: any; DependsOn?: unknown }>;
    Outputs?: Record<string, any>;
  };
  resources: number;
}

/**
 * Runs `fn` with a temporary directory of its own for osls, removed afterwards: whatever osls or a
 * plugin leaves in the temporary directory (an esbuild plugin once left 100 MB of zips' folders a
 * run) is not left in /tmp for good.
 */
export async function withScratchTmp<T>(
  env: NodeJS.ProcessEnv,
  fn: (env: NodeJS.ProcessEnv) => T | Promise<T>,
): Promise<T> {
  const scratch = mkdtempSync(join(tmpdir(), 'surco-osls-'));
  try {
    return await fn({ ...env, TMPDIR: scratch, TMP: scratch, TEMP: scratch });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return withScratchTmp(env, (scratchEnv) => runIn(args, scratchEnv));
}

function runIn(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/osls/bin/serverless.js'), ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`osls ${args.join(' ')} failed:\n${output}`))));
  });
}

/** Packages every service into `outDir/<service>` (outside .serverless/, which osls works in). */
export async function packageServices(
  outDir: string,
  options: { stage?: string; params?: string[]; env?: NodeJS.ProcessEnv; lock?: string } = {},
): Promise<PackagedService[]> {
  const stage = options.stage ?? 'prod';
  const env = {
    ...(options.env ?? process.env),
    SLS_TELEMETRY_DISABLED: '1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  return withOslsLock(async () => {
    const packaged: PackagedService[] = [];
    for (const { name } of services) {
      const dir = join(outDir, name);
      const args = [
        'package',
        '--stage',
        stage,
        '--config',
        configFile(name),
        '--package',
        dir,
        ...(options.params ?? []).flatMap((p) => ['--param', p]),
      ];
      await run(args, env);
      const template = JSON.parse(readFileSync(join(dir, 'cloudformation-template-update-stack.json'), 'utf8'));
      packaged.push({
        service: name,
        config: configFile(name),
        dir,
        template,
        resources: Object.keys(template.Resources).length,
      });
    }
    return packaged;
  }, options.lock);
}

async function main() {
  const { values } = parseArgs({
    options: { stage: { type: 'string', default: 'prod' }, param: { type: 'string', multiple: true } },
  });
  const started = Date.now();
  const packaged = await packageServices(join(root, '.surco', 'package'), {
    stage: values.stage,
    params: values.param,
  });
  console.log(
    `Packaged ${packaged.length} services for stage ${values.stage} in ${((Date.now() - started) / 1000).toFixed(1)} s:`,
  );
  for (const p of packaged) {
    const over = p.resources > RESOURCE_BUDGET ? `  OVER THE BUDGET OF ${RESOURCE_BUDGET}` : '';
    console.log(
      `  ${p.service.padEnd(10)} ${String(p.resources).padStart(3)} resources  ${p.config} -> .surco/package/${p.service}/${over}`,
    );
  }
  if (packaged.some((p) => p.resources > RESOURCE_BUDGET)) process.exit(1);
  console.log(`Deploy in this order: ${packaged.map((p) => p.service).join(', ')} (docs/deploy.md)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
