// Bulk ingestion of sensor values (docs/sensors-storage.md). Bodies too large for a synchronous
// request (API Gateway 10 MB, Lambda 6 MB) are uploaded to S3 with a presigned POST: the same JSON
// as POST /providers/values/variables, gzipped or not. The client declares the file's size and MD5
// when it starts the job; the upload's policy fixes the key, that size and that MD5, and the
// worker checks both again on what it reads before it uses anything: an object that is not the
// declared file (whoever put it there) fails the job and stores nothing. S3 notifies the bulk
// queue; the bulk worker validates everything, stores it in chunks and records the outcome on the
// job, which the client polls.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { s3Kit } from '../aws/s3';
import { config } from '../config';
import { keys } from '../db/keys';
import { getItem, putItem, updateItem } from '../db/table';
import { DomainError, NotFound } from '../errors';
import { log } from '../log';
import { newUuid } from '../util/uuid';
import { SENSOR_CODES } from './codes';
import { requireExtension, type SensorCaller } from './groups';
import { BULK_MAX_BYTES, nowSeconds } from './model';
import { sensors } from './repository';
import { parseValues } from './values';

export { BULK_MAX_BYTES };

export const BULK_PREFIX = 'sensor-bulk/';
export const BULK_UPLOAD_SECONDS = 3600;

export type JobStatus = 'awaiting_upload' | 'processing' | 'done' | 'failed';

export interface BulkJob {
  job_uuid: string;
  status: JobStatus;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  values_total: number | null;
  values_inserted: number | null;
  variables: number | null;
  items_written: number | null;
  write_units: number | null;
  peak_heap_mb: number | null;
  attempts: number;
  error: { code: string; info: string } | null;
}

const jobKey = (jobUuid: string) => `${BULK_PREFIX}${jobUuid}`;
const notFound = (jobUuid: string) => new NotFound(`bulk job ${jobUuid} not found`, { code: SENSOR_CODES.NOT_FOUND });

const jobFromItem = (item: Record<string, unknown>): BulkJob => ({
  job_uuid: String(item.job_uuid),
  status: item.status as JobStatus,
  created_at: String(item.created_at),
  started_at: (item.started_at as string | undefined) ?? null,
  finished_at: (item.finished_at as string | undefined) ?? null,
  values_total: (item.values_total as number | undefined) ?? null,
  values_inserted: (item.values_inserted as number | undefined) ?? null,
  variables: (item.variables as number | undefined) ?? null,
  items_written: (item.items_written as number | undefined) ?? null,
  write_units: (item.write_units as number | undefined) ?? null,
  peak_heap_mb: (item.peak_heap_mb as number | undefined) ?? null,
  attempts: Number(item.attempts ?? 0),
  error: (item.error as BulkJob['error'] | undefined) ?? null,
});

export interface BulkDeclaration {
  /** Bytes of the file to upload. */
  sizeBytes: number;
  /** Base64 MD5 of the file (what the Content-MD5 field carries). */
  md5: string;
}

export async function createBulkJob(caller: SensorCaller, declared: BulkDeclaration) {
  const extensionId = requireExtension(caller);
  const jobUuid = newUuid();
  await putItem({
    ...keys.sensorBulkJob(jobUuid),
    kind: 'sensor_bulk_job',
    job_uuid: jobUuid,
    user_id: caller.userId,
    extension_id: extensionId,
    status: 'awaiting_upload',
    created_at: nowSeconds(),
    size_bytes: declared.sizeBytes,
    md5: declared.md5,
    attempts: 0,
    ttl: Math.floor(Date.now() / 1000) + 30 * 86400,
  });
  const { s3, createPresignedPost } = await s3Kit();
  const post = await createPresignedPost(s3(), {
    Bucket: config().bucket,
    Key: jobKey(jobUuid),
    Conditions: [
      ['content-length-range', declared.sizeBytes, declared.sizeBytes],
      ['eq', '$Content-MD5', declared.md5],
    ],
    Fields: { 'Content-MD5': declared.md5 },
    Expires: BULK_UPLOAD_SECONDS,
  });
  return {
    jobUuid,
    upload: { url: post.url, fields: post.fields },
    expiresIn: BULK_UPLOAD_SECONDS,
    maxBytes: BULK_MAX_BYTES,
  };
}

export async function bulkJob(caller: SensorCaller, jobUuid: string): Promise<BulkJob> {
  const item = await getItem(keys.sensorBulkJob(jobUuid));
  // another user's or extension's job is answered as one that does not exist
  if (
    !item ||
    Number(item.user_id) !== caller.userId ||
    (caller.extensionId !== undefined && item.extension_id !== caller.extensionId)
  )
    throw notFound(jobUuid);
  return jobFromItem(item);
}

/** Samples the heap while `work` runs; the peak in MiB. */
async function measuringHeap<T>(work: () => Promise<T>): Promise<[T, number]> {
  let peak = process.memoryUsage().heapUsed;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return [result, Math.round(peak / 1024 / 1024)];
  } finally {
    clearInterval(timer);
  }
}

const finish = (jobUuid: string, fields: Record<string, unknown>) => {
  const names = Object.keys(fields);
  return updateItem(keys.sensorBulkJob(jobUuid), {
    expression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
    names: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
    values: Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n]])),
  });
};

/**
 * Ingests an uploaded bulk file (S3 key sensor-bulk/<job uuid>). Invalid content fails the job for
 * good; other errors are thrown so that the queue retries (and, in the end, moves it to the DLQ).
 */
export async function ingestBulkObject(key: string): Promise<void> {
  if (!key.startsWith(BULK_PREFIX)) return;
  const jobUuid = key.slice(BULK_PREFIX.length);
  const item = await getItem(keys.sensorBulkJob(jobUuid));
  if (!item) {
    log.warn('bulk upload without a job; ignored', { key });
    return;
  }
  const job = jobFromItem(item);
  if (job.status === 'done' || job.status === 'failed') return; // a redelivered notification
  await finish(jobUuid, { status: 'processing', started_at: nowSeconds(), attempts: job.attempts + 1 });
  const caller: SensorCaller = { userId: Number(item.user_id), extensionId: String(item.extension_id) };
  const { s3, GetObjectCommand, DeleteObjectCommand } = await s3Kit();
  const object = await s3().send(new GetObjectCommand({ Bucket: config().bucket, Key: key }));
  const raw = Buffer.from(await object.Body!.transformToByteArray());
  try {
    const md5 = createHash('md5').update(raw).digest('base64');
    if (raw.length !== Number(item.size_bytes) || md5 !== item.md5) {
      throw new DomainError('invalid', `the uploaded file is not the one declared (${raw.length} bytes, MD5 ${md5})`, {
        code: SENSOR_CODES.PARAMETER_ERROR,
      });
    }
    const [stats, peak] = await measuringHeap(async () => {
      const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new DomainError('invalid', 'the uploaded file is not JSON (or gzipped JSON)', {
          code: SENSOR_CODES.PARAMETER_ERROR,
        });
      }
      const parsed = parseValues(body);
      return { total: parsed.total, ...(await sensors.insertValues(caller, parsed, 16)) };
    });
    await finish(jobUuid, {
      status: 'done',
      finished_at: nowSeconds(),
      values_total: stats.total,
      values_inserted: stats.values,
      variables: stats.variables,
      items_written: stats.items,
      write_units: stats.writeUnits,
      peak_heap_mb: peak,
    });
    await s3()
      .send(new DeleteObjectCommand({ Bucket: config().bucket, Key: key }))
      .catch(() => undefined);
  } catch (error) {
    if (error instanceof DomainError && error.kind !== 'internal') {
      const info = (error.extra?.info as string | undefined) ?? error.message;
      await finish(jobUuid, {
        status: 'failed',
        finished_at: nowSeconds(),
        error: { code: String(error.code ?? 'PARAMETER_ERROR'), info },
      });
      return;
    }
    throw error;
  }
}

/** S3 event notification records of the bulk queue. */
export function objectKeysOf(body: unknown): string[] {
  const records =
    (body as { Records?: Array<{ eventSource?: string; eventName?: string; s3?: { object?: { key?: string } } }> })
      .Records ?? [];
  return records
    .filter((r) => r.eventSource === 'aws:s3' && (r.eventName ?? '').startsWith('ObjectCreated'))
    .map((r) => decodeURIComponent((r.s3?.object?.key ?? '').replace(/\+/g, ' ')));
}
