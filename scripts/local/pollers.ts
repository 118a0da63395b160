// SQS -> Lambda locally, as an event source mapping does: each queue worker's queue is polled and
// its function invoked (through the local runtime) with batches, honouring `batchItemFailures`:
// successful records are deleted; failed ones become visible again after a short local back-off
// and, past the queue's maxReceiveCount, SQS moves them to the dead-letter queue. Scheduled
// functions run at their rate (EventBridge `rate(...)`), the first time one period after start.
// The table's stream feeds its worker as a DynamoDB event source mapping does (startStreamPoller).
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { LambdaRuntime } from './runtime';

/** How long an idle queue's poll waits for a message (SQS's longest). */
const LONG_POLL_S = 20;

export interface Poller {
  stop(): Promise<void>;
}

function sqsRecord(message: Message, queueArn: string, region: string) {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: message.Attributes ?? {},
    messageAttributes: message.MessageAttributes ?? {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

export function startPoller(options: {
  sqs: SQSClient;
  runtime: LambdaRuntime;
  queueUrl: string;
  queueArn: string;
  region: string;
  functionName: string;
  batchSize: number;
  retryDelaySeconds: number;
  say: (message: string) => void;
}): Poller {
  let stopped = false;
  const abort = new AbortController();
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const receive = async (max: number, waitSeconds: number): Promise<Message[]> => {
    const out = await options.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    return out.Messages ?? [];
  };
  const loop = (async () => {
    while (!stopped) {
      let messages: Message[] = [];
      try {
        // A long poll, as Lambda's pollers do: an idle queue costs one waiting request, not a short
        // poll every 50 ms per poller (16 pollers made ~180 requests a second, a large part of the
        // local stack's CPU). local-aws-sqs ends a long poll early only once it holds
        // MaxNumberOfMessages, so the long poll asks for one message and the rest of the batch is
        // taken at once after it.
        messages = await receive(1, LONG_POLL_S);
        if (messages.length && options.batchSize > 1) messages.push(...(await receive(options.batchSize - 1, 0)));
      } catch {
        if (stopped) break;
        await pause(500);
        continue;
      }
      if (!messages.length) continue;
      let failed = new Set(messages.map((m) => m.MessageId!));
      try {
        const result = (await options.runtime.invoke(
          options.functionName,
          { Records: messages.map((m) => sqsRecord(m, options.queueArn, options.region)) },
          crypto.randomUUID(),
        )) as { batchItemFailures?: Array<{ itemIdentifier: string }> } | null;
        failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch (error) {
        if (stopped) break;
        options.say(`worker ${options.functionName} failed: ${(error as Error).message}`);
      }
      const done = messages.filter((m) => !failed.has(m.MessageId!));
      const retry = messages.filter((m) => failed.has(m.MessageId!));
      // As in AWS, a message not deleted (the queue unreachable meanwhile) comes back after its
      // visibility timeout, and the worker's idempotency keeps it from being applied twice.
      try {
        if (done.length) {
          await options.sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
            }),
          );
        }
        if (retry.length) {
          await options.sqs.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: retry.map((m, i) => ({
                Id: String(i),
                ReceiptHandle: m.ReceiptHandle!,
                VisibilityTimeout: options.retryDelaySeconds,
              })),
            }),
          );
        }
      } catch (error) {
        if (stopped) break;
        options.say(
          `worker ${options.functionName}: the queue did not take the batch's outcome: ${(error as Error).message}`,
        );
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      abort.abort();
      await loop.catch(() => undefined);
    },
  };
}

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** The period of an EventBridge `rate(n unit)` expression, in milliseconds. */
export function ratePeriodMs(expression: string): number {
  const found = /^rate\((\d+)\s+(minute|hour|day)s?\)$/.exec(expression.trim());
  if (!found) throw new Error(`unsupported schedule ${expression} (rate(n minutes|hours|days) only)`);
  return Number(found[1]) * UNIT_MS[found[2]!]!;
}

/** Runs a scheduled function at its rate, with the event EventBridge sends. */
export function startSchedule(options: {
  runtime: LambdaRuntime;
  functionName: string;
  rate: string;
  region: string;
  say: (message: string) => void;
}): Poller {
  const timer = setInterval(() => {
    const event = {
      version: '0',
      id: crypto.randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time: new Date().toISOString(),
      region: options.region,
      resources: [],
      detail: {},
    };
    options.runtime
      .invoke(options.functionName, event, crypto.randomUUID())
      .catch((error: Error) => options.say(`schedule ${options.functionName} failed: ${error.message}`));
  }, ratePeriodMs(options.rate));
  timer.unref();
  return { stop: async () => clearInterval(timer) };
}

// --- DynamoDB Streams -> Lambda, as an event source mapping does -------------------------------

/** A stream record as Lambda's event carries it (JSON: times in seconds, binary values base64). */
function lambdaStreamRecord(record: StreamRecordOut, streamArn: string, region: string) {
  const json = JSON.parse(
    JSON.stringify(record.dynamodb ?? {}, (_key, value) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
    ),
  ) as Record<string, unknown>;
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: { ...json, ApproximateCreationDateTime: created ? created.getTime() / 1000 : Date.now() / 1000 },
    eventSourceARN: streamArn,
  };
}

type StreamRecordOut = NonNullable<GetRecordsCommandOutput['Records']>[number];

/**
 * One batch of stream records through the function, as Lambda's DynamoDB event source mapping
 * treats it (deploy: ReportBatchItemFailures, BisectBatchOnFunctionError, MaximumRetryAttempts, an
 * on-failure destination): a failure the function reports retries the batch from that record; an
 * error it throws splits the batch in two, each half delivered in turn the same way, so that one
 * record that always fails is isolated and the records around it are still delivered; a batch of
 * one record still failing after `retries` retries goes to the dead-letter queue (its positions).
 * Records may be delivered more than once (at least once, as in AWS); never out of order.
 */
export async function deliverStreamBatch<R extends { dynamodb?: { SequenceNumber?: string } }>(
  records: R[],
  options: {
    retries: number;
    invoke: (batch: R[]) => Promise<{ batchItemFailures?: Array<{ itemIdentifier: string }> } | null>;
    deadLetter: (batch: R[]) => Promise<void>;
    pause: (ms: number) => Promise<unknown>;
    say: (message: string) => void;
    stopped?: () => boolean;
  },
): Promise<void> {
  let batch = records;
  for (let attempt = 0; batch.length; attempt++) {
    try {
      const failed = (await options.invoke(batch))?.batchItemFailures?.[0]?.itemIdentifier;
      if (failed === undefined) return;
      options.say(`reported a failure at ${failed}`);
      batch = batch.slice(
        Math.max(
          0,
          batch.findIndex((r) => r.dynamodb?.SequenceNumber === failed),
        ),
      );
    } catch (error) {
      if (options.stopped?.()) return;
      options.say(`failed: ${(error as Error).message}`);
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        await deliverStreamBatch(batch.slice(0, half), options);
        await deliverStreamBatch(batch.slice(half), options);
        return;
      }
    }
    if (attempt >= options.retries) {
      await options.deadLetter(batch);
      return;
    }
    await options.pause(500 * 2 ** attempt);
  }
}

/**
 * Polls the table's stream and invokes the function with its records, oldest first, as Lambda's
 * event source mapping does: only the items of the given partitions (its filter), each batch
 * delivered by deliverStreamBatch (retried from the record the function reports, bisected when it
 * throws, a record failing past `retries` recorded on the dead-letter queue by its stream
 * positions), shards followed as they split.
 */
export function startStreamPoller(options: {
  streams: DynamoDBStreamsClient;
  sqs: SQSClient;
  runtime: LambdaRuntime;
  streamArn: string;
  region: string;
  functionName: string;
  batchSize: number;
  partitions: readonly string[];
  retries: number;
  deadLetterUrl: string;
  pollMs: number;
  say: (message: string) => void;
}): Poller {
  let stopped = false;
  const abort = new AbortController();
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Open shards' iterators, by shard id; shards seen and finished. */
  const iterators = new Map<string, string>();
  const done = new Set<string>();
  let first = true;

  const discover = async () => {
    const out = await options.streams.send(new DescribeStreamCommand({ StreamArn: options.streamArn }), {
      abortSignal: abort.signal,
    });
    for (const shard of out.StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (iterators.has(id) || done.has(id)) continue;
      const closed = Boolean(shard.SequenceNumberRange?.EndingSequenceNumber);
      // at start: from now on (open shards); a shard that appears later: from its beginning
      if (first && closed) {
        done.add(id);
        continue;
      }
      const iterator = await options.streams.send(
        new GetShardIteratorCommand({
          StreamArn: options.streamArn,
          ShardId: id,
          ShardIteratorType: first ? 'LATEST' : 'TRIM_HORIZON',
        }),
        { abortSignal: abort.signal },
      );
      if (iterator.ShardIterator) iterators.set(id, iterator.ShardIterator);
    }
    first = false;
  };

  const deliver = async (records: StreamRecordOut[]) => {
    const wanted = records.filter((record) => {
      const pk = record.dynamodb?.Keys?.pk?.S ?? '';
      return options.partitions.some((prefix) => pk.startsWith(prefix));
    });
    for (let i = 0; i < wanted.length && !stopped; i += options.batchSize) {
      await deliverStreamBatch(wanted.slice(i, i + options.batchSize), {
        retries: options.retries,
        stopped: () => stopped,
        pause,
        invoke: async (batch) => {
          const event = { Records: batch.map((r) => lambdaStreamRecord(r, options.streamArn, options.region)) };
          return (await options.runtime.invoke(options.functionName, event, crypto.randomUUID())) as {
            batchItemFailures?: Array<{ itemIdentifier: string }>;
          } | null;
        },
        say: (message) => options.say(`stream worker ${options.functionName} ${message}`),
        deadLetter: async (batch) => {
          await options.sqs
            .send(
              new SendMessageCommand({
                QueueUrl: options.deadLetterUrl,
                MessageBody: JSON.stringify({
                  requestContext: { condition: 'RetryAttemptsExhausted', functionArn: options.functionName },
                  DDBStreamBatchInfo: {
                    streamArn: options.streamArn,
                    startSequenceNumber: batch[0]?.dynamodb?.SequenceNumber,
                    endSequenceNumber: batch[batch.length - 1]?.dynamodb?.SequenceNumber,
                    batchSize: batch.length,
                  },
                }),
              }),
            )
            .catch((e: Error) =>
              options.say(`stream worker: the dead-letter queue did not take the batch: ${e.message}`),
            );
        },
      });
    }
  };

  const loop = (async () => {
    let lastDiscovery = 0;
    while (!stopped) {
      try {
        if (Date.now() - lastDiscovery > 5_000 || iterators.size === 0) {
          await discover();
          lastDiscovery = Date.now();
        }
        let busy = false;
        for (const [shard, iterator] of [...iterators]) {
          const out = await options.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }), {
            abortSignal: abort.signal,
          });
          const records = out.Records ?? [];
          if (records.length) {
            busy = true;
            await deliver(records);
          }
          if (out.NextShardIterator) iterators.set(shard, out.NextShardIterator);
          else {
            // the shard closed (it split): its children are found at the next discovery
            iterators.delete(shard);
            done.add(shard);
            lastDiscovery = 0;
          }
        }
        if (!busy) await pause(options.pollMs);
      } catch (error) {
        if (stopped) break;
        options.say(`stream poller: ${(error as Error).message}`);
        // an expired iterator (or the stream unreachable): start over from the shards' positions
        iterators.clear();
        lastDiscovery = 0;
        await pause(500);
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      abort.abort();
      await loop.catch(() => undefined);
    },
  };
}
