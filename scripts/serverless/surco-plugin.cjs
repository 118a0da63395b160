'use strict';
// Surco's serverless plugin: turns the route registry (schemas/index.ts) into deployable services
// (docs/adr/0006-services.md).
//
// 1. Functions from the registry. `custom.surcoService` names the service a serverless.*.yml
//    deploys; every route and worker of that service becomes a function, with its http events
//    (one per path, CORS preflight from lib/http/cors.ts), its SQS event and its IAM statements,
//    generated from what the route declares it touches (scripts/serverless/iam.cjs). Nothing about
//    a route is written in YAML.
// 2. One REST API shared by every service. The platform service owns the table, bucket, queues,
//    secrets, the REST API and its stage, and exports them; the other services import them
//    (Fn::ImportValue keeps `package` offline). Path parts used by more than one service (`/api`)
//    are created by the platform service and imported by the others, so that no two stacks create
//    the same resource.
// 3. Least privilege without a role per function: functions whose statements are identical share
//    one role, named after the Sids; every role can write to its service's log group.
// 4. What an operator expects: the stage (throttling, JSON access logs, tracing switch), alarms on
//    Lambda errors and throttles for every function (metric math, ten functions an alarm), and log
//    retention (deploy/operations.yml has the API-wide and queue alarms).
// 5. `offline start` (stage local): one serverless-offline serves the routes of every service
//    (npm start has one base URL); CloudFormation references in the environment resolve to the
//    local stack's names; handlers are built in one esbuild pass; streaming routes are handed to
//    scripts/local/gateway.ts through .surco/build/streams.json (docs/adr/0005).

const fs = require('node:fs');
const path = require('node:path');
const { loadRegistry } = require('./registry.cjs');
const { statementsFor, X_RAY_STATEMENT, QUEUES } = require('./iam.cjs');
const { localResolver } = require('./local-names.cjs');

const PLATFORM = 'platform';
const LOG_STATEMENT_SID = 'FunctionLogs';
const LOG_GROUP_ID = 'FunctionsLogGroup';
/** Resources of the platform service that the other services use, by attribute. */
const SHARED_EXPORTS = [
  ['MainTable', 'Ref'],
  ['MainTable', 'Arn'],
  ['FilesBucket', 'Ref'],
  ['FilesBucket', 'Arn'],
  ['EventsQueue', 'Ref'],
  ['EventsQueue', 'Arn'],
  ['SensorBulkQueue', 'Ref'],
  ['SensorBulkQueue', 'Arn'],
  ['ImageryQueue', 'Ref'],
  ['ImageryQueue', 'Arn'],
  ['WebhookQueue', 'Ref'],
  ['WebhookQueue', 'Arn'],
  ['WebhookDeadLetterQueue', 'Ref'],
  ['WebhookDeadLetterQueue', 'Arn'],
  ['InternalKeySecret', 'Ref'],
  ['SigningSeedSecret', 'Ref'],
  ['AlarmTopic', 'Ref'],
  ['ApiGatewayRestApi', 'Ref'],
  ['ApiGatewayRestApi', 'RootResourceId'],
];
/** Metrics an alarm on metric math may hold. */
const METRICS_PER_ALARM = 10;

/** Every proper prefix of a path (`/api/nc/inbox` -> `/api`, `/api/nc`). */
const parentsOf = (apiPath) => {
  const parts = apiPath.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
};

/** Path parts that routes of more than one service need: the platform service creates them. */
function sharedParents(services) {
  const users = new Map();
  for (const service of services) {
    const needed = new Set(service.routes.flatMap((route) => route.paths.flatMap((p) => [...parentsOf(p), p])));
    for (const p of needed) users.set(p, (users.get(p) || new Set()).add(service.name));
  }
  return [...users].filter(([, names]) => names.size > 1).map(([p]) => p).sort();
}

const upperFirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);

class SurcoPlugin {
  constructor(serverless, options) {
    this.serverless = serverless;
    this.options = options || {};
    serverless.configSchemaHandler.defineFunctionProperties('aws', {
      properties: { iamRoleStatements: { type: 'array', items: { type: 'object' } } },
    });
    serverless.configSchemaHandler.defineCustomProperties({
      properties: { surcoService: { type: 'string' }, surco: { type: 'object' } },
      required: ['surcoService', 'surco'],
    });

    // Variables are not resolved yet while plugins are constructed: custom.surco (deploy parameters)
    // is read in the hooks (`settings`), and generated configuration refers to it by variable.
    const config = serverless.configurationInput;
    const custom = config.custom || {};
    this.registry = loadRegistry(serverless.serviceDir);
    const serviceName = custom.surcoService;
    this.service = this.registry.services.find((s) => s.name === serviceName);
    if (!this.service) {
      throw new Error(`surco-plugin: custom.surcoService '${serviceName}' is not a service of schemas/index.ts`);
    }
    const commands = (serverless.processedInput && serverless.processedInput.commands) || [];
    this.offline = commands[0] === 'offline';
    // One serverless-offline serves every service locally; it runs the platform service.
    if (this.offline && this.service.name !== PLATFORM) {
      throw new Error('surco-plugin: run serverless-offline with the platform service (serverless.yml); it serves every route');
    }
    this.owner = this.service.name === PLATFORM;
    this.stage = this.options.stage || (config.provider && config.provider.stage) || 'dev';
    this.exportPrefix = `surco-${this.stage}`;
    this.sharedParents = sharedParents(this.registry.services);
    this.generateFunctions(this.offline ? this.registry.services : [this.service]);
    this.wireSharedResources();

    this.hooks = {
      'before:package:setupProviderConfiguration': () => this.buildRoles(),
      'after:package:compileEvents': () => this.compileOperations(),
      'before:offline:start:init': () => this.prepareOffline(),
      'before:offline:start': () => this.prepareOffline(),
    };
  }

  // --- 1. functions from the registry ----------------------------------------------------------

  /** A resource of the platform service: referenced in its own stack, imported in the others. */
  shared(logicalId, attribute) {
    if (this.owner) return attribute === 'Ref' ? { Ref: logicalId } : { 'Fn::GetAtt': [logicalId, attribute] };
    return { 'Fn::ImportValue': this.exportName(logicalId, attribute) };
  }

  exportName(logicalId, attribute) {
    return `${this.exportPrefix}-${logicalId}-${attribute}`;
  }

  /** Deploy parameters (deploy/settings.yml), resolved. */
  get settings() {
    return (this.serverless.service.custom && this.serverless.service.custom.surco) || {};
  }

  /** The preflight of every route (lib/http/cors.ts); origins from the corsOrigins parameter. */
  corsConfig() {
    const { cors } = this.registry;
    // a comma-separated list: serverless echoes a matching origin, as lib/http/cors.ts does
    return { origin: '${self:custom.surco.corsOrigins}', headers: cors.allowHeaders, maxAge: cors.maxAgeSeconds, allowCredentials: false };
  }

  generateFunctions(services) {
    const cors = this.corsConfig();
    const functions = {};
    for (const service of services) {
      for (const route of service.routes) {
        const catchAll = route.method === 'any';
        functions[route.operationId] = {
          handler: route.handler,
          ...route.lambda,
          iamRoleStatements: statementsFor(route, (id, attr) => this.shared(id, attr)),
          events: route.paths.map((apiPath) => ({
            http: {
              method: route.method,
              path: apiPath,
              // the catch-all answers OPTIONS on unknown paths with its 404; the gateway answers
              // preflights locally (scripts/local/gateway.ts)
              ...(catchAll || this.offline ? {} : { cors }),
              ...(route.stream ? { response: { transferMode: 'STREAM' } } : {}),
            },
          })),
        };
      }
      for (const worker of service.workers) {
        functions[worker.name] = {
          handler: worker.handler,
          ...worker.lambda,
          iamRoleStatements: statementsFor({ touches: worker.touches, consumes: worker.queue }, (id, attr) => this.shared(id, attr)),
          events: worker.queue
            ? [
                {
                  sqs: {
                    arn: this.shared(QUEUES[worker.queue].logicalId, 'Arn'),
                    batchSize: worker.batchSize,
                    ...(worker.maximumBatchingWindow !== undefined ? { maximumBatchingWindow: worker.maximumBatchingWindow } : {}),
                    ...(worker.concurrency ? { maximumConcurrency: worker.concurrency } : {}),
                    functionResponseType: 'ReportBatchItemFailures',
                  },
                },
              ]
            : [{ schedule: { rate: [worker.schedule] } }],
        };
      }
    }
    const existing = this.serverless.configurationInput.functions;
    if (existing && Object.keys(existing).length) {
      throw new Error('surco-plugin: functions come from schemas/index.ts; serverless.*.yml declares none');
    }
    for (const [name, fn] of Object.entries(functions)) this.serverless.extendConfiguration(['functions', name], fn);
  }

  tracing() {
    const value = this.settings.tracing;
    return value === true || value === 'true';
  }

  /** Environment of the shared resources; the REST API and its shared path parts for the others. */
  wireSharedResources() {
    const env = {
      SURCO_TABLE: this.shared('MainTable', 'Ref'),
      SURCO_BUCKET: this.shared('FilesBucket', 'Ref'),
      SURCO_EVENTS_QUEUE_URL: this.shared('EventsQueue', 'Ref'),
      SURCO_IMAGERY_QUEUE_URL: this.shared('ImageryQueue', 'Ref'),
      SURCO_WEBHOOK_QUEUE_URL: this.shared('WebhookQueue', 'Ref'),
      SURCO_WEBHOOK_DLQ_URL: this.shared('WebhookDeadLetterQueue', 'Ref'),
      SURCO_INTERNAL_KEY_SECRET: this.shared('InternalKeySecret', 'Ref'),
      SURCO_SIGNING_SEED_SECRET: this.shared('SigningSeedSecret', 'Ref'),
    };
    for (const [key, value] of Object.entries(env)) this.serverless.extendConfiguration(['provider', 'environment', key], value);
    if (this.owner) {
      // Files and images (Reply.file) leave base64-encoded: the REST API decodes them only for
      // binary media types, and clients ask with any Accept. Request bodies then arrive
      // base64-encoded too, which lib/http/body.ts decodes.
      this.serverless.extendConfiguration(['provider', 'apiGateway', 'binaryMediaTypes'], ['*/*']);
      return;
    }
    const mine = new Set(this.service.routes.flatMap((route) => route.paths.flatMap((p) => [...parentsOf(p), p])));
    const resources = Object.fromEntries(
      this.sharedParents.filter((p) => mine.has(p)).map((p) => [p, { 'Fn::ImportValue': this.exportName('ApiPath', this.pathKey(p)) }]),
    );
    this.serverless.extendConfiguration(['provider', 'apiGateway', 'restApiId'], this.shared('ApiGatewayRestApi', 'Ref'));
    this.serverless.extendConfiguration(['provider', 'apiGateway', 'restApiRootResourceId'], this.shared('ApiGatewayRestApi', 'RootResourceId'));
    if (Object.keys(resources).length) this.serverless.extendConfiguration(['provider', 'apiGateway', 'restApiResources'], resources);
  }

  /** A path as it appears in logical ids (`/api/nc` -> `ApiNc`), as serverless names resources. */
  pathKey(apiPath) {
    return apiPath
      .split('/')
      .map((part) =>
        upperFirst(
          String(part)
            .toLowerCase()
            .replace(/-/g, 'Dash')
            .replace(/\{(.*)\}/g, '$1Var')
            .replace(/[^0-9A-Za-z]/g, ''),
        ),
      )
      .join('');
  }

  // --- 3. roles ----------------------------------------------------------------------------------

  template() {
    return this.serverless.service.provider.compiledCloudFormationTemplate;
  }

  buildRoles() {
    const service = this.serverless.service;
    const resources = (service.resources = service.resources || {});
    resources.Resources = resources.Resources || {};
    resources.Outputs = resources.Outputs || {};
    resources.Resources[LOG_GROUP_ID] = {
      Type: 'AWS::Logs::LogGroup',
      Properties: {
        LogGroupName: service.provider.logs.lambda.logGroup,
        RetentionInDays: Number(this.settings.logRetentionDays || 30),
      },
    };
    const bySid = new Map();
    const roles = new Map();
    for (const name of service.getAllFunctions()) {
      const fn = service.getFunction(name);
      if (!Array.isArray(fn.iamRoleStatements)) throw new Error(`surco-plugin: function ${name} has no iamRoleStatements`);
      const statements = this.tracing() ? [...fn.iamRoleStatements, X_RAY_STATEMENT] : fn.iamRoleStatements;
      for (const statement of statements) {
        const text = JSON.stringify(statement);
        const seen = bySid.get(statement.Sid);
        if (seen && seen !== text) throw new Error(`surco-plugin: Sid ${statement.Sid} names two different statements`);
        bySid.set(statement.Sid, text);
      }
      const sids = [...new Set(statements.map((s) => s.Sid))].sort();
      const logicalId = `IamRole${sids.join('') || 'LogsOnly'}`;
      if (!roles.has(logicalId)) roles.set(logicalId, sids.map((sid) => JSON.parse(bySid.get(sid))));
      fn.role = logicalId;
      fn.disableLogs = true;
      delete fn.iamRoleStatements;
    }
    for (const [logicalId, statements] of roles) {
      resources.Resources[logicalId] = {
        Type: 'AWS::IAM::Role',
        Properties: {
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
          },
          Policies: [
            {
              PolicyName: logicalId,
              PolicyDocument: {
                Version: '2012-10-17',
                Statement: [
                  {
                    Sid: LOG_STATEMENT_SID,
                    Effect: 'Allow',
                    Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
                    Resource: [{ 'Fn::GetAtt': [LOG_GROUP_ID, 'Arn'] }],
                  },
                  ...statements,
                ],
              },
            },
          ],
        },
      };
    }
  }

  // --- 2 and 4. the shared API, its stage, exports and alarms ---------------------------------

  compileOperations() {
    const template = this.template();
    this.addFunctionAlarms(template);
    if (this.owner) {
      this.addSharedParents(template);
      this.addStage(template);
      this.addExports(template);
      this.addGatewayResponseCors();
    }
  }

  /** API Gateway's own answers (deploy/api.yml) carry the CORS origin too, or browsers cannot read them. */
  addGatewayResponseCors() {
    const origins = String(this.settings.corsOrigins || '*');
    const value = origins.trim() === '*' ? "'*'" : 'method.request.header.origin';
    for (const resource of Object.values(this.serverless.service.resources.Resources)) {
      if (resource.Type !== 'AWS::ApiGateway::GatewayResponse') continue;
      resource.Properties.ResponseParameters = {
        ...resource.Properties.ResponseParameters,
        'gatewayresponse.header.Access-Control-Allow-Origin': value,
      };
    }
  }

  addSharedParents(template) {
    const resources = template.Resources;
    for (const apiPath of this.sharedParents) {
      const logicalId = `ApiGatewayResource${this.pathKey(apiPath)}`;
      if (!resources[logicalId]) {
        const parent = parentsOf(apiPath).pop();
        resources[logicalId] = {
          Type: 'AWS::ApiGateway::Resource',
          Properties: {
            ParentId: parent
              ? { Ref: `ApiGatewayResource${this.pathKey(parent)}` }
              : { 'Fn::GetAtt': ['ApiGatewayRestApi', 'RootResourceId'] },
            PathPart: apiPath.split('/').pop(),
            RestApiId: { Ref: 'ApiGatewayRestApi' },
          },
        };
      }
      template.Outputs[`ApiPath${this.pathKey(apiPath)}`] = {
        Description: `API resource ${apiPath}, shared by the services`,
        Value: { Ref: logicalId },
        Export: { Name: this.exportName('ApiPath', this.pathKey(apiPath)) },
      };
    }
  }

  addExports(template) {
    for (const [logicalId, attribute] of SHARED_EXPORTS) {
      template.Outputs[`${logicalId}${attribute === 'Ref' ? '' : attribute}Export`] = {
        Value: attribute === 'Ref' ? { Ref: logicalId } : { 'Fn::GetAtt': [logicalId, attribute] },
        Export: { Name: this.exportName(logicalId, attribute) },
      };
    }
  }

  /**
   * The stage as a resource of its own (serverless would set its options through the SDK after
   * deploying, outside the template): throttling, JSON access logs, tracing. The platform's
   * deployment no longer names the stage; the other services' deployments do, which points the
   * stage at a new snapshot of the whole API each time one of them deploys.
   */
  addStage(template) {
    const deployments = Object.entries(template.Resources).filter(([, r]) => r.Type === 'AWS::ApiGateway::Deployment');
    if (deployments.length !== 1) throw new Error('surco-plugin: the platform service must have one API deployment');
    const [deploymentId, deployment] = deployments[0];
    delete deployment.Properties.StageName;
    const s = this.settings;
    // The account-wide role API Gateway logs with (deploy/operations.yml); `--param
    // apiGatewayAccountRole=false` where the account already has one.
    const accountRole = !(s.apiGatewayAccountRole === false || s.apiGatewayAccountRole === 'false');
    if (!accountRole) {
      delete template.Resources.ApiGatewayAccount;
      delete template.Resources.ApiGatewayCloudWatchRole;
    }
    template.Resources.ApiGatewayStage = {
      Type: 'AWS::ApiGateway::Stage',
      ...(accountRole ? { DependsOn: ['ApiGatewayAccount'] } : {}),
      Properties: {
        RestApiId: { Ref: 'ApiGatewayRestApi' },
        DeploymentId: { Ref: deploymentId },
        StageName: this.stage,
        TracingEnabled: this.tracing(),
        MethodSettings: [
          {
            ResourcePath: '/*',
            HttpMethod: '*',
            ThrottlingRateLimit: Number(s.throttleRate),
            ThrottlingBurstLimit: Number(s.throttleBurst),
            MetricsEnabled: true,
            LoggingLevel: 'OFF',
          },
        ],
        AccessLogSetting: {
          DestinationArn: { 'Fn::GetAtt': ['ApiAccessLogGroup', 'Arn'] },
          Format: JSON.stringify(ACCESS_LOG_FORMAT),
        },
      },
    };
  }

  /** Errors and throttles of every function of the service, ten functions an alarm. */
  addFunctionAlarms(template) {
    const functionIds = Object.entries(template.Resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .map(([id]) => id)
      .sort();
    const topic = this.shared('AlarmTopic', 'Ref');
    const prefix = upperFirst(this.service.name);
    for (const [metric, threshold] of [
      ['Errors', Number(this.settings.alarmFunctionErrors || 1)],
      ['Throttles', Number(this.settings.alarmFunctionThrottles || 1)],
    ]) {
      for (let i = 0; i < functionIds.length; i += METRICS_PER_ALARM) {
        const group = functionIds.slice(i, i + METRICS_PER_ALARM);
        const n = i / METRICS_PER_ALARM + 1;
        template.Resources[`${prefix}Function${metric}Alarm${n}`] = {
          Type: 'AWS::CloudWatch::Alarm',
          Properties: {
            AlarmDescription: `Lambda ${metric.toLowerCase()} in ${group.length} functions of the ${this.service.name} service (docs/deploy.md, Alarms)`,
            ComparisonOperator: 'GreaterThanOrEqualToThreshold',
            Threshold: threshold,
            EvaluationPeriods: 1,
            DatapointsToAlarm: 1,
            TreatMissingData: 'notBreaching',
            AlarmActions: [topic],
            OKActions: [topic],
            Metrics: [
              ...group.map((id, k) => ({
                Id: `f${k}`,
                ReturnData: false,
                MetricStat: {
                  Metric: { Namespace: 'AWS/Lambda', MetricName: metric, Dimensions: [{ Name: 'FunctionName', Value: { Ref: id } }] },
                  Period: 300,
                  Stat: 'Sum',
                },
              })),
              { Id: 'total', Expression: 'SUM(METRICS())', Label: `${metric} (sum)`, ReturnData: true },
            ],
          },
        };
      }
    }
  }

  // --- 5. offline --------------------------------------------------------------------------------

  async prepareOffline() {
    if (this.offlinePrepared) return;
    this.offlinePrepared = true;
    this.resolveLocalEnvironment();
    await this.buildLocal();
    this.writeStreamManifest();
  }

  writeStreamManifest() {
    const service = this.serverless.service;
    const root = this.serverless.serviceDir;
    const streams = [];
    for (const name of service.getAllFunctions()) {
      const fn = service.getFunction(name);
      const streaming = (fn.events || []).filter((event) => {
        const transferMode = event.http && event.http.response && event.http.response.transferMode;
        return typeof transferMode === 'string' && transferMode.toUpperCase() === 'STREAM';
      });
      if (!streaming.length) continue;
      fn.events = fn.events.filter((event) => !streaming.includes(event));
      const dot = fn.handler.lastIndexOf('.');
      streams.push({
        function: name,
        module: `${fn.handler.slice(0, dot)}.mjs`,
        export: fn.handler.slice(dot + 1),
        timeout: fn.timeout || service.provider.timeout || 6,
        environment: { ...(service.provider.environment || {}), ...(fn.environment || {}) },
        routes: streaming.map((event) => ({ method: event.http.method.toUpperCase(), path: event.http.path })),
      });
    }
    fs.writeFileSync(path.join(root, '.surco', 'build', 'streams.json'), JSON.stringify({ streams }, null, 2));
  }

  async buildLocal() {
    const service = this.serverless.service;
    const root = this.serverless.serviceDir;
    const outdir = path.join(root, '.surco', 'build');
    const options = service.custom.esbuild || {};
    const entryPoints = {};
    for (const name of service.getAllFunctions()) {
      const fn = service.getFunction(name);
      const file = fn.handler.slice(0, fn.handler.lastIndexOf('.'));
      entryPoints[file] = path.join(root, `${file}.ts`);
      fn.skipEsbuild = true; // built here; serverless-esbuild leaves it alone
    }
    const started = Date.now();
    await require('esbuild').build({
      entryPoints,
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: options.target || 'node20',
      sourcemap: true,
      mainFields: options.mainFields,
      banner: options.banner,
      loader: options.loader,
      alias: options.alias,
      // the production build's plugins too (deploy/esbuild.yml: pure-schemas, ADR 0008)
      plugins: options.plugins ? require(path.join(root, options.plugins)) : [],
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      logLevel: 'warning',
    });
    service.custom['serverless-offline'] = { ...service.custom['serverless-offline'], location: path.relative(root, outdir) };
    this.serverless.cli.log(`surco: built ${Object.keys(entryPoints).length} handlers in ${Date.now() - started} ms`);
  }

  resolveLocalEnvironment() {
    const service = this.serverless.service;
    const resources = (service.resources && service.resources.Resources) || {};
    const { resolve } = localResolver(resources, {
      region: service.provider.region,
      sqsEndpoint: process.env.SURCO_SQS_ENDPOINT,
    });
    const overrides = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('SURCO_')));
    const resolveEnv = (env) => ({ ...resolve(env || {}), ...overrides });
    service.provider.environment = resolveEnv(service.provider.environment);
    for (const name of service.getAllFunctions()) {
      const fn = service.getFunction(name);
      if (fn.environment) fn.environment = resolveEnv(fn.environment);
    }
  }
}

/**
 * One JSON line per request. User and extension are known only inside the function (the bearer
 * token is verified there, ADR 0004): its `request` log line carries them with the same
 * `apiRequestId`, and `lambdaRequestId` is its Lambda request id (docs/deploy.md).
 */
const ACCESS_LOG_FORMAT = {
  apiRequestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  lambdaRequestId: '$context.integration.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  path: '$context.path',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatencyMs: '$context.integration.latency',
  error: '$context.error.message',
};

module.exports = SurcoPlugin;
module.exports.sharedParents = sharedParents;
module.exports.SHARED_EXPORTS = SHARED_EXPORTS;
