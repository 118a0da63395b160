// The deployable templates (`npm run package`, offline, no credentials) and the local stack that
// mirrors them (docs/adr/0006-services.md, docs/deploy.md): one template per service, each within
// the resource budget; every route served by exactly one function in exactly one service, with a
// role that grants exactly what the route declares; the shared REST API without duplicate path
// parts; encryption, dead-letter queue, alarms, access logs, throttling, tracing switch, CORS.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FEED_PARTITIONS } from '../lib/changes/model';
import type { RouteDef, Touches } from '../lib/http/route';
import { DEFAULT_TIERS } from '../lib/platform/fair-use';
import { allRoutes, openApiDocument, services } from '../schemas/index';
import { deployBuildOptions } from '../scripts/esbuild-options';
import { isolatedPackagingEnv, type PackagedService, packageServices, RESOURCE_BUDGET } from '../scripts/package';
import { stack } from './helpers/api';

type Resource = { Type: string; Properties: any; DependsOn?: unknown };
type Template = { Resources: Record<string, Resource>; Outputs?: Record<string, any> };

const root = join(import.meta.dirname, '..');
let outDir: string;
let packaged: PackagedService[];
let traced: PackagedService[];

const env = () => isolatedPackagingEnv(outDir);

/** The packaging a whole run started at its beginning (tests/setup/prepackage.ts), once it has ended. */
async function prepackaged(dir: string): Promise<PackagedService[]> {
  for (;;) {
    if (existsSync(join(dir, 'result.json'))) return JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    if (existsSync(join(dir, 'error.txt'))) throw new Error(readFileSync(join(dir, 'error.txt'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  // a whole run packaged at its start, beside the other tests; a run of this file packages here
  const started = inject('prepackaged');
  outDir = started ?? mkdtempSync(join(tmpdir(), 'surco-package-'));
  packaged = started ? await prepackaged(started) : await packageServices(join(outDir, 'default'), { env: env() });
}, 600_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const ofType = (template: Template, type: string) =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type);
const platform = () => packaged.find((p) => p.service === 'platform')!.template as Template;
const roleStatements = (template: Template, fn: Resource): any[] =>
  template.Resources[fn.Properties.Role['Fn::GetAtt'][0]]!.Properties.Policies[0].PolicyDocument.Statement;
const functionId = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}LambdaFunction`;
/** Routes declared as a copy of another route of their module (schemas/storage.ts: `...kvStorageRoute`) hold it. */
const BUILT_FROM: Record<string, string> = { keyValueStorageScopes: 'keyValueStorage' };
/** The functions that serve a web page, their files beside their code (docs/console.md). */
const PAGE_FUNCTIONS = ['apiReference', 'webConsole'];
/** The answers that grow with the account and that the contract does not page: each streamed (docs/deploy.md, "Large answers"). */
const GROWING_LISTS = [
  'getFields',
  'getFarmTags',
  'listRotations',
  'getFarmMetadata',
  'listSamplings',
  'listSamplingAnalyses',
  'listPaddocks',
  'listHerds',
  'getHerdHistory',
  'searchSpotTags',
  // page_size -1 answers every spot or message
  'listSpots',
  'getSpots',
  'getSpotsWithMessages',
  'listSpotMessages',
  // a file of every spot and its variables
  'exportSpotSheet',
  // its GET lists every file of the resources asked, each with a download URL
  'fileStorage',
  // its GET with no keys answers every key of the resources asked
  'keyValueStorage',
  'keyValueStorageScopes',
  'listVariableGroups',
  'listMaps',
  'listInputs',
  'listWorkOrders',
  'layerDates',
  'fieldNdvi',
];
const functionName = (id: string) => id.replace(/LambdaFunction$/, '').replace(/^./, (c) => c.toLowerCase());

/** `method /path` of every API method of a template; parents imported from the platform resolve to their path. */
function methodsOf(template: Template): Array<{ key: string; functionId?: string }> {
  const exported = sharedPaths();
  return ofType(template, 'AWS::ApiGateway::Method').map(([, m]) => {
    const path = pathOf(template, m.Properties.ResourceId, exported);
    const uri = JSON.stringify(m.Properties.Integration?.Uri ?? '');
    return {
      key: `${m.Properties.HttpMethod.toLowerCase()} ${path}`,
      functionId: /"(\w+LambdaFunction)"/.exec(uri)?.[1],
    };
  });
}

/** The API paths the platform exports, by export name. */
function sharedPaths(): Map<string, string> {
  const exported = new Map<string, string>();
  for (const [name, output] of Object.entries(platform().Outputs ?? {})) {
    if (name.startsWith('ApiPath')) exported.set(output.Export.Name, pathOf(platform(), output.Value));
  }
  return exported;
}

function pathOf(template: Template, ref: any, imported = new Map<string, string>()): string {
  const parts: string[] = [];
  for (;;) {
    if (ref?.Ref && template.Resources[ref.Ref]) {
      const resource = template.Resources[ref.Ref]!;
      parts.unshift(resource.Properties.PathPart);
      ref = resource.Properties.ParentId;
    } else if (ref?.['Fn::ImportValue'] && imported.has(ref['Fn::ImportValue'])) {
      return `${imported.get(ref['Fn::ImportValue'])}/${parts.join('/')}`.replace(/\/$/, '');
    } else {
      return `/${parts.join('/')}`;
    }
  }
}

describe('npm run package: one template per service', () => {
  it('writes a template for every service, each at or under the resource budget', () => {
    expect(packaged.map((p) => p.service)).toEqual(services.map((s) => s.name));
    expect(RESOURCE_BUDGET).toBeLessThanOrEqual(400);
    for (const p of packaged) expect(p.resources, p.service).toBeLessThanOrEqual(RESOURCE_BUDGET);
  });

  it('keeps the state `osls deploy --package` reads: the service whose compiled template is the template', () => {
    // osls's json-cycle writer is replaced by a linear one (scripts/serverless/decycle.cjs)
    const jsonCycle = createRequire(createRequire(import.meta.url).resolve('osls/package.json'))('json-cycle') as {
      parse: (text: string) => any;
    };
    for (const p of packaged) {
      const state = jsonCycle.parse(readFileSync(join(p.dir, 'serverless-state.json'), 'utf8'));
      expect(state.service.service, p.service).toBe(`surco-${p.service}`);
      expect(state.service.provider.compiledCloudFormationTemplate, p.service).toEqual(p.template);
    }
  });

  it('fails, and ends, when a function does not build', () => {
    // a copy of what packaging reads, with a module every function of the imagery service imports
    // broken: the bundler cannot parse it
    const copy = mkdtempSync(join(tmpdir(), 'surco-broken-build-'));
    try {
      for (const entry of [
        'deploy',
        'docs',
        'functions',
        'lib',
        'schemas',
        'scripts',
        'package.json',
        'tsconfig.json',
        'serverless.yml',
        'serverless.imagery.yml',
      ]) {
        cpSync(join(root, entry), join(copy, entry), { recursive: true });
      }
      symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
      appendFileSync(join(copy, 'lib', 'config.ts'), '\nexport const broken = (;\n');
      mkdirSync(join(copy, 'tmp'));
      const run = spawnSync(
        process.execPath,
        [
          join(copy, 'node_modules/osls/bin/serverless.js'),
          'package',
          '--stage',
          'prod',
          '--config',
          'serverless.imagery.yml',
          '--package',
          join(copy, 'out'),
        ],
        {
          cwd: copy,
          env: { ...env(), TMPDIR: join(copy, 'tmp'), SLS_TELEMETRY_DISABLED: '1' },
          encoding: 'utf8',
          timeout: 90_000,
        },
      );
      // before the surco plugin's error hook, the command printed the error and never ended
      expect(run.signal, 'still running after 90 s').toBeNull();
      expect(run.status).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain('lib/config.ts');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);

  it('serves every route of the registry and of docs/openapi.json with exactly one function in exactly one service', () => {
    const served = new Map<string, string[]>();
    for (const p of packaged) {
      for (const { key, functionId: fn } of methodsOf(p.template)) {
        if (key.startsWith('options ')) continue;
        served.set(key, [...(served.get(key) ?? []), `${p.service}:${fn}`]);
      }
    }
    for (const service of services) {
      for (const route of service.routes) {
        for (const path of route.paths) {
          const method = route.method === 'any' ? 'any' : route.method;
          expect(served.get(`${method} ${path}`), `${method} ${path}`).toEqual([
            `${service.name}:${functionId(route.operationId)}`,
          ]);
        }
      }
    }
    const documented = openApiDocument().paths as Record<string, Record<string, unknown>>;
    for (const [path, operations] of Object.entries(documented)) {
      for (const method of Object.keys(operations))
        expect(served.get(`${method} ${path}`), `${method} ${path}`).toHaveLength(1);
    }
    // and nothing is served that no route declares
    const declared = new Set(allRoutes.flatMap((r) => r.paths.map((p) => `${r.method} ${p}`)));
    for (const key of served.keys()) expect(declared, key).toContain(key);
  });

  it('names in every route a handler module that exports the endpoint built from that route', async () => {
    for (const route of allRoutes) {
      const dot = route.handler.lastIndexOf('.');
      const module = await import(pathToFileURL(join(root, `${route.handler.slice(0, dot)}.ts`)).href);
      const handler = module[route.handler.slice(dot + 1)];
      expect(typeof handler, route.handler).toBe('function');
      expect(handler.route?.operationId, route.handler).toBe(route.operationId);
    }
  });

  it('never creates the same API path part in two templates (shared parents come from the platform)', () => {
    const exported = sharedPaths();
    const owners = new Map<string, string>();
    for (const p of packaged) {
      for (const [id] of ofType(p.template, 'AWS::ApiGateway::Resource')) {
        const path = pathOf(p.template, { Ref: id }, exported);
        expect(owners.get(path), `${path} in ${p.service} and ${owners.get(path)}`).toBeUndefined();
        owners.set(path, p.service);
      }
    }
    expect(owners.get('/api')).toBe('platform');
    expect(owners.get('/api/livestock')).toBe('records');
  });

  it('imports only what the platform service exports', () => {
    const exports = new Set(
      Object.values(platform().Outputs ?? {})
        .map((o: any) => o.Export?.Name)
        .filter(Boolean),
    );
    for (const p of packaged.filter((x) => x.service !== 'platform')) {
      const imports = [...JSON.stringify(p.template).matchAll(/"Fn::ImportValue":"([^"]+)"/g)].map((m) => m[1]);
      expect(imports.length).toBeGreaterThan(0);
      for (const name of imports) expect(exports, name).toContain(name);
      expect(ofType(p.template, 'AWS::ApiGateway::RestApi')).toHaveLength(0);
      expect(ofType(p.template, 'AWS::DynamoDB::Table')).toHaveLength(0);
    }
    expect(ofType(platform(), 'AWS::ApiGateway::RestApi')).toHaveLength(1);
  });
});

/** The Sids a route's role must carry, read from the route as the contract states them. */
function expectedSids(
  route: { auth?: string; touches?: Touches; tableStream?: { deadLetter: string } },
  consumes?: string,
): string[] {
  const t = route.touches ?? {};
  const sids = new Set<string>(['FunctionLogs']);
  if (t.table || route.auth === 'bearer') sids.add('TableRead');
  if (t.table === 'write') sids.add('TableWrite');
  const queues: Record<string, string> = {
    events: 'Events',
    sensorBulk: 'SensorBulk',
    imagery: 'Imagery',
    imageryUrgent: 'ImageryUrgent',
    imageryBulk: 'ImageryBulk',
    webhooks: 'Webhook',
    webhooksDeadLetter: 'WebhookDeadLetter',
    changesDeadLetter: 'ChangesDeadLetter',
  };
  for (const queue of t.sends ?? []) sids.add(`${queues[queue]}Send`);
  if (consumes) sids.add(`${queues[consumes]}Consume`);
  // a stream consumer reads the table's stream and sends its failed batches to its dead-letter queue
  if (route.tableStream) {
    sids.add('TableStreamRead');
    sids.add(`${queues[route.tableStream.deadLetter]}Send`);
  }
  const names: Record<string, string> = {
    'spots/': 'SpotImages',
    'storage/': 'StorageFiles',
    'sensor-bulk/': 'SensorBulk',
    'imagery/': 'ImageryRasters',
    'uploads/': 'LayerUploads',
  };
  const actions: Record<string, string> = { get: 'Read', put: 'Put', delete: 'Delete' };
  for (const [prefix, list] of Object.entries(t.files ?? {}))
    for (const action of list ?? []) sids.add(`${names[prefix]}${actions[action]}`);
  if (route.auth === 'internal') sids.add('InternalKeyRead');
  if (t.secrets?.includes('signingSeed')) sids.add('SigningSeedRead');
  if (t.secrets?.includes('internalKey')) sids.add('InternalKeyRead');
  return [...sids].sort();
}

describe('least privilege: each function gets exactly what its route declares', () => {
  it('gives every function a role with exactly the statements its route or worker declares, plus its logs', () => {
    for (const p of packaged) {
      const service = services.find((s) => s.name === p.service)!;
      const functions: Array<[string, string[]]> = [
        ...service.routes.map((r: RouteDef) => [r.operationId, expectedSids(r)] as [string, string[]]),
        ...service.workers.map((w) => [w.name, expectedSids(w, w.queue)] as [string, string[]]),
        // the API's authorizer: the table (signing keys, its extensions' API keys) and the usage plans' keys
        ...(service.authorizer
          ? [
              [service.authorizer.name, ['FunctionLogs', 'TableRead', 'TableWrite', 'UsagePlanKeys']] as [
                string,
                string[],
              ],
            ]
          : []),
      ];
      expect(ofType(p.template, 'AWS::Lambda::Function')).toHaveLength(functions.length);
      for (const [name, sids] of functions) {
        const fn = p.template.Resources[functionId(name)];
        expect(fn, name).toBeDefined();
        const statements = roleStatements(p.template, fn!);
        expect(statements.map((s) => s.Sid).sort(), name).toEqual(sids);
        expect(statements[0].Resource, name).toEqual([{ 'Fn::GetAtt': ['FunctionsLogGroup', 'Arn'] }]);
      }
    }
  });

  it('gives every bearer route the table read that token verification needs', () => {
    for (const p of packaged) {
      for (const route of services.find((s) => s.name === p.service)!.routes.filter((r) => r.auth === 'bearer')) {
        const statements = roleStatements(p.template, p.template.Resources[functionId(route.operationId)]!);
        const read = statements.find((s) => s.Sid === 'TableRead');
        expect(read?.Action, route.operationId).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
        expect(JSON.stringify(read?.Resource), route.operationId).toMatch(/MainTable/);
      }
    }
  });

  it('has no role with a wildcard action or resource, and no default role', () => {
    for (const p of packaged) {
      expect(p.template.Resources.IamRoleLambdaExecution).toBeUndefined();
      for (const [id, role] of ofType(p.template, 'AWS::IAM::Role')) {
        for (const policy of role.Properties.Policies ?? []) {
          for (const statement of policy.PolicyDocument.Statement) {
            for (const action of [statement.Action].flat())
              expect(action, `${p.service} ${id}`).not.toMatch(/^\*$|:\*$/);
            for (const resource of [statement.Resource].flat()) expect(resource, `${p.service} ${id}`).not.toBe('*');
          }
        }
        expect(role.Properties.ManagedPolicyArns, id).toBeUndefined();
      }
    }
  });

  it('scopes bucket statements to their prefix and queue statements to their queue', () => {
    const fileStorage = packaged.find((p) => p.service === 'records')!;
    const statements = roleStatements(fileStorage.template, fileStorage.template.Resources.FileStorageLambdaFunction!);
    const put = statements.find((s) => s.Sid === 'StorageFilesPut');
    expect(put.Action).toEqual(['s3:PutObject']);
    expect(put.Resource).toEqual([
      { 'Fn::Join': ['', [{ 'Fn::ImportValue': 'surco-prod-FilesBucket-Arn' }, '/storage/*']] },
    ]);
    const send = roleStatements(platform(), platform().Resources.DeleteFieldLambdaFunction!).find(
      (s) => s.Sid === 'EventsSend',
    );
    expect(send.Resource).toEqual([{ 'Fn::GetAtt': ['EventsQueue', 'Arn'] }]);
  });
});

describe('what the templates keep safe', () => {
  it('encrypts the table (with point-in-time recovery), the bucket and the queues', () => {
    const table = platform().Resources.MainTable!;
    expect(table.Properties.SSESpecification.SSEEnabled).toBe(true);
    expect(table.Properties.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled).toBe(true);
    const bucket = platform().Resources.FilesBucket!.Properties;
    expect(
      bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm,
    ).toBeTruthy();
    expect(Object.values(bucket.PublicAccessBlockConfiguration)).toEqual([true, true, true, true]);
    expect(bucket.CorsConfiguration.CorsRules[0].AllowedMethods).toContain('POST');
    for (const [, queue] of ofType(platform(), 'AWS::SQS::Queue'))
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('blocks public access to, and encrypts, every deployment bucket', () => {
    for (const p of packaged) {
      const bucket = p.template.Resources.ServerlessDeploymentBucket!.Properties;
      expect(Object.values(bucket.PublicAccessBlockConfiguration), p.service).toEqual([true, true, true, true]);
      expect(
        bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm,
      ).toBe('AES256');
    }
  });

  it('sends failed events to a dead-letter queue and reports partial batch failures', () => {
    const queue = platform().Resources.EventsQueue!.Properties;
    expect(queue.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': ['EventsDeadLetterQueue', 'Arn'] });
    expect(queue.RedrivePolicy.maxReceiveCount).toBeGreaterThan(1);
    for (const p of packaged) {
      for (const [, mapping] of ofType(p.template, 'AWS::Lambda::EventSourceMapping')) {
        expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      }
    }
  });

  it("feeds the change feed from the table's stream: filtered, bisected on error, failed batches to their dead-letter queue", () => {
    const template = platform();
    expect(template.Resources.MainTable!.Properties.StreamSpecification).toEqual({
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    const streams = ofType(template, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties.EventSourceArn).includes('StreamArn'),
    );
    expect(streams).toHaveLength(1);
    const mapping = streams[0]![1].Properties;
    expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': ['MainTable', 'StreamArn'] });
    expect(mapping.FunctionName['Fn::GetAtt'][0]).toBe('ChangesWorkerLambdaFunction');
    expect(mapping).toMatchObject({
      StartingPosition: 'LATEST',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['ChangesDeadLetterQueue', 'Arn'] } } },
    });
    const filter = JSON.parse(mapping.FilterCriteria.Filters[0].Pattern);
    expect(filter.dynamodb.Keys.pk.S.map((p: { prefix: string }) => p.prefix).sort()).toEqual(
      [...FEED_PARTITIONS].sort(),
    );
    expect(template.Resources.ChangesDeadLetterQueue!.Properties.SqsManagedSseEnabled).toBe(true);
    // its role: the stream (read only), the table, the dead-letter queue; nothing else
    const statements = roleStatements(template, template.Resources.ChangesWorkerLambdaFunction!);
    const stream = statements.find((s) => s.Sid === 'TableStreamRead');
    expect(stream.Resource).toEqual([{ 'Fn::GetAtt': ['MainTable', 'StreamArn'] }]);
    expect(
      stream.Action.every((a: string) => /^dynamodb:(DescribeStream|GetRecords|GetShardIterator|ListStreams)$/.test(a)),
    ).toBe(true);
    expect(statements.find((s) => s.Sid === 'ChangesDeadLetterSend').Resource).toEqual([
      { 'Fn::GetAtt': ['ChangesDeadLetterQueue', 'Arn'] },
    ]);
    // an alarm on what it gave up on, and on how far behind it is
    const alarms = ofType(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms.find((a) => a.MetricName === 'IteratorAge')).toMatchObject({
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: 'ChangesWorkerLambdaFunction' } }],
    });
  });

  it('answers before API Gateway gives up (29 s), lets workers finish before their messages reappear, and bounds every AWS call', () => {
    const queues = new Map<string, number>();
    for (const [id, queue] of ofType(platform(), 'AWS::SQS::Queue'))
      queues.set(id, Number(queue.Properties.VisibilityTimeout ?? 30));
    const queueOf = (arn: unknown): string => {
      const text = JSON.stringify(arn);
      const id = [...queues.keys()].find((name) => text.includes(`"${name}"`) || text.includes(`-${name}-`));
      if (!id) throw new Error(`event source ${text} is not a platform queue`);
      return id;
    };
    for (const p of packaged) {
      const functions = new Map(ofType(p.template, 'AWS::Lambda::Function'));
      const workers = new Set<string>();
      const scheduled = new Set(
        ofType(p.template, 'AWS::Events::Rule').flatMap(([, rule]) =>
          (rule.Properties.Targets as Array<{ Arn: { 'Fn::GetAtt': string[] } }>).map(
            (target) => target.Arn['Fn::GetAtt'][0]!,
          ),
        ),
      );
      for (const [, mapping] of ofType(p.template, 'AWS::Lambda::EventSourceMapping')) {
        const fnId = (mapping.Properties.FunctionName['Fn::GetAtt'] as string[])[0]!;
        workers.add(fnId);
        // the table's stream has no visibility timeout (its worker's batches wait for it)
        if (JSON.stringify(mapping.Properties.EventSourceArn).includes('StreamArn')) continue;
        const timeout = Number(functions.get(fnId)!.Properties.Timeout);
        // AWS's rule for queue-fed functions: visibility at least six times the function's timeout
        expect(queues.get(queueOf(mapping.Properties.EventSourceArn))!, `${p.service} ${fnId}`).toBeGreaterThanOrEqual(
          6 * timeout,
        );
      }
      for (const [id, fn] of functions) {
        // queue workers and scheduled functions answer no API request
        if (workers.has(id) || scheduled.has(id) || id === 'NotificationStreamLambdaFunction' || !fn.Properties.Handler)
          continue;
        expect(Number(fn.Properties.Timeout), `${p.service} ${id}`).toBeLessThan(29);
      }
    }
    // every AWS client waits at most AWS_REQUEST_HANDLER's connection and request timeouts per attempt
    for (const file of readdirSync(join(root, 'lib/aws')).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(root, 'lib/aws', file), 'utf8');
      for (const created of source.match(/new \w+Client\(\{[^)]*\}\)/g) ?? [])
        expect(created, file).toContain('requestHandler: AWS_REQUEST_HANDLER');
    }
  });

  it('runs functions on a supported Node.js runtime, logging JSON to a log group with retention', () => {
    for (const p of packaged) {
      for (const [, fn] of ofType(p.template, 'AWS::Lambda::Function')) {
        expect(['nodejs22.x', 'nodejs24.x']).toContain(fn.Properties.Runtime);
        // source maps are read when an error is logged (lib/util/stack.ts), not at every cold start
        expect(String(fn.Properties.Environment?.Variables?.NODE_OPTIONS ?? '')).not.toContain('enable-source-maps');
        expect(fn.Properties.LoggingConfig).toMatchObject({
          LogFormat: 'JSON',
          LogGroup: `/aws/lambda/surco-${p.service}-prod`,
        });
        expect(fn.Properties.TracingConfig).toBeUndefined();
      }
      const groups = ofType(p.template, 'AWS::Logs::LogGroup');
      expect(groups.length).toBeGreaterThan(0);
      for (const [id, group] of groups) expect(group.Properties.RetentionInDays, `${p.service} ${id}`).toBe(30);
    }
  });

  it('zips one small bundle per function', () => {
    for (const p of packaged) {
      for (const [name] of ofType(p.template, 'AWS::Lambda::Function')) {
        const zip = join(p.dir, `${name.replace(/LambdaFunction$/, '').replace(/^./, (c) => c.toLowerCase())}.zip`);
        expect(existsSync(zip), zip).toBe(true);
        expect(readFileSync(zip).length).toBeLessThan(5 * 1024 * 1024);
      }
    }
  });

  it('runs every function from an entry of its own that exports only its handler (ADR 0008)', () => {
    const handlers = new Map([
      ...services.flatMap((s) => [
        ...s.routes.map((r) => [r.operationId, r.handler] as const),
        ...s.workers.map((w) => [w.name, w.handler] as const),
        ...(s.authorizer ? [[s.authorizer.name, s.authorizer.handler] as const] : []),
      ]),
    ]);
    for (const p of packaged) {
      const script: string[] = [];
      for (const [id, fn] of ofType(p.template, 'AWS::Lambda::Function')) {
        const name = functionName(id);
        const own = `.surco/handlers/${name}/`;
        expect(fn.Properties.Handler, id).toBe(`${own}index.handler`);
        // its directory: its module, the chunks it imports on first use, their source maps; nothing else
        // but, for a function that serves a web page, the page's files (docs/console.md; never .mjs)
        const files = unzipSync(readFileSync(join(p.dir, `${name}.zip`)));
        const names = Object.keys(files);
        const pageFile = (file: string) => PAGE_FUNCTIONS.includes(name) && /\.(html|js|css|txt)$/.test(file);
        expect(
          names.filter((file) => !file.startsWith(own) || (!/\.mjs(\.map)?$/.test(file) && !pageFile(file))),
          id,
        ).toEqual([]);
        expect(names, id).toContain(`${own}index.mjs`);
        for (const file of names.filter((f) => f.endsWith('.mjs'))) expect(names, id).toContain(`${file}.map`);
        // mappings without the sources' text (deploy/esbuild.yml: the logger needs only the mappings)
        expect(JSON.parse(strFromU8(files[`${own}index.mjs.map`]!)), id).not.toHaveProperty('sourcesContent');
        // and every chunk is one its module can load (static or dynamic imports, deploy/esbuild-plugins.cjs prune-chunks)
        const reached = new Set<string>();
        const visit = (file: string) => {
          if (reached.has(file) || !files[file]) return;
          reached.add(file);
          for (const found of strFromU8(files[file]!).matchAll(
            /(?:\bfrom|\bimport)\s*\(?\s*["']\.\/([^"']+\.mjs)["']/g,
          ))
            visit(`${own}${found[1]}`);
        };
        visit(`${own}index.mjs`);
        expect(
          names.filter((file) => file.endsWith('.mjs') && !reached.has(file)),
          id,
        ).toEqual([]);
        for (const file of names) {
          mkdirSync(dirname(join(outDir, 'bundles', file)), { recursive: true });
          writeFileSync(join(outDir, 'bundles', file), files[file]!);
        }
        const bundle = join(outDir, 'bundles', `${own}index.mjs`);
        // the other routes of its handler module are not in it
        const module = handlers.get(name)!.replace(/\.\w+$/, '');
        const text = names
          .filter((file) => file.endsWith('.mjs'))
          .map((file) => strFromU8(files[file]!))
          .join('\n');
        for (const sibling of allRoutes.filter(
          (r) => r.handler.startsWith(`${module}.`) && r.operationId !== name && BUILT_FROM[name] !== r.operationId,
        )) {
          expect(text.includes(`"${sibling.operationId}"`), `${name} holds ${sibling.operationId}`).toBe(false);
        }
        script.push(
          `{ const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); out.push([${JSON.stringify(name)}, Object.keys(m), typeof m.handler, m.handler.route?.operationId ?? null]); }`,
        );
      }
      // imported as Lambda imports it: a fresh Node process, the module's `handler` export
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `const out = []; ${script.join('\n')} console.log(JSON.stringify(out));`],
        {
          env: {
            PATH: process.env.PATH,
            AWS_REGION: 'us-east-1',
            SURCO_STAGE: 'prod',
            AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          },
          encoding: 'utf8',
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      expect(run.stderr, p.service).toBe('');
      const imported = JSON.parse(run.stdout) as Array<[string, string[], string, string | null]>;
      expect(imported.length).toBe(ofType(p.template, 'AWS::Lambda::Function').length);
      for (const [name, exports, type, operationId] of imported) {
        expect(exports, name).toEqual(['handler']);
        expect(type, name).toBe('function');
        if (allRoutes.some((r) => r.operationId === name)) expect(operationId, name).toBe(name);
      }
    }
  });

  it("builds each function in the packaging's lanes exactly as a build of its entry alone would (deploy/build.cjs)", async () => {
    // a lane's context is rebuilt for one function after another: nothing of one may stay in the
    // next. Checked on a lane's first build, on a service's last function (built after many), on
    // a function built twice without its dead imports, and on one that ships a web page.
    const cases = [packaged[0]!.template, ...packaged.map((p) => p.template).slice(-1)].flatMap((template) =>
      ofType(template, 'AWS::Lambda::Function').map(([id]) => functionName(id)),
    );
    const chosen = [cases[0]!, cases[cases.length - 1]!, 'keyValueStorage', 'webConsole'];
    mkdirSync(join(root, '.surco', 'package-build'), { recursive: true });
    const work = mkdtempSync(join(root, '.surco', 'package-build', 'alone-'));
    try {
      for (const name of chosen) {
        const p = packaged.find((service) =>
          ofType(service.template, 'AWS::Lambda::Function').some(([id]) => functionName(id) === name),
        )!;
        const own = `.surco/handlers/${name}/`;
        const zipped = unzipSync(readFileSync(join(p.dir, `${name}.zip`)));
        // written where the packaging's lanes write, at the same depth: the maps' paths are the same
        const outdir = join(work, own);
        await build({ ...deployBuildOptions(), entryPoints: { index: join(root, own, 'index.ts') }, outdir });
        const alone = readdirSync(outdir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => relative(outdir, join(entry.parentPath, entry.name)).split(sep).join('/'))
          .sort();
        expect(Object.keys(zipped).sort(), name).toEqual(alone.map((file) => `${own}${file}`));
        for (const file of alone) {
          expect(
            Buffer.from(zipped[`${own}${file}`]!).equals(readFileSync(join(outdir, file))),
            `${name}: ${file}`,
          ).toBe(true);
        }
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('ships each web page in the zip of the function that serves it, beside its bundle (docs/console.md)', () => {
    for (const [name, expected] of [
      ['apiReference', [/^index-\w+\.html$/, /^docs-\w+-\w+\.js$/, /^docs-\w+-\w+\.css$/]],
      [
        'webConsole',
        [/^index-\w+\.html$/, /^console-\w+-\w+\.js$/, /^console-\w+-\w+\.css$/, /^maplibre-gl-worker-\w+-\w+\.js$/],
      ],
    ] as const) {
      const service = packaged.find((p) => p.template.Resources[functionId(name)]);
      expect(service?.service, name).toBe('platform');
      const files: string[] = [];
      unzipSync(readFileSync(join(service!.dir, `${name}.zip`)), {
        filter: (entry) => {
          files.push(entry.name);
          return false;
        },
      });
      const index = files.find((file) => file.endsWith('/index.mjs'))!;
      const dir = index.slice(0, index.lastIndexOf('/') + 1);
      for (const pattern of expected) {
        expect(
          files.some((file) => file.startsWith(dir) && pattern.test(file.slice(dir.length))),
          `${name}: ${pattern}`,
        ).toBe(true);
      }
    }
    // (no other function carries them: 'runs every function from an entry of its own ...')
  });

  it('keeps every bundle within its budget (bench/bundle-budgets.json; npm run bench -- cold-start measures their import)', () => {
    const budgets = JSON.parse(readFileSync(join(root, 'bench', 'bundle-budgets.json'), 'utf8')) as {
      defaultKb: number;
      modules: Record<string, { kb: number; why: string }>;
    };
    const handlers = new Map([
      ...services.flatMap((s) => [
        ...s.routes.map((r) => [r.operationId, r.handler] as const),
        ...s.workers.map((w) => [w.name, w.handler] as const),
        ...(s.authorizer ? [[s.authorizer.name, s.authorizer.handler] as const] : []),
      ]),
    ]);
    const over: string[] = [];
    const used = new Set<string>();
    for (const p of packaged) {
      for (const [id] of ofType(p.template, 'AWS::Lambda::Function')) {
        const name = functionName(id);
        const sizes: Record<string, number> = {};
        unzipSync(readFileSync(join(p.dir, `${name}.zip`)), {
          filter: (entry) => {
            sizes[entry.name] = entry.originalSize;
            return false;
          },
        });
        // what the function ships: its module and the chunks it loads on first use
        const bytes = Object.entries(sizes).reduce((sum, [file, size]) => sum + (file.endsWith('.mjs') ? size : 0), 0);
        // budgets are per handler module: each of its functions is held to it
        const module = handlers.get(name)!.replace(/\.\w+$/, '');
        const budget = budgets.modules[module]?.kb ?? budgets.defaultKb;
        if (budgets.modules[module]) used.add(module);
        if (bytes > budget * 1024) over.push(`${name} (${module}): ${Math.round(bytes / 1024)} KB > ${budget} KB`);
      }
    }
    expect(over).toEqual([]);
    // a budget names a handler module that exists
    expect(Object.keys(budgets.modules).filter((module) => !used.has(module))).toEqual([]);
    // no bundle over 600 KB but those listed with the heavy library they need
    expect(budgets.defaultKb).toBeLessThanOrEqual(600);
    for (const [module, { kb, why }] of Object.entries(budgets.modules)) {
      if (kb > 600) expect(why.length, module).toBeGreaterThan(20);
    }
  });

  it('streams the notification stream: integration transfer mode STREAM through response-streaming invocations', () => {
    const integrations = ofType(platform(), 'AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties.Integration)
      .filter((integration) => JSON.stringify(integration.Uri ?? '').includes('NotificationStreamLambdaFunction'));
    expect(integrations).toHaveLength(2); // /nc/stream and /api/nc/stream
    for (const integration of integrations) {
      expect(integration.Type).toBe('AWS_PROXY');
      expect(integration.ResponseTransferMode).toBe('STREAM');
      const uri = JSON.stringify(integration.Uri);
      expect(uri).toContain('lambda:path/2021-11-15/functions/');
      expect(uri).toContain('/response-streaming-invocations');
    }
    expect(platform().Resources.NotificationStreamLambdaFunction!.Properties.Timeout).toBe(900);
  });

  it('streams exactly the routes declared with stream: true (the notification stream, the lists that grow with the account), each through a response-streaming invocation', () => {
    const streaming = packaged
      .flatMap((p) => ofType(p.template, 'AWS::ApiGateway::Method'))
      .filter(([, m]) => m.Properties.Integration?.ResponseTransferMode === 'STREAM');
    const streamedRoutes = allRoutes.filter((route) => route.stream);
    expect(streamedRoutes.map((route) => route.operationId).sort()).toEqual(
      [...GROWING_LISTS, 'notificationStream'].sort(),
    );
    expect(streaming).toHaveLength(streamedRoutes.reduce((n, route) => n + route.paths.length, 0));
    for (const [, method] of streaming) {
      expect(JSON.stringify(method.Properties.Integration.Uri)).toContain('/response-streaming-invocations');
    }
    // every other method answers buffered (no transfer mode, or BUFFERED)
    const buffered = packaged
      .flatMap((p) => ofType(p.template, 'AWS::ApiGateway::Method'))
      .filter(
        ([, m]) => m.Properties.HttpMethod !== 'OPTIONS' && m.Properties.Integration?.ResponseTransferMode !== 'STREAM',
      );
    for (const [, method] of buffered) {
      expect(JSON.stringify(method.Properties.Integration?.Uri ?? '')).not.toContain('/response-streaming-invocations');
    }
  });
});

describe('what an operator expects in production', () => {
  const alarmsOf = (template: Template) => ofType(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

  it('publishes every alarm to the one SNS topic of the platform', () => {
    expect(platform().Resources.AlarmTopic?.Type).toBe('AWS::SNS::Topic');
    for (const p of packaged) {
      const topic =
        p.service === 'platform' ? { Ref: 'AlarmTopic' } : { 'Fn::ImportValue': 'surco-prod-AlarmTopic-Ref' };
      for (const alarm of alarmsOf(p.template)) expect(alarm.AlarmActions, p.service).toEqual([topic]);
    }
  });

  it("alarms on dead-letter queue depth above 0, the API 5xx rate and the workers' oldest message", () => {
    const alarms = alarmsOf(platform());
    const dlq = alarms.find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(dlq).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(dlq!.Dimensions[0].Value).toEqual({ 'Fn::GetAtt': ['EventsDeadLetterQueue', 'QueueName'] });
    const api = alarms.find((a) => a.MetricName === '5XXError');
    expect(api).toMatchObject({ Namespace: 'AWS/ApiGateway', Statistic: 'Average' });
    expect(api!.Dimensions).toEqual([
      { Name: 'ApiName', Value: 'surco-prod' },
      { Name: 'Stage', Value: 'prod' },
    ]);
    expect(platform().Resources.ApiGatewayRestApi!.Properties.Name).toBe('surco-prod');
    const ages = alarms
      .filter((a) => a.MetricName === 'ApproximateAgeOfOldestMessage')
      .map((a) => a.Dimensions[0].Value['Fn::GetAtt'][0]);
    expect(ages.sort()).toEqual([
      'EventsQueue',
      'ImageryBulkQueue',
      'ImageryQueue',
      'ImageryUrgentQueue',
      'SensorBulkQueue',
      'WebhookQueue',
    ]);
    const webhookDlq = alarms
      .filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible')
      .map((a) => a.Dimensions[0].Value['Fn::GetAtt'][0]);
    expect(webhookDlq.sort()).toEqual(['ChangesDeadLetterQueue', 'EventsDeadLetterQueue', 'WebhookDeadLetterQueue']);
  });

  it('alarms on Lambda errors and throttles of every function of every service', () => {
    for (const p of packaged) {
      const functions = ofType(p.template, 'AWS::Lambda::Function')
        .map(([id]) => id)
        .sort();
      for (const metric of ['Errors', 'Throttles']) {
        const watched = alarmsOf(p.template)
          .filter((a) => a.Metrics?.some((m: any) => m.MetricStat?.Metric.MetricName === metric))
          .flatMap((a) => {
            expect(a.Metrics.length).toBeLessThanOrEqual(11); // ten metrics and their sum
            expect(a.Metrics.at(-1)).toMatchObject({ Expression: 'SUM(METRICS())', ReturnData: true });
            return a.Metrics.filter((m: any) => m.MetricStat).map(
              (m: any) => m.MetricStat.Metric.Dimensions[0].Value.Ref,
            );
          })
          .sort();
        expect(watched, `${p.service} ${metric}`).toEqual(functions);
      }
    }
  });

  it('writes JSON access logs with the request ids to a log group with retention, and throttles the stage', () => {
    const stage = platform().Resources.ApiGatewayStage!.Properties;
    expect(stage.StageName).toBe('prod');
    expect(stage.AccessLogSetting.DestinationArn).toEqual({ 'Fn::GetAtt': ['ApiAccessLogGroup', 'Arn'] });
    const format = JSON.parse(stage.AccessLogSetting.Format);
    expect(format).toMatchObject({
      apiRequestId: '$context.requestId',
      lambdaRequestId: '$context.integration.requestId',
      status: '$context.status',
    });
    expect(stage.MethodSettings).toEqual([
      expect.objectContaining({
        ResourcePath: '/*',
        HttpMethod: '*',
        ThrottlingRateLimit: 100,
        ThrottlingBurstLimit: 200,
      }),
    ]);
    expect(stage.TracingEnabled).toBe(false);
    expect(platform().Resources.ApiAccessLogGroup!.Properties.RetentionInDays).toBe(30);
    // the platform's deployment leaves the stage to the Stage resource; the others redeploy it
    const [deploymentId, deployment] = ofType(platform(), 'AWS::ApiGateway::Deployment')[0]!;
    expect(deployment.Properties.StageName).toBeUndefined();
    expect(stage.DeploymentId).toEqual({ Ref: deploymentId });
    for (const p of packaged.filter((x) => x.service !== 'platform')) {
      expect(ofType(p.template, 'AWS::ApiGateway::Deployment')[0]![1].Properties.StageName).toBe('prod');
      expect(ofType(p.template, 'AWS::ApiGateway::Stage')).toHaveLength(0);
    }
  });

  it("answers API Gateway's own errors in the general dialect, with the CORS origin", () => {
    const responses = Object.fromEntries(
      ofType(platform(), 'AWS::ApiGateway::GatewayResponse').map(([, r]) => [r.Properties.ResponseType, r.Properties]),
    );
    expect(Object.keys(responses).sort()).toEqual([
      'ACCESS_DENIED',
      'AUTHORIZER_FAILURE',
      'DEFAULT_4XX',
      'DEFAULT_5XX',
      'MISSING_AUTHENTICATION_TOKEN',
      'QUOTA_EXCEEDED',
      'REQUEST_TOO_LARGE',
      'THROTTLED',
    ]);
    // an extension over its usage plan's rate or quota, a user over its own rate (the authorizer's
    // only denial): 429 with Retry-After, readable by browsers
    expect(responses.ACCESS_DENIED.ResponseTemplates['application/json']).toContain('$context.authorizer.retryAfter');
    for (const type of ['THROTTLED', 'QUOTA_EXCEEDED', 'ACCESS_DENIED']) {
      expect(responses[type].StatusCode).toBe('429');
      expect(responses[type].ResponseParameters['gatewayresponse.header.Retry-After']).toMatch(/^'\d+'$/);
      expect(responses[type].ResponseParameters['gatewayresponse.header.Access-Control-Expose-Headers']).toMatch(
        /Retry-After/,
      );
    }
    for (const response of Object.values(responses) as any[]) {
      expect(
        JSON.parse(response.ResponseTemplates['application/json'].replace('$context.error.messageString', '""')),
      ).toMatchObject({ res: 'error' });
      expect(response.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toBe("'*'");
    }
  });

  it('answers the CORS preflight of every declared path, from the corsOrigins parameter', () => {
    for (const p of packaged) {
      const methods = methodsOf(p.template);
      const service = services.find((s) => s.name === p.service)!;
      for (const path of new Set(service.routes.filter((r) => r.method !== 'any').flatMap((r) => r.paths))) {
        expect(
          methods.map((m) => m.key),
          `${p.service} ${path}`,
        ).toContain(`options ${path}`);
      }
      for (const [, method] of ofType(p.template, 'AWS::ApiGateway::Method').filter(
        ([, m]) => m.Properties.HttpMethod === 'OPTIONS',
      )) {
        const headers = method.Properties.Integration.IntegrationResponses[0].ResponseParameters;
        expect(headers['method.response.header.Access-Control-Allow-Origin']).toBe("'*'");
        expect(headers['method.response.header.Access-Control-Allow-Headers']).toContain('Authorization');
      }
    }
  });
});

describe('fair use per extension', () => {
  const tiers = Object.entries(DEFAULT_TIERS).filter(([, t]) => Number.isFinite(t.rate));

  it("makes one usage plan per tier on the stage, with the tier's rate, burst and daily quota", () => {
    const plans = ofType(platform(), 'AWS::ApiGateway::UsagePlan');
    expect(plans).toHaveLength(tiers.length);
    for (const [tier, limits] of tiers) {
      const plan = plans.find(([, p]) => p.Properties.UsagePlanName === `surco-prod-${tier}`)?.[1];
      expect(plan, tier).toBeDefined();
      expect(plan!.Properties.ApiStages).toEqual([{ ApiId: { Ref: 'ApiGatewayRestApi' }, Stage: 'prod' }]);
      expect(plan!.Properties.Throttle).toEqual({ RateLimit: limits.rate, BurstLimit: limits.burst });
      expect(plan!.Properties.Quota).toEqual({ Limit: limits.quota, Period: 'DAY' });
      expect(plan!.DependsOn).toContain('ApiGatewayStage');
    }
    // usage-plan keys come from the authorizer
    expect(platform().Resources.ApiGatewayRestApi!.Properties.ApiKeySourceType).toBe('AUTHORIZER');
  });

  it('puts the authorizer, uncached by API Gateway, on every bearer method of every service, and requires its key there only', () => {
    for (const p of packaged) {
      const service = services.find((s) => s.name === p.service)!;
      const authorizer = p.template.Resources.ApiAuthorizer!;
      expect(authorizer.Type).toBe('AWS::ApiGateway::Authorizer');
      expect(authorizer.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
      expect(authorizer.Properties.IdentitySource).toBeUndefined();
      const target = JSON.stringify(authorizer.Properties.AuthorizerUri);
      if (p.service === 'platform') expect(target).toContain('ApiAuthorizerLambdaFunction');
      else expect(target).toContain('surco-prod-ApiAuthorizerLambdaFunction-Arn');
      const permission = p.template.Resources.ApiAuthorizerPermission!;
      expect(permission.Properties.Principal).toBe('apigateway.amazonaws.com');
      expect(JSON.stringify(permission.Properties.SourceArn)).toContain('ApiAuthorizer');
      const bearer = new Set(service.routes.filter((r) => r.auth === 'bearer').map((r) => functionId(r.operationId)));
      let guarded = 0;
      for (const [id, method] of ofType(p.template, 'AWS::ApiGateway::Method')) {
        const fn = /"(\w+LambdaFunction)"/.exec(JSON.stringify(method.Properties.Integration?.Uri ?? ''))?.[1];
        const isBearer = method.Properties.HttpMethod !== 'OPTIONS' && fn !== undefined && bearer.has(fn);
        if (isBearer) guarded++;
        expect(method.Properties.AuthorizationType === 'CUSTOM', `${p.service} ${id}`).toBe(isBearer);
        expect(Boolean(method.Properties.ApiKeyRequired), `${p.service} ${id}`).toBe(isBearer);
        if (isBearer) expect(method.Properties.AuthorizerId).toEqual({ Ref: 'ApiAuthorizer' });
      }
      expect(guarded, p.service).toBe(
        service.routes.filter((r) => r.auth === 'bearer').reduce((n, r) => n + r.paths.length, 0),
      );
    }
  });

  it("gives the authorizer only the usage plans' keys, and the access log its user, extension and tier", () => {
    const fn = platform().Resources.ApiAuthorizerLambdaFunction!;
    const statement = roleStatements(platform(), fn).find((s) => s.Sid === 'UsagePlanKeys');
    expect(statement.Action).toEqual(['apigateway:POST']);
    const resources = JSON.stringify(statement.Resource);
    expect(statement.Resource).toHaveLength(1 + tiers.length);
    expect(resources).toContain('::/apikeys');
    for (const [tier] of tiers) expect(resources).toContain(`UsagePlan${tier.charAt(0).toUpperCase()}${tier.slice(1)}`);
    const plans = JSON.stringify(fn.Properties.Environment.Variables.SURCO_USAGE_PLANS);
    for (const [tier] of tiers) expect(plans).toContain(`\\"${tier}\\":\\"`);
    expect(fn.Properties.Environment.Variables.SURCO_DEFAULT_TIER).toBe('standard');
    const format = JSON.parse(platform().Resources.ApiGatewayStage!.Properties.AccessLogSetting.Format);
    expect(format).toMatchObject({
      userId: '$context.authorizer.userId',
      extensionId: '$context.authorizer.extensionId',
      tier: '$context.authorizer.tier',
    });
  });
});

describe('a template-only packaging (SURCO_PACKAGE_CODE=placeholder)', () => {
  it("gives each service's template as the default packaging does, but for the functions' code", async () => {
    const templates = await packageServices(join(outDir, 'templates-only'), {
      env: { ...env(), SURCO_PACKAGE_CODE: 'placeholder' },
    });
    // the code's S3 key names the artifact and the packaging's time, as the API deployment's logical
    // id names the time; everything else is the same
    const withoutCode = (template: object) =>
      JSON.parse(
        JSON.stringify(template)
          .replace(/"serverless\/[^"]+\.zip"/g, '"<code>"')
          .replace(/ApiGatewayDeployment\d+/g, 'ApiGatewayDeployment<time>'),
      );
    for (const [i, p] of templates.entries()) {
      expect(p.service).toBe(packaged[i]!.service);
      expect(withoutCode(p.template), p.service).toEqual(withoutCode(packaged[i]!.template));
    }
  }, 120_000);
});

describe('deploy parameters', () => {
  beforeAll(async () => {
    // the templates only: the functions' code is the default packaging's, checked above
    traced = await packageServices(join(outDir, 'traced'), {
      env: { ...env(), SURCO_PACKAGE_CODE: 'placeholder' },
      params: [
        'tracing=true',
        'corsOrigins=https://app.example.com,https://*.example.org',
        'throttleRate=7',
        'throttleBurst=9',
      ],
    });
  }, 600_000);

  it('switches tracing on for the stage and every function, with the one X-Ray statement in every role', () => {
    for (const p of traced) {
      for (const [, fn] of ofType(p.template, 'AWS::Lambda::Function')) {
        expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
        const xray = roleStatements(p.template, fn).filter((s) => s.Resource.includes('*'));
        expect(xray).toEqual([
          {
            Sid: 'XRayWrite',
            Effect: 'Allow',
            Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
            Resource: ['*'],
          },
        ]);
      }
    }
    const stage = traced[0]!.template.Resources.ApiGatewayStage!.Properties;
    expect(stage.TracingEnabled).toBe(true);
    expect(stage.MethodSettings[0]).toMatchObject({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 });
  });

  it('echoes only the allowed origins in preflights and gateway responses', () => {
    for (const p of traced) {
      for (const [, method] of ofType(p.template, 'AWS::ApiGateway::Method').filter(
        ([, m]) => m.Properties.HttpMethod === 'OPTIONS',
      )) {
        const template = method.Properties.Integration.IntegrationResponses[0].ResponseTemplates['application/json'];
        expect(template).toContain('$origin.matches("https://app[.]example[.]com")');
        expect(template).toContain('$origin.matches("https://.+[.]example[.]org")');
      }
    }
    for (const [, response] of ofType(traced[0]!.template, 'AWS::ApiGateway::GatewayResponse')) {
      expect(response.Properties.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toBe(
        'method.request.header.origin',
      );
    }
    const fn = traced[1]!.template.Resources.ListPaddocksLambdaFunction!;
    expect(fn.Properties.Environment.Variables.SURCO_CORS_ORIGINS).toBe(
      'https://app.example.com,https://*.example.org',
    );
  });
});

describe('the local stack mirrors the platform template', () => {
  it('creates the table with the key schema and indexes the platform service deploys', async () => {
    const { endpoints, table } = stack();
    const client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: endpoints.dynamodb,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const described = (await client.send(new DescribeTableCommand({ TableName: table }))).Table!;
    const declared = platform().Resources.MainTable!.Properties;
    expect(described.KeySchema).toEqual(declared.KeySchema);
    expect(described.GlobalSecondaryIndexes?.map((g) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema }))).toEqual(
      declared.GlobalSecondaryIndexes.map((g: any) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema })),
    );
    expect(table).toBe('surco-local-main');
    client.destroy();
  });
});
