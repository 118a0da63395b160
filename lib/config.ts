// Configuration, parsed once from the environment. The same code runs locally and in AWS; only
// endpoints and where secrets come from differ (docs/configuration.md).
// Read with plain functions, not zod: zod is the wire contract (schemas/), and the ~100 schemas
// this reading took were built at every function's cold start (docs/benchmarks.md, cold starts).
// The rules are those of the documented variables: a required one must be set and not empty; an
// absent one takes its default (an empty one does not: it is read as given, as a number 0);
// numbers are read as Number() reads them and must be finite and within their range.

type Environment = Record<string, string | undefined>;

interface NumberRule {
  integer?: boolean;
  min?: number;
  max?: number;
  /** Greater than zero. */
  positive?: boolean;
}

/** Reads one environment, naming every variable that is missing or out of its rule. */
class EnvironmentReader {
  readonly invalid: string[] = [];

  constructor(private readonly env: Environment) {}

  private refuse<T>(name: string, fallback: T): T {
    this.invalid.push(name);
    return fallback;
  }

  /** Set and not empty. */
  required(name: string): string {
    const value = this.env[name];
    return value ? value : this.refuse(name, '');
  }

  /** As given; `fallback` when absent. */
  text(name: string, fallback: string): string {
    return this.env[name] ?? fallback;
  }

  /** As given; undefined when absent. */
  optional(name: string): string | undefined {
    return this.env[name];
  }

  /** An endpoint: undefined when absent or empty. */
  endpoint(name: string): string | undefined {
    return this.env[name] || undefined;
  }

  /** One of `values`; `fallback` when absent. */
  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const value = this.env[name];
    if (value === undefined) return fallback;
    return (values as readonly string[]).includes(value) ? (value as T) : this.refuse(name, fallback);
  }

  /** A number within `rule`; `fallback` when absent. */
  number(name: string, fallback: number, rule: NumberRule): number {
    const raw = this.env[name];
    if (raw === undefined) return fallback;
    const value = Number(raw);
    const ok =
      Number.isFinite(value) &&
      (!rule.integer || Number.isSafeInteger(value)) &&
      (rule.min === undefined || value >= rule.min) &&
      (rule.max === undefined || value <= rule.max) &&
      (!rule.positive || value > 0);
    return ok ? value : this.refuse(name, fallback);
  }

  /** An http(s) URL template of map tiles (`{z}`, `{x}`, `{y}` in it); undefined when absent or empty. */
  tileUrl(name: string): string | undefined {
    const raw = this.env[name]?.trim();
    if (!raw) return undefined;
    const ok =
      /^https?:\/\//.test(raw) &&
      URL.canParse(raw.replace(/\{[^}]*\}/g, '0')) &&
      ['{z}', '{x}', '{y}'].every((p) => raw.includes(p));
    return ok ? raw : this.refuse(name, undefined);
  }

  /** An absolute URL; `fallback` when absent. */
  url(name: string, fallback: string): string {
    const raw = this.env[name];
    if (raw === undefined) return fallback;
    return URL.canParse(raw.trim()) ? raw.trim() : this.refuse(name, fallback);
  }
}

export type Config = {
  stage: string;
  region: string;
  table: string;
  bucket: string;
  eventsQueueUrl: string;
  imageryQueueUrl: string;
  imageryUrgentQueueUrl: string;
  imageryBulkQueueUrl: string;
  webhookQueueUrl: string;
  webhookDeadLetterQueueUrl: string;
  webhooks: { allowPrivate: boolean; timeoutMs: number; backoffSeconds: number; subscriptionConcurrency: number };
  /** The change feed (docs/integrations.md "Change feed"). */
  changes: { retentionDays: number; settleMs: number };
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
  /** The web console's raster basemap (none offline): its tile URL template and attribution. */
  console: { basemap?: string; basemapAttribution: string };
};

/** The configuration of an environment; throws with every missing or invalid variable named. */
export function readConfig(environment: Environment): Config {
  const env = new EnvironmentReader(environment);
  const integer = (name: string, fallback: number, min: number, max: number) =>
    env.number(name, fallback, { integer: true, min, max });
  const read: Config = {
    stage: env.text('SURCO_STAGE', 'local'),
    region: env.optional('SURCO_REGION') ?? env.text('AWS_REGION', 'us-east-1'),
    table: env.required('SURCO_TABLE'),
    bucket: env.required('SURCO_BUCKET'),
    eventsQueueUrl: env.required('SURCO_EVENTS_QUEUE_URL'),
    // The imagery lanes (docs/imagery.md, "Lanes"): backfill, urgent (what a user waits for) and
    // bulk (a tenant's new fields past its urgent share).
    imageryQueueUrl: env.text('SURCO_IMAGERY_QUEUE_URL', ''),
    imageryUrgentQueueUrl: env.text('SURCO_IMAGERY_URGENT_QUEUE_URL', ''),
    imageryBulkQueueUrl: env.text('SURCO_IMAGERY_BULK_QUEUE_URL', ''),
    webhookQueueUrl: env.text('SURCO_WEBHOOK_QUEUE_URL', ''),
    webhookDeadLetterQueueUrl: env.text('SURCO_WEBHOOK_DLQ_URL', ''),
    // Webhooks (docs/integrations.md): private, loopback and link-local targets and plain http are
    // refused unless allowed (the local stack allows them, so tests can receive); a delivery's
    // timeout; the first retry's delay, doubled at each further attempt.
    webhooks: {
      allowPrivate: env.oneOf('SURCO_WEBHOOKS_ALLOW_PRIVATE', ['true', 'false'], 'false') === 'true',
      timeoutMs: integer('SURCO_WEBHOOK_TIMEOUT_MS', 5000, 100, 30_000),
      backoffSeconds: integer('SURCO_WEBHOOK_BACKOFF_S', 60, 1, 900),
      subscriptionConcurrency: integer('SURCO_WEBHOOK_SUBSCRIPTION_CONCURRENCY', 2, 1, 20),
    },
    // The change feed (docs/integrations.md "Change feed"): how long a change is kept (an older
    // cursor answers 410), and how old a change must be before a page answers it (the bound on the
    // time between the worker stamping a change and its write landing: a later stamp never lands
    // before an earlier one that a cursor has passed).
    changes: {
      retentionDays: integer('SURCO_CHANGES_RETENTION_DAYS', 30, 1, 365),
      settleMs: integer('SURCO_CHANGES_SETTLE_MS', 500, 0, 10_000),
    },
    // Where satellite scenes are found (docs/imagery.md): a STAC API; Earth Search in AWS, the
    // local stack's own catalogue locally.
    stacUrl: env.url('SURCO_STAC_URL', 'https://earth-search.aws.element84.com/v1'),
    imageryDays: integer('SURCO_IMAGERY_DAYS', 365, 1, 3650),
    // Local endpoints (absent in AWS).
    endpoints: {
      dynamodb: env.endpoint('SURCO_DYNAMODB_ENDPOINT'),
      s3: env.endpoint('SURCO_S3_ENDPOINT'),
      sqs: env.endpoint('SURCO_SQS_ENDPOINT'),
    },
    // Secrets: given directly locally, read from Secrets Manager in AWS.
    internalKey: { value: env.optional('SURCO_INTERNAL_KEY'), secretId: env.optional('SURCO_INTERNAL_KEY_SECRET') },
    signingSeed: { value: env.optional('SURCO_SIGNING_SEED'), secretId: env.optional('SURCO_SIGNING_SEED_SECRET') },
    // Tokens issued by the platform itself are verified against its JWKS when configured.
    jwksUrl: env.endpoint('SURCO_JWKS_URL'),
    logLevel: env.oneOf('SURCO_LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'], 'info'),
    // Largest field accepted by POST /api/agregarlote (code 11), in hectares.
    maxFieldHectares: env.number('SURCO_MAX_FIELD_HECTARES', 10000, { positive: true }),
    // Season shapes: how long after a new shape its images are reprocessed (the job's delay on the
    // queue), and after how long a reprocessing lock is considered dead and released.
    shapeReprocessDelaySeconds: integer('SURCO_SHAPE_REPROCESS_DELAY_S', 3, 0, 900),
    shapeLockTimeoutSeconds: env.number('SURCO_SHAPE_LOCK_TIMEOUT_S', 1200, { integer: true, positive: true }),
    // File storage: after how long a replaced or deleted file is deleted again, for an upload that
    // reached S3 through its (10-second) presigned URL after the replacement.
    storageReleaseDelaySeconds: integer('SURCO_STORAGE_RELEASE_DELAY_S', 30, 0, 900),
    // Notification stream: how often it looks for new events, how often it sends PING.V1, and how
    // long one connection lasts before the client reconnects (Lambda: at most 15 minutes).
    streamPollMs: integer('SURCO_STREAM_POLL_MS', 500, 50, 10_000),
    streamPingSeconds: integer('SURCO_STREAM_PING_S', 15, 1, 300),
    streamMaxSeconds: integer('SURCO_STREAM_MAX_S', 840, 5, 870),
    // The web console (GET /console, docs/console.md) draws fields over no basemap unless the
    // deployment has a raster tile service it may use: its URL template and the attribution it asks for.
    console: {
      basemap: env.tileUrl('SURCO_CONSOLE_BASEMAP'),
      basemapAttribution: env.text('SURCO_CONSOLE_BASEMAP_ATTRIBUTION', ''),
    },
  };
  if (env.invalid.length > 0) throw new Error(`invalid configuration: ${env.invalid.join(', ')}`);
  return read;
}

let cached: Config | undefined;

/** The configuration of this process, read once; throws at first use with every missing variable named. */
export function config(): Config {
  cached ??= readConfig(process.env);
  return cached;
}
