// The local API process (started by scripts/local/stack.ts): builds the functions of every service
// (scripts/local/build.ts), runs them in the local Lambda runtime (scripts/local/runtime.ts) behind
// the local API Gateway (scripts/local/gateway.ts), polls the queue workers' queues and runs the
// scheduled functions (scripts/local/pollers.ts). Its configuration is the manifest the stack
// writes (LocalApiManifest). It stops on SIGINT, SIGTERM and SIGHUP, and when the stack that
// started it goes away (its IPC channel closes), however that process ended.
//
//   node --import tsx scripts/local/api.ts <manifest.json>
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { services } from '../../schemas/index';
import { buildFunctions, handlerExport, handlerModule, RUNTIME_WORKER } from './build';
import { createGateway } from './gateway';
import { type Poller, startPoller, startSchedule, startStreamPoller } from './pollers';
import { type InvocationError, LambdaRuntime, type LocalFunction, type Pool } from './runtime';

export interface LocalApiManifest {
  root: string;
  buildDir: string;
  host: string;
  port: number;
  /** Lambda's Invoke API (POST /2015-03-31/functions/<name>/invocations). */
  lambdaPort: number;
  stage: string;
  region: string;
  /** The functions' environment, resolved to the local stack's resources. */
  env: Record<string, string>;
  /** Lambda settings every function has unless its route or worker says otherwise (deploy/provider.yml). */
  defaults: { timeout: number; memorySize: number };
  sqs: { endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  /** Queue workers to poll: each with its queue's URL and ARN. */
  pollers: Array<{ name: string; queueUrl: string; queueArn: string; batchSize: number; concurrency: number }>;
  schedules: Array<{ name: string; rate: string }>;
  /** DynamoDB Local, whose table streams feed the stream workers. */
  dynamodb: { endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  /** Stream workers: the table whose stream each reads, its filter, retries and dead-letter queue. */
  streams: Array<{
    name: string;
    table: string;
    batchSize: number;
    partitions: string[];
    retries: number;
    deadLetterUrl: string;
  }>;
  /** Worker threads of each of the runtime's pools (requests; events). */
  runtimeWorkers: number;
  watch: boolean;
  /** A REPORT line per invocation (the benchmarks read the functions' times from it). */
  reports?: boolean;
}

const say = (message: string) => console.log(`local api: ${message}`);

async function main() {
  const manifest = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LocalApiManifest;
  const functions: LocalFunction[] = [];
  const handlers: string[] = [];
  const add = (
    name: string,
    handler: string,
    lambda: { timeout?: number; memorySize?: number } = {},
    stream = false,
    pool: Pool = 'requests',
  ) => {
    handlers.push(handler);
    functions.push({
      name,
      module: join(manifest.buildDir, `${handlerModule(handler)}.mjs`),
      exportName: handlerExport(handler),
      timeoutSeconds: lambda.timeout ?? manifest.defaults.timeout,
      memoryMb: lambda.memorySize ?? manifest.defaults.memorySize,
      stream,
      pool,
    });
  };
  for (const service of services) {
    for (const route of service.routes) add(route.operationId, route.handler, route.lambda, Boolean(route.stream));
    for (const worker of service.workers) add(worker.name, worker.handler, worker.lambda, false, 'events');
    if (service.authorizer) add(service.authorizer.name, service.authorizer.handler, service.authorizer.lambda);
  }
  const authorizer = services.find((service) => service.authorizer)?.authorizer?.name;

  const started = Date.now();
  let runtime: LambdaRuntime | undefined;
  const build = await buildFunctions({
    root: manifest.root,
    outdir: manifest.buildDir,
    handlers,
    watch: manifest.watch,
    onRebuild: (errors) => {
      if (errors) return say(`rebuild failed (${errors} errors); the functions keep running as they were`);
      say('rebuilt; new invocations run the new code');
      runtime?.restart();
    },
  });
  say(`built ${new Set(functions.map((fn) => fn.module)).size} handler modules in ${Date.now() - started} ms`);

  runtime = new LambdaRuntime({
    workerScript: join(manifest.buildDir, `${RUNTIME_WORKER}.mjs`),
    functions,
    env: manifest.env,
    workers: manifest.runtimeWorkers,
    say,
    report: manifest.reports
      ? ({ fn, requestId, durationMs, errorType }) =>
          console.log(
            `REPORT ${fn} RequestId: ${requestId} Duration: ${durationMs.toFixed(2)} ms${errorType ? ` Error: ${errorType}` : ''}`,
          )
      : undefined,
  });
  await runtime.ready();
  const routes = services.flatMap((service) => service.routes);
  const server = createGateway({ root: manifest.root, routes, runtime, stage: manifest.stage, authorizer, log: say });
  server.keepAliveTimeout = 65_000;

  const sqs = new SQSClient({
    region: manifest.region,
    endpoint: manifest.sqs.endpoint,
    credentials: manifest.sqs.credentials,
  });
  const pollers: Poller[] = [];
  for (const poller of manifest.pollers) {
    for (let i = 0; i < poller.concurrency; i++) {
      pollers.push(
        startPoller({
          sqs,
          runtime,
          queueUrl: poller.queueUrl,
          queueArn: poller.queueArn,
          region: manifest.region,
          functionName: poller.name,
          batchSize: poller.batchSize,
          retryDelaySeconds: 1,
          say,
        }),
      );
    }
  }
  const dynamo = new DynamoDBClient({
    region: manifest.region,
    endpoint: manifest.dynamodb.endpoint,
    credentials: manifest.dynamodb.credentials,
  });
  const streams = new DynamoDBStreamsClient({
    region: manifest.region,
    endpoint: manifest.dynamodb.endpoint,
    credentials: manifest.dynamodb.credentials,
  });
  for (const stream of manifest.streams) {
    const table = await dynamo.send(new DescribeTableCommand({ TableName: stream.table }));
    const streamArn = table.Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${stream.table} has no stream for ${stream.name}`);
    pollers.push(
      startStreamPoller({
        streams,
        sqs,
        runtime,
        streamArn,
        region: manifest.region,
        functionName: stream.name,
        batchSize: stream.batchSize,
        partitions: stream.partitions,
        retries: stream.retries,
        deadLetterUrl: stream.deadLetterUrl,
        // Lambda polls a stream's shards four times a second
        pollMs: 250,
        say,
      }),
    );
  }
  for (const schedule of manifest.schedules) {
    pollers.push(
      startSchedule({ runtime, functionName: schedule.name, rate: schedule.rate, region: manifest.region, say }),
    );
  }

  const names = new Map<string, string>();
  for (const service of services) {
    for (const { name } of [
      ...service.routes.map((r) => ({ name: r.operationId })),
      ...service.workers,
      ...(service.authorizer ? [service.authorizer] : []),
    ]) {
      names.set(`surco-${service.name}-${manifest.stage}-${name}`, name);
    }
  }
  const invokeApi = lambdaInvokeApi(runtime, (name) => names.get(name) ?? (runtime?.has(name) ? name : undefined));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const listening of [server, invokeApi]) {
      listening.close();
      listening.closeAllConnections();
    }
    await Promise.all(pollers.map((p) => p.stop()));
    await runtime?.stop();
    await build.stop();
    sqs.destroy();
    streams.destroy();
    dynamo.destroy();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());
  // the stack that started this process is gone (stopped, or killed outright): so is this process
  process.on('disconnect', () => void stop());

  invokeApi.listen(manifest.lambdaPort, manifest.host);
  server.listen(manifest.port, manifest.host, () =>
    say(
      `listening on http://${manifest.host}:${manifest.port} (${functions.length} functions, ${manifest.runtimeWorkers} workers for requests, ${manifest.runtimeWorkers} for events)`,
    ),
  );
}

/**
 * Lambda's Invoke API (RequestResponse) over the local runtime, by function name (`surco-<service>-<stage>-<name>`,
 * as deployed, or the bare name): what EventBridge, the AWS CLI or a test invoking a function directly calls.
 */
function lambdaInvokeApi(runtime: LambdaRuntime, resolve: (name: string) => string | undefined): Server {
  return createServer((req, res) => {
    const found = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url ?? '');
    const name = found && req.method === 'POST' ? resolve(decodeURIComponent(found[1]!)) : undefined;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      if (!name) {
        res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' });
        return res.end(JSON.stringify({ Type: 'User', message: `Function not found: ${found?.[1] ?? req.url}` }));
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let payload: unknown = {};
      try {
        payload = text ? JSON.parse(text) : {};
      } catch {
        res.writeHead(400, {
          'content-type': 'application/json',
          'x-amzn-errortype': 'InvalidRequestContentException',
        });
        return res.end(JSON.stringify({ Type: 'User', message: 'Could not parse request body into json' }));
      }
      runtime.invoke(name, payload, crypto.randomUUID()).then(
        (result) => {
          res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' });
          res.end(JSON.stringify(result));
        },
        (error: InvocationError) => {
          res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' });
          res.end(JSON.stringify({ errorType: error.errorType, errorMessage: error.message }));
        },
      );
    });
  });
}

main().catch((error: Error) => {
  console.error(`local api: ${error.stack ?? error.message}`);
  process.exit(1);
});
