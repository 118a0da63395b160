// The S3 kit (lib/aws/s3-client.ts: the client, the commands we send and the presigners), loaded
// once per container on first use with `await s3Kit()`, like the SQS kit (ADR 0008). Types may be
// imported from s3-client.ts (`import type`); tests/unit/pure-schemas.test.ts finds any other
// import of it.
import { config } from '../config';
import { onFirstUse } from '../util/first-use';

export type S3Kit = typeof import('./s3-client');

/** The S3 client, commands and presigners, loaded once per container on first use. */
export const s3Kit: () => Promise<S3Kit> = /* @__PURE__ */ onFirstUse(() => import('./s3-client'));

/** S3 deletes at most this many objects per request. */
const DELETE_BATCH = 1000;

/** Deletes objects of the bucket (absent ones too), a request per 1000; none: no request, and the kit is not loaded. */
export async function deleteObjects(objectKeys: readonly string[]): Promise<void> {
  if (!objectKeys.length) return;
  const { s3, DeleteObjectsCommand } = await s3Kit();
  for (let i = 0; i < objectKeys.length; i += DELETE_BATCH) {
    const batch = objectKeys.slice(i, i + DELETE_BATCH).map((Key) => ({ Key }));
    await s3().send(new DeleteObjectsCommand({ Bucket: config().bucket, Delete: { Objects: batch, Quiet: true } }));
  }
}

/**
 * The object, or undefined when S3 says it does not exist (404). Any other failure (S3 unreachable,
 * throttled, denied) propagates: an object that cannot be read now is not an object that is gone
 * (docs/reliability.md).
 */
export async function ifPresent<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
    const name = (error as Error | null)?.name;
    if (status === 404 || name === 'NoSuchKey' || name === 'NotFound') return undefined;
    throw error;
  }
}
