'use strict';
// Surco's serverless plugin. Two jobs, both small:
//
// 1. Least-privilege IAM per function without one role per function. Every function declares
//    `iamRoleStatements` (statements picked from custom.iam in serverless.yml). Functions whose
//    sets are identical share one role, named after the statements' Sids; every role also gets
//    write access to the shared log group. A stack of ~100 functions with a role each would
//    pass CloudFormation's 500-resource limit (docs/adr/0002-iam-and-stack-size.md).
//    Functions log to one group (provider.logs.lambda.logGroup), so no per-function log group
//    is created.
//
// 2. `offline start` (stage local): CloudFormation references in the functions' environment
//    (!Ref MainTable, !Ref EventsQueue, ...) are resolved to the names the local stack uses
//    (scripts/serverless/local-names.cjs), and every SURCO_* variable of the starting process
//    (endpoints, keys; set by scripts/start.ts) is passed to the functions.
//    Every handler is built in one esbuild pass with shared chunks (well under a second), instead
//    of serverless-esbuild's build per function (seconds each); serverless-esbuild still builds
//    the per-function bundles that `package` zips for AWS.
//    Routes whose response streams (`response.transferMode: STREAM`) cannot be served by
//    serverless-offline: they are taken out of its routes and listed, with their built module and
//    environment, in .surco/build/streams.json for scripts/local/gateway.ts (docs/adr/0005).

const path = require('node:path');
const { localResolver } = require('./local-names.cjs');

const LOG_STATEMENT_SID = 'FunctionLogs';

class SurcoPlugin {
  constructor(serverless) {
    this.serverless = serverless;
    serverless.configSchemaHandler.defineFunctionProperties('aws', {
      properties: {
        iamRoleStatements: { type: 'array', items: { type: 'object' } },
      },
    });
    this.hooks = {
      'before:package:setupProviderConfiguration': () => this.buildRoles(),
      'before:offline:start:init': () => this.prepareOffline(),
      'before:offline:start': () => this.prepareOffline(),
    };
  }

  buildRoles() {
    const service = this.serverless.service;
    const resources = (service.resources = service.resources || {});
    resources.Resources = resources.Resources || {};
    const logGroupLogicalId = 'FunctionsLogGroup';
    if (!resources.Resources[logGroupLogicalId]) {
      throw new Error(`surco-plugin: resources.${logGroupLogicalId} is required`);
    }
    const bySid = new Map();
    const roles = new Map();
    for (const name of service.getAllFunctions()) {
      const fn = service.getFunction(name);
      const statements = fn.iamRoleStatements;
      if (!Array.isArray(statements)) {
        throw new Error(`surco-plugin: function ${name} must declare iamRoleStatements (may be [])`);
      }
      for (const statement of statements) {
        if (!statement.Sid) throw new Error(`surco-plugin: a statement of ${name} has no Sid`);
        const seen = bySid.get(statement.Sid);
        const text = JSON.stringify(statement);
        if (seen && seen !== text) {
          throw new Error(`surco-plugin: Sid ${statement.Sid} names two different statements`);
        }
        bySid.set(statement.Sid, text);
      }
      const sids = [...new Set(statements.map((s) => s.Sid))].sort();
      const logicalId = `IamRole${sids.join('') || 'LogsOnly'}`;
      if (!roles.has(logicalId)) {
        roles.set(logicalId, sids.map((sid) => JSON.parse(bySid.get(sid))));
      }
      fn.role = logicalId;
      fn.disableLogs = true;
    }
    for (const [logicalId, statements] of roles) {
      resources.Resources[logicalId] = {
        Type: 'AWS::IAM::Role',
        Properties: {
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: ['lambda.amazonaws.com'] },
                Action: ['sts:AssumeRole'],
              },
            ],
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
                    Resource: [{ 'Fn::GetAtt': [logGroupLogicalId, 'Arn'] }],
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
    const file = path.join(root, '.surco', 'build', 'streams.json');
    require('node:fs').writeFileSync(file, JSON.stringify({ streams }, null, 2));
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
    const overrides = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => key.startsWith('SURCO_')),
    );
    const resolveEnv = (env) => ({ ...resolve(env || {}), ...overrides });
    service.provider.environment = resolveEnv(service.provider.environment);
    for (const name of service.getAllFunctions()) {
      const fn = service.getFunction(name);
      if (fn.environment) fn.environment = resolveEnv(fn.environment);
    }
  }
}

module.exports = SurcoPlugin;
