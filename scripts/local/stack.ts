// The whole platform, locally: DynamoDB Local (AWS's emulator, Java), an S3 API (s3rver), an SQS
// API (local-aws-sqs), and the API (scripts/local/api.ts: the functions of every service in a
// local Lambda runtime behind a local API Gateway, their queue workers and schedules). Tables,
// bucket and queues are created from the resources the platform service deploys (serverless.yml,
// read with `osls print`), and the functions get the environment it declares.
// Used by scripts/start.ts (npm start) and tests/setup/stack.ts (npm test).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  type WriteStream,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type GlobalSecondaryIndex,
  ListTablesCommand,
  type StreamViewType,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createSqsServer } from 'local-aws-sqs';
import S3rver from 's3rver';
import { services } from '../../schemas/index';
import { runBackfills } from '../backfill';
import type { LocalApiManifest } from './api';
import { type CatalogueOptions, startCatalogue } from './catalogue.js';
import { INSTALL_DIR, install as installDynamoDbLocal } from './install-dynamodb-local.mjs';
import { startPolicyProxy } from './s3-policy.js';

const require = createRequire(import.meta.url);
const { localResolver, LOCAL_ACCOUNT } = require('../serverless/local-names.cjs') as {
  localResolver: (
    resources: Record<string, CfnResource>,
    options: { region: string; sqsEndpoint?: string },
  ) => {
    resolve: (value: unknown) => unknown;
    nameOf: (id: string) => string;
    ref: (id: string) => string;
    getAtt: (id: string, attribute: string) => string;
  };
  LOCAL_ACCOUNT: string;
};
const { QUEUES } = require('../serverless/iam.cjs') as { QUEUES: Record<string, { logicalId: string }> };

export const REGION = 'us-east-1';
/** s3rver accepts only these credentials; DynamoDB Local and local-aws-sqs accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export class StackError extends Error {}

export interface StackPorts {
  /** The API: the local API Gateway in front of the functions (scripts/local/api.ts). */
  api: number;
  /** Lambda's Invoke API over the same functions (what EventBridge or the AWS CLI would call). */
  lambda: number;
  dynamodb: number;
  s3: number;
  sqs: number;
  /** The local satellite catalogue (a STAC API, docs/imagery.md). */
  stac: number;
}

/** Environment variable that sets each port (documented in docs/configuration.md). */
export const PORT_VARIABLES: Record<keyof StackPorts, string> = {
  api: 'PORT',
  lambda: 'SURCO_LAMBDA_PORT',
  dynamodb: 'SURCO_DYNAMODB_PORT',
  s3: 'SURCO_S3_PORT',
  sqs: 'SURCO_SQS_PORT',
  stac: 'SURCO_STAC_PORT',
};

export interface StackOptions {
  root: string;
  dataDir: string;
  ports: StackPorts;
  host?: string;
  internalKey: string;
  signingSeed: string;
  /** DynamoDB Local keeps no files (tests). */
  inMemory?: boolean;
  /**
   * DynamoDB Local's JVM compiles with its quick compiler only and collects garbage on one thread
   * (tests): a run of minutes spends ~15% less CPU in it than with the JVM's defaults, which
   * compile for a long-running server.
   */
  quickJvm?: boolean;
  /** Folder for the logs of DynamoDB Local and the local API (api.log); when absent the
   *  API's output is inherited and DynamoDB Local's is dropped. */
  logDir?: string;
  functionsLogLevel?: string;
  /** Rebuild the functions when their sources change (`SURCO_WATCH=1 npm start`); off by default. */
  watch?: boolean;
  /** Where the local satellite catalogue has scenes (scripts/local/catalogue.ts); everywhere when absent. */
  catalogueCoverage?: CatalogueOptions['coverage'];
  /** Worker threads of the local Lambda runtime (default SURCO_LOCAL_WORKERS, else 2). */
  runtimeWorkers?: number;
  /**
   * The API's output gets a line per invocation, as Lambda writes to CloudWatch
   * (`REPORT <function> RequestId: <id> Duration: <ms> ms`): the benchmarks read the functions' own
   * times from it. Off by default (npm start's output would get one per request).
   */
  reports?: boolean;
  /**
   * Where the functions are built: .surco/build (`npm start`) by default. The stacks of tests and
   * benchmarks build into a directory of their own, so that they never rewrite (or prune) the
   * modules a running `npm start` of the same checkout serves from.
   */
  buildDir?: string;
  /**
   * Which queue workers poll their queues, by worker name (every one when absent). A worker left
   * out leaves its messages in the queue (the foundation benchmark: bench/foundation.ts).
   */
  workers?: (name: string) => boolean;
  say?: (message: string) => void;
}

export interface RunningStack {
  baseUrl: string;
  /** Where its functions are built (StackOptions.buildDir). */
  buildDir: string;
  internalKey: string;
  ports: StackPorts;
  region: string;
  table: string;
  bucket: string;
  queues: Record<string, string>;
  endpoints: { dynamodb: string; s3: string; sqs: string; stac: string };
  /** Fault injection (bench/faults.ts). */
  faults: StackFaults;
  stop(): Promise<void>;
}

export interface StackFaults {
  /** DynamoDB Local stops answering (connections stay open) until resumed: SIGSTOP/SIGCONT. */
  pauseDynamoDb(): void;
  resumeDynamoDb(): void;
  /** DynamoDB Local exits (connections refused) and starts again on the same data (not with inMemory). */
  stopDynamoDb(): Promise<void>;
  startDynamoDb(): Promise<void>;
  /** The local S3 or SQS refuses every connection (open ones are cut) while down. */
  setDown(service: 's3' | 'sqs', down: boolean): void;
}

interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
}

interface ServiceConfig {
  service: string;
  provider: {
    stage: string;
    region: string;
    timeout?: number;
    memorySize?: number;
    environment?: Record<string, unknown>;
  };
  resources: { Resources: Record<string, CfnResource> };
}

// --- preflight ------------------------------------------------------------------------------

function checkJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new StackError(
      'Java (17 or later) is needed to run DynamoDB Local but was not found on PATH.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless\n' +
        '  macOS:         brew install openjdk@17',
    );
  }
}

const portFree = (port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });

async function checkPorts(ports: StackPorts, host: string): Promise<void> {
  const busy: string[] = [];
  for (const [name, port] of Object.entries(ports) as Array<[keyof StackPorts, number]>) {
    if (!(await portFree(port, host))) busy.push(`port ${port} (${PORT_VARIABLES[name]}) is already in use`);
  }
  if (busy.length) {
    throw new StackError(`${busy.join('\n')}\nSet the variable(s) named above to free ports, e.g. PORT=3100 npm start`);
  }
}

/**
 * Free TCP ports, distinct, for a stack on chosen ports (tests, benchmarks). They are drawn from
 * below the OS's ephemeral range (Linux 32768-60999, macOS 49152-65535), so that no outgoing
 * connection made while the stack starts (its own, to DynamoDB Local or S3) can take one as its
 * source port before the process meant to listen on it binds it.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const chosen = new Set<number>();
  for (let tries = 0; chosen.size < count; tries += 1) {
    if (tries > 2000)
      throw new StackError(`could not find ${count} free ports between ${FREE_PORT_LOW} and ${FREE_PORT_HIGH}`);
    const port = FREE_PORT_LOW + Math.floor(Math.random() * (FREE_PORT_HIGH - FREE_PORT_LOW));
    if (!chosen.has(port) && (await portFree(port, host))) chosen.add(port);
  }
  return [...chosen];
}
const FREE_PORT_LOW = 20_000;
const FREE_PORT_HIGH = 32_000;

/** The stack's six ports, free and distinct (tests, benchmarks). */
export async function freeStackPorts(host = '127.0.0.1'): Promise<StackPorts> {
  const [api, lambda, dynamodb, s3, sqs, stac] = (await freePorts(6, host)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { api, lambda, dynamodb, s3, sqs, stac };
}

// --- serverless.yml, resolved ---------------------------------------------------------------

function slsCommand(root: string): string[] {
  return [join(root, 'node_modules', 'osls', 'bin', 'serverless.js')];
}

function printServiceConfig(root: string): Promise<ServiceConfig> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...slsCommand(root), 'print', '--stage', 'local', '--format', 'json'], {
      cwd: root,
      env: { ...process.env, SLS_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new StackError(`reading serverless.yml failed:\n${err || out}`));
      try {
        resolve(JSON.parse(out.slice(out.indexOf('{'))) as ServiceConfig);
      } catch (error) {
        reject(new StackError(`could not read the output of 'osls print': ${(error as Error).message}`));
      }
    });
  });
}

// --- child processes ------------------------------------------------------------------------

export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The guard that ends a command when the process that started it is gone (scripts/local/guard.cjs). */
const GUARD = join(dirname(fileURLToPath(import.meta.url)), 'guard.cjs');

/**
 * Starts a child process of the stack in a process group of its own. Every child ends when this
 * process does, however it ends: a Node child through its IPC channel (`ipc`: it stops on
 * 'disconnect'), any other command (a JVM) under the guard (`guard`), which ends it.
 */
export function startChild(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; log?: WriteStream | 'ignore'; ipc?: boolean; guard?: boolean },
): Child {
  const output = options.log === 'ignore' ? 'ignore' : options.log ? 'pipe' : 'inherit';
  const ipc = options.ipc || options.guard;
  const child = spawn(options.guard ? process.execPath : command, options.guard ? [GUARD, command, ...args] : args, {
    cwd: options.cwd,
    env: options.env,
    detached: true, // own process group, so that stopping reaches its children too
    // an IPC channel tells the child when this process is gone, however it ended
    stdio: ipc ? ['ignore', output, output, 'ipc'] : ['ignore', output, output],
  });
  if (ipc) child.unref();
  if (options.log && options.log !== 'ignore') {
    child.stdout?.pipe(options.log, { end: false });
    child.stderr?.pipe(options.log, { end: false });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (!signalGroup(child, 'SIGTERM')) return;
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs `stop` once, then exits, on Ctrl-C (SIGINT), SIGTERM (a process manager, a CI timeout,
 * `kill`) or SIGHUP (the terminal closed): every child stops with the stack.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    void stop()
      .catch((error: Error) => console.error(error.message))
      .finally(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
}

/** Sends a signal to a child's process group; false when it is already gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  child: Child | undefined,
  timeoutMs: number,
  logFile?: string,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child && child.process.exitCode !== null) {
      throw new StackError(`${what} exited with code ${child.process.exitCode}${await logTail(logFile)}`);
    }
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new StackError(`${what} did not become ready within ${timeoutMs / 1000} s${await logTail(logFile)}`);
}

/** The end of a child's log, for an error that must be diagnosable where only the error is seen (CI). */
async function logTail(logFile: string | undefined, lines = 40): Promise<string> {
  if (!logFile) return '';
  await new Promise((r) => setTimeout(r, 200)); // let the piped output reach the file
  const text = await readFile(logFile, 'utf8').catch(() => '');
  const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
  return `; the end of ${logFile}:\n${tail}`;
}

// --- provisioning from the CloudFormation resources ------------------------------------------

async function ensureTable(client: DynamoDBClient, properties: Record<string, any>, tableName: string): Promise<void> {
  const gsis = (properties.GlobalSecondaryIndexes ?? []) as GlobalSecondaryIndex[];
  const stream = (properties.StreamSpecification as { StreamViewType?: StreamViewType } | undefined)?.StreamViewType;
  const existing = await client.send(new DescribeTableCommand({ TableName: tableName })).catch(() => undefined);
  if (!existing) {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: properties.AttributeDefinitions as AttributeDefinition[],
        KeySchema: properties.KeySchema,
        BillingMode: 'PAY_PER_REQUEST',
        ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: stream } } : {}),
        ...(gsis.length
          ? {
              GlobalSecondaryIndexes: gsis.map((g) => ({
                IndexName: g.IndexName,
                KeySchema: g.KeySchema,
                Projection: g.Projection,
              })),
            }
          : {}),
      }),
    );
  } else {
    // Data kept across restarts: the stream and the indexes serverless.yml gained since the table was made.
    if (stream && !existing.Table?.StreamSpecification?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          StreamSpecification: { StreamEnabled: true, StreamViewType: stream },
        }),
      );
    }
    const have = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    for (const gsi of gsis.filter((g) => !have.has(g.IndexName))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: properties.AttributeDefinitions as AttributeDefinition[],
          GlobalSecondaryIndexUpdates: [
            { Create: { IndexName: gsi.IndexName, KeySchema: gsi.KeySchema, Projection: gsi.Projection } },
          ],
        }),
      );
    }
  }
  const ttl = properties.TimeToLiveSpecification as { AttributeName: string; Enabled: boolean } | undefined;
  if (ttl?.Enabled) {
    await client
      .send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: ttl }))
      .catch((error: Error) => {
        if (!/already enabled/i.test(error.message)) throw error;
      });
  }
}

const xmlEscape = (value: string) => value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The bucket's CloudFormation CorsConfiguration as the S3 XML that s3rver reads. */
function corsXml(cors: { CorsRules?: Array<Record<string, any>> } | undefined): string | undefined {
  if (!cors?.CorsRules?.length) return undefined;
  const list = (tag: string, values?: string[]) =>
    (values ?? []).map((v) => `<${tag}>${xmlEscape(v)}</${tag}>`).join('');
  const rules = cors.CorsRules.map(
    (rule) =>
      `<CORSRule>${list('AllowedOrigin', rule.AllowedOrigins)}${list('AllowedMethod', rule.AllowedMethods)}` +
      `${list('AllowedHeader', rule.AllowedHeaders)}${list('ExposeHeader', rule.ExposedHeaders)}` +
      `${rule.MaxAge ? `<MaxAgeSeconds>${rule.MaxAge}</MaxAgeSeconds>` : ''}</CORSRule>`,
  ).join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}

// --- the stack ------------------------------------------------------------------------------

/** A build directory of a stack's own in the checkout (`buildDir`), for tests and benchmarks. */
function privateBuildDir(root: string, label: string): string {
  const parent = join(root, '.surco', 'builds');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, `${label}-`));
}

export interface PrivateStack extends RunningStack {
  /** Stops the stack and removes its data and build directories. */
  dispose(): Promise<void>;
}

/**
 * A stack of its own, for tests and benchmarks: its data in a temporary directory, its functions
 * built in a directory of its own in the checkout (never .surco/build, which a running `npm start`
 * of the same checkout serves from). `dispose` stops it and removes both directories; a start that
 * fails removes them before it throws.
 */
export async function startPrivateStack(
  label: string,
  options: Omit<StackOptions, 'dataDir' | 'buildDir'>,
): Promise<PrivateStack> {
  const dataDir = mkdtempSync(join(tmpdir(), `surco-${label}-`));
  const buildDir = privateBuildDir(options.root, label);
  const remove = () => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
  };
  try {
    const stack = await startStack({ ...options, dataDir, buildDir });
    return {
      ...stack,
      async dispose() {
        await stack.stop();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const host = options.host ?? '127.0.0.1';
  const say = options.say ?? (() => undefined);
  const buildDir = options.buildDir ?? join(options.root, '.surco', 'build');
  const { ports } = options;
  checkJava();
  await checkPorts(ports, host);
  installDynamoDbLocal({ quiet: true });

  const endpoints = {
    dynamodb: `http://${host}:${ports.dynamodb}`,
    s3: `http://${host}:${ports.s3}`,
    sqs: `http://${host}:${ports.sqs}`,
  };
  mkdirSync(options.dataDir, { recursive: true });
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const openLog = (name: string) =>
    options.logDir ? createWriteStream(join(options.logDir, name), { flags: 'a' }) : undefined;
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch(() => undefined);
  };

  try {
    // DynamoDB Local and reading serverless.yml run side by side: both take a few seconds.
    const dynamoDir = join(options.dataDir, 'dynamodb');
    mkdirSync(dynamoDir, { recursive: true });
    const javaArgs = [
      ...(options.quickJvm ? ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] : []),
      `-Djava.library.path=${join(INSTALL_DIR, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(INSTALL_DIR, 'DynamoDBLocal.jar'),
      '-sharedDb',
      ...(options.inMemory ? ['-inMemory'] : ['-dbPath', dynamoDir]),
      '-port',
      String(ports.dynamodb),
      '-disableTelemetry',
    ];
    // its working directory receives a metadata file: keep it with the data
    const startJava = () =>
      startChild('java', javaArgs, {
        cwd: dynamoDir,
        env: process.env,
        log: openLog('dynamodb.log') ?? 'ignore',
        guard: true,
      });
    let java = startJava();
    // a paused process group must be resumed to be stopped
    stops.push(() => java.stop());
    stops.push(async () => void signalGroup(java.process, 'SIGCONT'));
    const down = { s3: false, sqs: false };
    const servicePromise = printServiceConfig(options.root);
    const dynamo = new DynamoDBClient({ region: REGION, endpoint: endpoints.dynamodb, credentials: LOCAL_CREDENTIALS });
    stops.push(async () => dynamo.destroy());
    const dynamoReady = () =>
      waitFor(
        'DynamoDB Local',
        async () => Boolean(await dynamo.send(new ListTablesCommand({}))),
        java,
        60_000,
        options.logDir ? join(options.logDir, 'dynamodb.log') : undefined,
      );
    await dynamoReady();
    const service = await servicePromise;

    const resources = service.resources?.Resources ?? {};
    const names = localResolver(resources, { region: REGION, sqsEndpoint: endpoints.sqs });
    const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

    // S3 (buckets and their CORS rules), SQS and DynamoDB tables.
    const s3Dir = join(options.dataDir, 's3');
    mkdirSync(s3Dir, { recursive: true });
    const buckets = ofType('AWS::S3::Bucket').map(([id, r]) => ({
      id,
      name: names.nameOf(id),
      cors: corsXml(r.Properties?.CorsConfiguration),
    }));
    // s3rver listens on an internal port; the policy proxy (which enforces presigned POST
    // policies as S3 does) takes the public one.
    const [s3rverPort] = (await freePorts(1, host)) as [number];
    const s3 = new S3rver({
      port: s3rverPort,
      address: host,
      silent: true,
      directory: s3Dir,
      vhostBuckets: false,
      configureBuckets: buckets.map((b) => ({ name: b.name, configs: b.cors ? [b.cors] : [] })),
    });
    await s3.run();
    stops.push(() => s3.close());
    const proxy = await startPolicyProxy({
      host,
      port: ports.s3,
      upstreamPort: s3rverPort,
      credentials: LOCAL_CREDENTIALS,
    });
    proxy.prependListener('connection', (socket: import('node:net').Socket) => void (down.s3 && socket.destroy()));
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          proxy.closeAllConnections();
          proxy.close(() => resolve());
        }),
    );

    // The satellite catalogue: a STAC API over tiles whose blocks it computes when read (docs/imagery.md).
    const catalogue = await startCatalogue({
      host,
      port: ports.stac,
      coverage: options.catalogueCoverage,
      say,
    });
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          catalogue.server.closeAllConnections();
          catalogue.server.close(() => resolve());
        }),
    );

    const sqsServer = await createSqsServer({
      port: ports.sqs,
      hostname: host,
      region: REGION,
      accountId: LOCAL_ACCOUNT,
      emulateQueueCreationLifecycle: false,
    });
    sqsServer.prependListener('connection', (socket: import('node:net').Socket) => void (down.sqs && socket.destroy()));
    stops.push(() => new Promise<void>((resolve) => sqsServer.close(() => resolve())));
    const sqs = new SQSClient({ region: REGION, endpoint: endpoints.sqs, credentials: LOCAL_CREDENTIALS });
    stops.push(async () => sqs.destroy());
    // Dead-letter queues first: a redrive policy must name an existing queue.
    const queueResources = ofType('AWS::SQS::Queue').sort(
      ([, a], [, b]) => Number(Boolean(a.Properties?.RedrivePolicy)) - Number(Boolean(b.Properties?.RedrivePolicy)),
    );
    const queues: Record<string, string> = {};
    for (const [id, resource] of queueResources) {
      const props = names.resolve(resource.Properties ?? {}) as Record<string, any>;
      const attributes: Record<string, string> = {};
      for (const key of [
        'VisibilityTimeout',
        'MessageRetentionPeriod',
        'DelaySeconds',
        'ReceiveMessageWaitTimeSeconds',
        'MaximumMessageSize',
      ]) {
        if (props[key] !== undefined) attributes[key] = String(props[key]);
      }
      if (props.RedrivePolicy) attributes.RedrivePolicy = JSON.stringify(props.RedrivePolicy);
      const out = await sqs.send(new CreateQueueCommand({ QueueName: props.QueueName, Attributes: attributes }));
      queues[id] = out.QueueUrl!;
    }
    // S3 event notifications to SQS, as the buckets declare them (s3rver emits the events).
    const notifications = ofType('AWS::S3::Bucket').flatMap(([id, resource]) =>
      ((resource.Properties?.NotificationConfiguration?.QueueConfigurations ?? []) as Array<Record<string, any>>).map(
        (config) => ({
          bucket: names.nameOf(id),
          event: String(config.Event).replace(/^s3:/, '').replace(/\*$/, ''),
          prefix:
            ((config.Filter?.S3Key?.Rules ?? []) as Array<{ Name: string; Value: string }>).find(
              (r) => r.Name.toLowerCase() === 'prefix',
            )?.Value ?? '',
          queueUrl: `${endpoints.sqs}/${LOCAL_ACCOUNT}/${String(names.resolve(config.Queue)).split(':').pop()}`,
        }),
      ),
    );
    // S3 delivers event notifications at least once, retrying while the queue is unreachable: so
    // does the local forwarder (every second, for up to ten minutes, until the stack stops).
    let stopping = false;
    stops.push(async () => void (stopping = true));
    const deliverNotification = async (queueUrl: string, body: string) => {
      for (let attempt = 1; attempt <= 600 && !stopping; attempt++) {
        try {
          await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
          return;
        } catch (error) {
          if (attempt === 1) say(`S3 notification to ${queueUrl} failed (${(error as Error).message}); retrying`);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
    };
    s3.on(
      'event',
      (event: { Records: Array<{ eventName: string; s3: { bucket: { name: string }; object: { key: string } } }> }) => {
        for (const record of event.Records) {
          for (const target of notifications) {
            if (record.s3.bucket.name !== target.bucket || !record.eventName.startsWith(target.event)) continue;
            if (!decodeURIComponent(record.s3.object.key).startsWith(target.prefix)) continue;
            void deliverNotification(target.queueUrl, JSON.stringify({ Records: [record] }));
          }
        }
      },
    );

    const tables = ofType('AWS::DynamoDB::Table');
    for (const [id, resource] of tables) {
      const properties = names.resolve(resource.Properties ?? {}) as Record<string, any>;
      await ensureTable(dynamo, properties, names.nameOf(id));
      // index attributes of items kept from before their index was written (an empty table: its markers)
      if ((properties.GlobalSecondaryIndexes ?? []).some((g: { IndexName: string }) => g.IndexName === 'gsi1'))
        await runBackfills(dynamo, names.nameOf(id));
    }

    // The API: the functions of every service in the local Lambda runtime behind the local API
    // Gateway, with the queue workers and schedules (scripts/local/api.ts).
    const baseUrl = `http://${host}:${ports.api}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_REGION: REGION,
      AWS_DEFAULT_REGION: REGION,
      // Lambda runs Node.js 22 in AWS; the SDK's warning about Node 20 concerns local runs only.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      SURCO_STAGE: 'local',
      SURCO_DYNAMODB_ENDPOINT: endpoints.dynamodb,
      SURCO_S3_ENDPOINT: endpoints.s3,
      SURCO_SQS_ENDPOINT: endpoints.sqs,
      SURCO_STAC_URL: catalogue.url,
      // webhooks to loopback receivers (tests, an extension under development); refused in AWS
      SURCO_WEBHOOKS_ALLOW_PRIVATE: 'true',
      SURCO_INTERNAL_KEY: options.internalKey,
      SURCO_SIGNING_SEED: options.signingSeed,
      SURCO_LOG_LEVEL: options.functionsLogLevel ?? process.env.SURCO_LOG_LEVEL ?? 'info',
    };
    // The functions' environment as the platform service declares it (provider.environment), its
    // references resolved to the local resources, and the stack's own settings (SURCO_*) over it.
    const overrides = Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith('SURCO_'))) as Record<
      string,
      string
    >;
    const functionEnv = {
      ...(Object.fromEntries(
        Object.entries(names.resolve(service.provider.environment ?? {}) as Record<string, unknown>).map(([k, v]) => [
          k,
          String(v),
        ]),
      ) as Record<string, string>),
      ...overrides,
    };
    const queueOf = (queue: string) => {
      const arn = names.getAtt(QUEUES[queue]!.logicalId, 'Arn');
      return { queueArn: arn, queueUrl: `${endpoints.sqs}/${LOCAL_ACCOUNT}/${arn.split(':').pop()}` };
    };
    const allWorkers = services.flatMap((s) => s.workers).filter((w) => !options.workers || options.workers(w.name));
    const manifest: LocalApiManifest = {
      root: options.root,
      buildDir,
      host,
      port: ports.api,
      lambdaPort: ports.lambda,
      stage: 'local',
      region: REGION,
      env: functionEnv,
      defaults: {
        timeout: Number(service.provider.timeout ?? 6),
        memorySize: Number(service.provider.memorySize ?? 1024),
      },
      sqs: { endpoint: endpoints.sqs, credentials: LOCAL_CREDENTIALS },
      pollers: allWorkers
        .filter((w) => w.queue)
        .map((w) => ({
          name: w.name,
          batchSize: w.batchSize ?? 1,
          concurrency: w.concurrency ?? 1,
          ...queueOf(w.queue!),
        })),
      schedules: allWorkers.filter((w) => w.schedule).map((w) => ({ name: w.name, rate: w.schedule! })),
      dynamodb: { endpoint: endpoints.dynamodb, credentials: LOCAL_CREDENTIALS },
      streams: allWorkers
        .filter((w) => w.tableStream)
        .map((w) => ({
          name: w.name,
          table: names.nameOf('MainTable'),
          batchSize: w.batchSize ?? 100,
          partitions: [...w.tableStream!.partitions],
          retries: w.tableStream!.retries,
          deadLetterUrl: queueOf(w.tableStream!.deadLetter).queueUrl,
        })),
      runtimeWorkers: options.runtimeWorkers ?? Number(process.env.SURCO_LOCAL_WORKERS || 2),
      watch: Boolean(options.watch),
      reports: Boolean(options.reports),
    };
    mkdirSync(buildDir, { recursive: true });
    const manifestFile = join(buildDir, 'local-api.json');
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    const apiLog = openLog('api.log');
    const api = startChild(
      process.execPath,
      [
        // SURCO_API_CPU_PROF=<dir>: a CPU profile of the API's main thread, written when it stops
        ...(process.env.SURCO_API_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.SURCO_API_CPU_PROF] : []),
        '--import',
        'tsx',
        join(options.root, 'scripts', 'local', 'api.ts'),
        manifestFile,
      ],
      { cwd: options.root, env, log: apiLog, ipc: true },
    );
    stops.push(() => api.stop());
    await waitFor(
      'the API',
      async () => (await fetch(`${baseUrl}/openapi.json`)).ok,
      api,
      180_000,
      options.logDir ? join(options.logDir, 'api.log') : undefined,
    );

    const table = tables[0] ? names.nameOf(tables[0][0]) : '';
    return {
      baseUrl,
      buildDir,
      internalKey: options.internalKey,
      ports,
      region: REGION,
      table,
      bucket: buckets[0]?.name ?? '',
      queues,
      endpoints: { ...endpoints, stac: catalogue.url },
      faults: {
        pauseDynamoDb: () => void signalGroup(java.process, 'SIGSTOP'),
        resumeDynamoDb: () => void signalGroup(java.process, 'SIGCONT'),
        stopDynamoDb: () => java.stop(),
        async startDynamoDb() {
          java = startJava();
          await dynamoReady();
        },
        setDown(service, isDown) {
          down[service] = isDown;
          if (isDown) (service === 's3' ? proxy : sqsServer).closeAllConnections();
        },
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export const dynamoDbLocalInstalled = () => existsSync(join(INSTALL_DIR, 'DynamoDBLocal.jar'));
