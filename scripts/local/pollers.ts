// SQS -> Lambda locally, as an event source mapping does: each queue worker's queue is polled and
// its function invoked (through the local runtime) with batches, honouring `batchItemFailures`:
// successful records are deleted; failed ones become visible again after a short local back-off
// and, past the queue's maxReceiveCount, SQS moves them to the dead-letter queue. Scheduled
// functions run at their rate (EventBridge `rate(...)`), the first time one period after start.
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { LambdaRuntime } from './runtime';

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
  const loop = (async () => {
    while (!stopped) {
      let messages: Message[] = [];
      try {
        const out = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize,
            // local-aws-sqs ends a long poll early only once it holds MaxNumberOfMessages, so a
            // lone message would wait the whole WaitTimeSeconds: short polls, 50 ms apart instead.
            WaitTimeSeconds: 0,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        messages = out.Messages ?? [];
      } catch {
        if (stopped) break;
        await pause(500);
        continue;
      }
      if (!messages.length) {
        await pause(50);
        continue;
      }
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
