// lib/config.ts: the functions' configuration, read from their environment.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../lib/config';

const REQUIRED = { SURCO_TABLE: 'table', SURCO_BUCKET: 'bucket', SURCO_EVENTS_QUEUE_URL: 'http://queue' };

/** The message readConfig throws for `env`, or undefined when it reads it. */
function refusal(env: Record<string, string | undefined>): string | undefined {
  try {
    readConfig(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('configuration', () => {
  it('takes every default when only the required variables are set', () => {
    const config = readConfig(REQUIRED);
    expect(config).toEqual({
      stage: 'local',
      region: 'us-east-1',
      table: 'table',
      bucket: 'bucket',
      eventsQueueUrl: 'http://queue',
      imageryQueueUrl: '',
      imageryUrgentQueueUrl: '',
      imageryBulkQueueUrl: '',
      webhookQueueUrl: '',
      webhookDeadLetterQueueUrl: '',
      webhooks: { allowPrivate: false, timeoutMs: 5000, backoffSeconds: 60, subscriptionConcurrency: 2 },
      changes: { retentionDays: 30, settleMs: 500 },
      stacUrl: 'https://earth-search.aws.element84.com/v1',
      imageryDays: 365,
      endpoints: { dynamodb: undefined, s3: undefined, sqs: undefined },
      internalKey: { value: undefined, secretId: undefined },
      signingSeed: { value: undefined, secretId: undefined },
      jwksUrl: undefined,
      logLevel: 'info',
      maxFieldHectares: 10000,
      shapeReprocessDelaySeconds: 3,
      shapeLockTimeoutSeconds: 1200,
      storageReleaseDelaySeconds: 30,
      streamPollMs: 500,
      streamPingSeconds: 15,
      streamMaxSeconds: 840,
      console: { basemap: undefined, basemapAttribution: '' },
    });
  });

  it('reads every variable given', () => {
    const config = readConfig({
      ...REQUIRED,
      SURCO_STAGE: 'prod',
      AWS_REGION: 'sa-east-1',
      SURCO_IMAGERY_QUEUE_URL: 'http://imagery',
      SURCO_IMAGERY_URGENT_QUEUE_URL: 'http://imagery-urgent',
      SURCO_IMAGERY_BULK_QUEUE_URL: 'http://imagery-bulk',
      SURCO_WEBHOOK_QUEUE_URL: 'http://webhooks',
      SURCO_WEBHOOK_DLQ_URL: 'http://webhooks-dlq',
      SURCO_WEBHOOKS_ALLOW_PRIVATE: 'true',
      SURCO_WEBHOOK_TIMEOUT_MS: '1000',
      SURCO_WEBHOOK_BACKOFF_S: ' 1 ',
      SURCO_WEBHOOK_SUBSCRIPTION_CONCURRENCY: '20',
      SURCO_STAC_URL: 'http://127.0.0.1:3006/stac',
      SURCO_IMAGERY_DAYS: '15',
      SURCO_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      SURCO_S3_ENDPOINT: 'http://127.0.0.1:4569',
      SURCO_SQS_ENDPOINT: '',
      SURCO_INTERNAL_KEY: 'key',
      SURCO_SIGNING_SEED_SECRET: 'seed-secret',
      SURCO_JWKS_URL: 'https://issuer/.well-known/jwks.json',
      SURCO_LOG_LEVEL: 'silent',
      SURCO_MAX_FIELD_HECTARES: '2.5',
      SURCO_SHAPE_REPROCESS_DELAY_S: '0',
      SURCO_SHAPE_LOCK_TIMEOUT_S: '60',
      SURCO_STORAGE_RELEASE_DELAY_S: '2',
      SURCO_STREAM_POLL_MS: '50',
      SURCO_STREAM_PING_S: '2',
      SURCO_STREAM_MAX_S: '870',
      SURCO_CONSOLE_BASEMAP: ' https://tiles.example.org/{z}/{x}/{y}.png ',
      SURCO_CONSOLE_BASEMAP_ATTRIBUTION: '© Example',
    });
    expect(config.stage).toBe('prod');
    expect(config.region).toBe('sa-east-1');
    expect([config.imageryUrgentQueueUrl, config.imageryBulkQueueUrl]).toEqual([
      'http://imagery-urgent',
      'http://imagery-bulk',
    ]);
    expect([config.imageryQueueUrl, config.webhookQueueUrl, config.webhookDeadLetterQueueUrl]).toEqual([
      'http://imagery',
      'http://webhooks',
      'http://webhooks-dlq',
    ]);
    expect(config.webhooks).toEqual({
      allowPrivate: true,
      timeoutMs: 1000,
      backoffSeconds: 1,
      subscriptionConcurrency: 20,
    });
    expect(config.stacUrl).toBe('http://127.0.0.1:3006/stac');
    expect(config.imageryDays).toBe(15);
    // an empty endpoint is no endpoint
    expect(config.endpoints).toEqual({
      dynamodb: 'http://127.0.0.1:8000',
      s3: 'http://127.0.0.1:4569',
      sqs: undefined,
    });
    expect(config.internalKey).toEqual({ value: 'key', secretId: undefined });
    expect(config.signingSeed).toEqual({ value: undefined, secretId: 'seed-secret' });
    expect(config.jwksUrl).toBe('https://issuer/.well-known/jwks.json');
    expect(config.logLevel).toBe('silent');
    expect(config.maxFieldHectares).toBe(2.5);
    expect([
      config.shapeReprocessDelaySeconds,
      config.shapeLockTimeoutSeconds,
      config.storageReleaseDelaySeconds,
    ]).toEqual([0, 60, 2]);
    expect([config.streamPollMs, config.streamPingSeconds, config.streamMaxSeconds]).toEqual([50, 2, 870]);
    expect(config.console).toEqual({
      basemap: 'https://tiles.example.org/{z}/{x}/{y}.png',
      basemapAttribution: '© Example',
    });
  });

  it('prefers SURCO_REGION to AWS_REGION', () => {
    expect(readConfig({ ...REQUIRED, SURCO_REGION: 'eu-west-1', AWS_REGION: 'sa-east-1' }).region).toBe('eu-west-1');
  });

  it('names every required variable that is missing or empty', () => {
    expect(refusal({})).toBe('invalid configuration: SURCO_TABLE, SURCO_BUCKET, SURCO_EVENTS_QUEUE_URL');
    expect(refusal({ ...REQUIRED, SURCO_BUCKET: '' })).toBe('invalid configuration: SURCO_BUCKET');
  });

  it('refuses numbers that are not numbers, not integers where a count is read, or out of range', () => {
    const cases: Array<[string, string]> = [
      ['SURCO_WEBHOOK_TIMEOUT_MS', 'soon'],
      ['SURCO_WEBHOOK_TIMEOUT_MS', '99'],
      ['SURCO_WEBHOOK_TIMEOUT_MS', '30001'],
      ['SURCO_WEBHOOK_TIMEOUT_MS', '1500.5'],
      ['SURCO_WEBHOOK_TIMEOUT_MS', ''],
      ['SURCO_WEBHOOK_BACKOFF_S', '0'],
      ['SURCO_WEBHOOK_SUBSCRIPTION_CONCURRENCY', '21'],
      ['SURCO_IMAGERY_DAYS', '3651'],
      ['SURCO_MAX_FIELD_HECTARES', '0'],
      ['SURCO_MAX_FIELD_HECTARES', 'Infinity'],
      ['SURCO_SHAPE_REPROCESS_DELAY_S', '-1'],
      ['SURCO_SHAPE_LOCK_TIMEOUT_S', '0'],
      ['SURCO_SHAPE_LOCK_TIMEOUT_S', '1e400'],
      ['SURCO_STORAGE_RELEASE_DELAY_S', '901'],
      ['SURCO_STREAM_POLL_MS', '49'],
      ['SURCO_STREAM_PING_S', '301'],
      ['SURCO_STREAM_MAX_S', '871'],
    ];
    for (const [name, value] of cases) {
      expect(refusal({ ...REQUIRED, [name]: value }), `${name}=${value}`).toBe(`invalid configuration: ${name}`);
    }
    // the bounds themselves are accepted
    expect(
      readConfig({ ...REQUIRED, SURCO_WEBHOOK_TIMEOUT_MS: '100', SURCO_STREAM_MAX_S: '5' }).webhooks.timeoutMs,
    ).toBe(100);
  });

  it('refuses values outside their list and a STAC URL that is not one', () => {
    expect(refusal({ ...REQUIRED, SURCO_WEBHOOKS_ALLOW_PRIVATE: 'yes' })).toBe(
      'invalid configuration: SURCO_WEBHOOKS_ALLOW_PRIVATE',
    );
    expect(refusal({ ...REQUIRED, SURCO_LOG_LEVEL: 'verbose' })).toBe('invalid configuration: SURCO_LOG_LEVEL');
    expect(refusal({ ...REQUIRED, SURCO_STAC_URL: 'earth-search' })).toBe('invalid configuration: SURCO_STAC_URL');
    expect(refusal({ ...REQUIRED, SURCO_STAC_URL: '' })).toBe('invalid configuration: SURCO_STAC_URL');
  });

  it("takes the console's basemap as an http(s) tile URL with {z}, {x} and {y}; empty is none", () => {
    const basemap = (value: string) => readConfig({ ...REQUIRED, SURCO_CONSOLE_BASEMAP: value }).console.basemap;
    expect(basemap('')).toBeUndefined();
    expect(basemap('http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png')).toBe('http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png');
    for (const value of [
      'tiles.example.org/{z}/{x}/{y}.png',
      'ftp://tiles.example.org/{z}/{x}/{y}.png',
      'https://tiles.example.org/{z}/{x}.png',
      'https://tiles example/{z}/{x}/{y}.png',
    ]) {
      expect(refusal({ ...REQUIRED, SURCO_CONSOLE_BASEMAP: value }), value).toBe(
        'invalid configuration: SURCO_CONSOLE_BASEMAP',
      );
    }
  });

  it('names every broken variable at once, in the order of the table', () => {
    expect(refusal({ SURCO_BUCKET: 'b', SURCO_LOG_LEVEL: 'loud', SURCO_IMAGERY_DAYS: '0' })).toBe(
      'invalid configuration: SURCO_TABLE, SURCO_EVENTS_QUEUE_URL, SURCO_IMAGERY_DAYS, SURCO_LOG_LEVEL',
    );
  });
});
