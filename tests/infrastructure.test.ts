// The deployable template (`npm run package`, offline, no credentials) and the local stack that
// mirrors it: least privilege per function, encryption, dead-letter queue, resource budget, and
// routes declared in serverless.yml exactly as the schemas define them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from './helpers/api';
import { allRoutes } from '../schemas/index';

const root = resolve(import.meta.dirname, '..');
let outDir: string;
let template: { Resources: Record<string, { Type: string; Properties: any; DependsOn?: unknown }> };

const ofType = (type: string) => Object.entries(template.Resources).filter(([, r]) => r.Type === type);

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'surco-package-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AWS_')));
  execFileSync(process.execPath, [join(root, 'node_modules/osls/bin/serverless.js'), 'package', '--stage', 'prod', '--package', outDir], {
    cwd: root,
    env: { ...env, HOME: outDir, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: 'pipe',
  });
  template = JSON.parse(readFileSync(join(outDir, 'cloudformation-template-update-stack.json'), 'utf8'));
}, 240_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('npm run package: the CloudFormation template', () => {
  it('stays under the CloudFormation limit of 500 resources', () => {
    expect(Object.keys(template.Resources).length).toBeLessThan(500);
  });

  it('gives every function a role with exactly its declared statements, plus its logs', () => {
    const roles: Record<string, { Properties: any }> = Object.fromEntries(ofType('AWS::IAM::Role'));
    expect(roles.IamRoleLambdaExecution).toBeUndefined();
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = roles[roleId]!.Properties.Policies[0].PolicyDocument.Statement;
      expect(statements[0].Sid).toBe('FunctionLogs');
      expect(JSON.stringify(statements)).not.toContain('"Resource":"*"');
      expect(JSON.stringify(statements)).not.toMatch(/"Action":"?\w+:\*"?/);
    }
    const tokens = template.Resources.InternalTokensCreateLambdaFunction!.Properties.Role['Fn::GetAtt'][0];
    const getfields = template.Resources.FieldsListLambdaFunction!.Properties.Role['Fn::GetAtt'][0];
    const sids = (roleId: string) => roles[roleId]!.Properties.Policies[0].PolicyDocument.Statement.map((s: any) => s.Sid);
    expect(sids(tokens)).toContain('SigningSeedRead');
    expect(sids(getfields)).toEqual(['FunctionLogs', 'TableRead']);
  });

  it('encrypts the table (with point-in-time recovery), the bucket and the queues', () => {
    const table = template.Resources.MainTable!;
    expect(table.Properties.SSESpecification.SSEEnabled).toBe(true);
    expect(table.Properties.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled).toBe(true);
    const bucket = template.Resources.FilesBucket!.Properties;
    expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBeTruthy();
    expect(Object.values(bucket.PublicAccessBlockConfiguration)).toEqual([true, true, true, true]);
    expect(bucket.CorsConfiguration.CorsRules[0].AllowedMethods).toContain('POST');
    for (const [, queue] of ofType('AWS::SQS::Queue')) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('sends failed events to a dead-letter queue and reports partial batch failures', () => {
    const queue = template.Resources.EventsQueue!.Properties;
    expect(queue.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': ['EventsDeadLetterQueue', 'Arn'] });
    expect(queue.RedrivePolicy.maxReceiveCount).toBeGreaterThan(1);
    const [, mapping] = ofType('AWS::Lambda::EventSourceMapping')[0]!;
    expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('runs functions on a supported Node.js runtime, logging JSON to one group', () => {
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      expect(['nodejs22.x', 'nodejs24.x']).toContain(fn.Properties.Runtime);
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', LogGroup: '/aws/lambda/surco-prod' });
    }
  });

  it('zips one small bundle per function', () => {
    for (const [name] of ofType('AWS::Lambda::Function')) {
      const zip = join(outDir, `${name.replace(/LambdaFunction$/, '').replace(/^./, (c) => c.toLowerCase())}.zip`);
      expect(existsSync(zip)).toBe(true);
      expect(readFileSync(zip).length).toBeLessThan(5 * 1024 * 1024);
    }
  });
});

describe('serverless.yml declares the routes the schemas define', () => {
  const methods = () =>
    ofType('AWS::ApiGateway::Method').map(([, m]) => {
      const parts: string[] = [];
      let ref = m.Properties.ResourceId;
      while (ref?.Ref && template.Resources[ref.Ref]) {
        const resource = template.Resources[ref.Ref]!;
        parts.unshift(resource.Properties.PathPart);
        ref = resource.Properties.ParentId;
      }
      return `${m.Properties.HttpMethod.toLowerCase()} /${parts.join('/')}`;
    });

  it('serves every path of every route, with its method', () => {
    const served = new Set(methods());
    for (const route of allRoutes) for (const path of route.paths) expect(served).toContain(`${route.method} ${path}`);
  });

  it('streams the notification stream: integration transfer mode STREAM through response-streaming invocations', () => {
    const integrations = ofType('AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties.Integration)
      .filter((integration) => JSON.stringify(integration.Uri).includes('NcStreamLambdaFunction'));
    expect(integrations).toHaveLength(2); // /nc/stream and /api/nc/stream
    for (const integration of integrations) {
      expect(integration.Type).toBe('AWS_PROXY');
      expect(integration.ResponseTransferMode).toBe('STREAM');
      const uri = JSON.stringify(integration.Uri);
      expect(uri).toContain('lambda:path/2021-11-15/functions/');
      expect(uri).toContain('/response-streaming-invocations');
    }
    // no other route streams; the stream's function may run for the 15 minutes a stream may last
    const streaming = ofType('AWS::ApiGateway::Method').filter(([, m]) => m.Properties.Integration?.ResponseTransferMode === 'STREAM');
    expect(streaming).toHaveLength(2);
    expect(template.Resources.NcStreamLambdaFunction!.Properties.Timeout).toBe(900);
  });
});

describe('the local stack mirrors the template', () => {
  it('creates the table with the key schema and indexes serverless.yml deploys', async () => {
    const { endpoints, table } = stack();
    const client = new DynamoDBClient({ region: 'us-east-1', endpoint: endpoints.dynamodb, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const described = (await client.send(new DescribeTableCommand({ TableName: table }))).Table!;
    const declared = template.Resources.MainTable!.Properties;
    expect(described.KeySchema).toEqual(declared.KeySchema);
    expect(described.GlobalSecondaryIndexes?.map((g) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema }))).toEqual(
      declared.GlobalSecondaryIndexes.map((g: any) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema })),
    );
    expect(table).toBe('surco-local-main');
    client.destroy();
  });
});
