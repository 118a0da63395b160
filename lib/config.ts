// Configuration, parsed once from the environment. The same code runs locally and in AWS; only
// endpoints and where secrets come from differ (docs/configuration.md).
import * as z from 'zod/mini';

const optionalUrl = z.pipe(z.optional(z.string()), z.transform((value) => (value ? value : undefined)));

const EnvSchema = z.object({
  SURCO_STAGE: z._default(z.string(), 'local'),
  SURCO_REGION: z.optional(z.string()),
  AWS_REGION: z._default(z.string(), 'us-east-1'),
  SURCO_TABLE: z.string().check(z.minLength(1)),
  SURCO_BUCKET: z.string().check(z.minLength(1)),
  SURCO_EVENTS_QUEUE_URL: z.string().check(z.minLength(1)),
  SURCO_IMAGERY_QUEUE_URL: z._default(z.string(), ''),
  SURCO_WEBHOOK_QUEUE_URL: z._default(z.string(), ''),
  SURCO_WEBHOOK_DLQ_URL: z._default(z.string(), ''),
  // Webhooks (docs/webhooks.md): private, loopback and link-local targets and plain http are
  // refused unless allowed (the local stack allows them, so tests can receive); a delivery's
  // timeout; the first retry's delay, doubled at each further attempt.
  SURCO_WEBHOOKS_ALLOW_PRIVATE: z._default(z.enum(['true', 'false']), 'false'),
  SURCO_WEBHOOK_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.gte(100), z.lte(30_000)), 5000),
  SURCO_WEBHOOK_BACKOFF_S: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(900)), 60),
  SURCO_WEBHOOK_SUBSCRIPTION_CONCURRENCY: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(20)), 2),
  // Where satellite scenes are found (docs/imagery.md): a STAC API; Earth Search in AWS, the local
  // stack's own catalogue locally.
  SURCO_STAC_URL: z._default(z.string().check(z.url()), 'https://earth-search.aws.element84.com/v1'),
  SURCO_IMAGERY_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(3650)), 365),
  // Local endpoints (absent in AWS).
  SURCO_DYNAMODB_ENDPOINT: optionalUrl,
  SURCO_S3_ENDPOINT: optionalUrl,
  SURCO_SQS_ENDPOINT: optionalUrl,
  // Secrets: given directly locally, read from Secrets Manager in AWS.
  SURCO_INTERNAL_KEY: z.optional(z.string()),
  SURCO_INTERNAL_KEY_SECRET: z.optional(z.string()),
  SURCO_SIGNING_SEED: z.optional(z.string()),
  SURCO_SIGNING_SEED_SECRET: z.optional(z.string()),
  // Tokens issued by the platform itself are verified against its JWKS when configured.
  SURCO_JWKS_URL: optionalUrl,
  SURCO_LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  // Largest field accepted by POST /api/agregarlote (code 11), in hectares.
  SURCO_MAX_FIELD_HECTARES: z._default(z.coerce.number().check(z.positive()), 10000),
  // Season shapes: how long after a new shape its images are reprocessed (the job's delay on the
  // queue), and after how long a reprocessing lock is considered dead and released.
  SURCO_SHAPE_REPROCESS_DELAY_S: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(900)), 3),
  SURCO_SHAPE_LOCK_TIMEOUT_S: z._default(z.coerce.number().check(z.int(), z.positive()), 1200),
  // File storage: after how long a replaced or deleted file is deleted again, for an upload that
  // reached S3 through its (10-second) presigned URL after the replacement.
  SURCO_STORAGE_RELEASE_DELAY_S: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(900)), 30),
  // Notification stream: how often it looks for new events, how often it sends PING.V1, and how
  // long one connection lasts before the client reconnects (Lambda: at most 15 minutes).
  SURCO_STREAM_POLL_MS: z._default(z.coerce.number().check(z.int(), z.gte(50), z.lte(10_000)), 500),
  SURCO_STREAM_PING_S: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(300)), 15),
  SURCO_STREAM_MAX_S: z._default(z.coerce.number().check(z.int(), z.gte(5), z.lte(870)), 840),
});

export type Config = {
  stage: string;
  region: string;
  table: string;
  bucket: string;
  eventsQueueUrl: string;
  imageryQueueUrl: string;
  webhookQueueUrl: string;
  webhookDeadLetterQueueUrl: string;
  webhooks: { allowPrivate: boolean; timeoutMs: number; backoffSeconds: number; subscriptionConcurrency: number };
  stacUrl: string;
  imageryDays: number;
  endpoints: { dynamodb?: string; s3?: string; sqs?: string };
  internalKey: { value?: string; secretId?: string };
  signingSeed: { value?: string; secretId?: string };
  jwksUrl?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  maxFieldHectares: number;
  shapeReprocessDelaySeconds: number;
  shapeLockTimeoutSeconds: number;
  storageReleaseDelaySeconds: number;
  streamPollMs: number;
  streamPingSeconds: number;
  streamMaxSeconds: number;
};

let cached: Config | undefined;

/** The parsed configuration; throws at first use with every missing variable named. */
export function config(): Config {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const names = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`invalid configuration: ${names}`);
  }
  const env = parsed.data;
  cached = {
    stage: env.SURCO_STAGE,
    region: env.SURCO_REGION ?? env.AWS_REGION,
    table: env.SURCO_TABLE,
    bucket: env.SURCO_BUCKET,
    eventsQueueUrl: env.SURCO_EVENTS_QUEUE_URL,
    imageryQueueUrl: env.SURCO_IMAGERY_QUEUE_URL,
    webhookQueueUrl: env.SURCO_WEBHOOK_QUEUE_URL,
    webhookDeadLetterQueueUrl: env.SURCO_WEBHOOK_DLQ_URL,
    webhooks: { allowPrivate: env.SURCO_WEBHOOKS_ALLOW_PRIVATE === 'true', timeoutMs: env.SURCO_WEBHOOK_TIMEOUT_MS, backoffSeconds: env.SURCO_WEBHOOK_BACKOFF_S, subscriptionConcurrency: env.SURCO_WEBHOOK_SUBSCRIPTION_CONCURRENCY },
    stacUrl: env.SURCO_STAC_URL,
    imageryDays: env.SURCO_IMAGERY_DAYS,
    endpoints: {
      dynamodb: env.SURCO_DYNAMODB_ENDPOINT,
      s3: env.SURCO_S3_ENDPOINT,
      sqs: env.SURCO_SQS_ENDPOINT,
    },
    internalKey: { value: env.SURCO_INTERNAL_KEY, secretId: env.SURCO_INTERNAL_KEY_SECRET },
    signingSeed: { value: env.SURCO_SIGNING_SEED, secretId: env.SURCO_SIGNING_SEED_SECRET },
    jwksUrl: env.SURCO_JWKS_URL,
    logLevel: env.SURCO_LOG_LEVEL,
    maxFieldHectares: env.SURCO_MAX_FIELD_HECTARES,
    shapeReprocessDelaySeconds: env.SURCO_SHAPE_REPROCESS_DELAY_S,
    shapeLockTimeoutSeconds: env.SURCO_SHAPE_LOCK_TIMEOUT_S,
    storageReleaseDelaySeconds: env.SURCO_STORAGE_RELEASE_DELAY_S,
    streamPollMs: env.SURCO_STREAM_POLL_MS,
    streamPingSeconds: env.SURCO_STREAM_PING_S,
    streamMaxSeconds: env.SURCO_STREAM_MAX_S,
  };
  return cached;
}

/** For tests that change the environment between cases. */
export function resetConfigForTests(): void {
  cached = undefined;
}
